import { Type } from 'typebox';
import { NullableTimestamp, Timestamp, Uuid } from '../http/index.ts';

export const RoleSchema = Type.Union([
  Type.Literal('admin'),
  Type.Literal('operator'),
  Type.Literal('viewer'),
  Type.Literal('auditor'),
]);
export const PlanTierSchema = Type.Union([Type.Literal('free'), Type.Literal('team'), Type.Literal('enterprise')]);
export const SubscriptionStatusSchema = Type.Union([
  Type.Literal('trialing'),
  Type.Literal('active'),
  Type.Literal('past_due'),
  Type.Literal('unpaid'),
  Type.Literal('canceled'),
]);
export const AccountStatusSchema = Type.Union([
  Type.Literal('active'),
  Type.Literal('trial_expired'),
  Type.Literal('sub_lapsed'),
  Type.Literal('sub_canceled'),
]);

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });

export const AccountSchema = Type.Object({
  id: Uuid,
  email: Type.String(),
  plan_tier: PlanTierSchema,
  tenant_id: Uuid,
  role: RoleSchema,
});

export const IssuedTokenSchema = Type.Object({
  token: Type.String({ description: 'The secret; shown this once.' }),
  token_id: Uuid,
  prefix: Type.String(),
  name: Type.String(),
});

export const QuotasSchema = Type.Object({
  invocations_used_today: Type.Integer(),
  invocations_cap_per_day: Type.Integer(),
  multi_judge_calls_used_this_month: Type.Integer(),
  multi_judge_calls_cap: Type.Integer(),
  personas_used: Type.Integer(),
  personas_cap: Type.Integer(),
  agents_registered: Type.Integer(),
  agents_cap: Type.Integer(),
});

export const PlanViewSchema = Type.Object({
  tenant_id: Uuid,
  display_name: Type.String(),
  plan_tier: PlanTierSchema,
  subscription_status: SubscriptionStatusSchema,
  trial_ends_at: NullableTimestamp,
  account_status: AccountStatusSchema,
  trial_days_remaining: Type.Union([Type.Integer(), Type.Null()]),
  quotas: QuotasSchema,
});

export const TokenListItem = Type.Object({
  token_id: Uuid,
  prefix: Type.String(),
  name: Type.String(),
  created_at: Timestamp,
  last_used_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
});

export const MemberSchema = Type.Object({
  account_id: Uuid,
  email: Type.String(),
  display_name: Type.String(),
  role: RoleSchema,
  created_at: Timestamp,
});

export const InvitationSchema = Type.Object({
  invitation_id: Uuid,
  email: Type.String(),
  role: RoleSchema,
  created_at: Timestamp,
  expires_at: Timestamp,
});
