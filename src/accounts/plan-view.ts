import type { Config } from '../config/index.ts';
import type { Queryable } from '../db/index.ts';
import type { UsageSource } from './deps.ts';
import type { Workspace } from './directory.ts';
import { accountStatus, capsOf, trialDaysRemaining } from './plans.ts';

/** The plan, status and live quotas of a workspace: shared by /me and the operator API. */
export async function planView(config: Config, usage: UsageSource, ws: Workspace, now: Date) {
  const caps = capsOf(config, ws.plan_tier);
  const [invocationsToday, agents, personas, judgeCalls] = await Promise.all([
    usage.invocationsToday(ws.tenant_id, now),
    usage.agentsRegistered(ws.tenant_id),
    usage.personasUsed(ws.tenant_id),
    usage.judgeCallsThisMonth(ws.tenant_id, now),
  ]);
  return {
    tenant_id: ws.tenant_id,
    display_name: ws.display_name,
    plan_tier: ws.plan_tier,
    subscription_status: ws.subscription_status,
    trial_ends_at: ws.trial_ends_at,
    account_status: accountStatus(ws, now),
    trial_days_remaining: trialDaysRemaining(ws, now),
    quotas: {
      invocations_used_today: invocationsToday,
      invocations_cap_per_day: caps.invocations_per_day,
      multi_judge_calls_used_this_month: judgeCalls,
      multi_judge_calls_cap: caps.multi_judge_calls_per_month,
      personas_used: personas,
      personas_cap: caps.personas,
      agents_registered: agents,
      agents_cap: caps.agents,
    },
  };
}

export async function listWorkspaces(db: Queryable, after: string | null, limit: number): Promise<Workspace[]> {
  return db.query<Workspace & Record<string, unknown>>(
    `SELECT tenant_id, display_name, domain, plan_tier, subscription_status, trial_ends_at, created_at
     FROM workspaces WHERE ($1::uuid IS NULL OR tenant_id > $1::uuid) ORDER BY tenant_id LIMIT $2`,
    [after, limit],
  );
}
