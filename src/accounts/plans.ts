import type { Config, PlanCaps, PlanTier } from '../config/index.ts';
import type { AccountStatus } from '../core/index.ts';

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled';

export interface WorkspacePlan {
  plan_tier: PlanTier;
  subscription_status: SubscriptionStatus;
  trial_ends_at: Date | null;
}

const DAY_MS = 86_400_000;

/** account_status is derived from the subscription and the clock, never stored (API.md). */
export function accountStatus(ws: WorkspacePlan, now: Date): AccountStatus {
  switch (ws.subscription_status) {
    case 'active':
      return 'active';
    case 'trialing':
      // The free plan never expires; a trial without an end date has not ended.
      if (ws.plan_tier === 'free' || ws.trial_ends_at === null) return 'active';
      return now.getTime() < ws.trial_ends_at.getTime() ? 'active' : 'trial_expired';
    case 'past_due':
    case 'unpaid':
      return 'sub_lapsed';
    case 'canceled':
      return 'sub_canceled';
  }
}

/** Whole days left in a running trial (rounded up), 0 once it is over, null when not trialing. */
export function trialDaysRemaining(ws: WorkspacePlan, now: Date): number | null {
  if (ws.subscription_status !== 'trialing' || ws.trial_ends_at === null) return null;
  return Math.max(0, Math.ceil((ws.trial_ends_at.getTime() - now.getTime()) / DAY_MS));
}

export function capsOf(config: Config, tier: PlanTier): PlanCaps {
  return config.plans[tier];
}

/** Seconds until the next UTC midnight, when daily quotas reset. */
export function secondsToUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
