import { createHash } from 'node:crypto';
import { globMatch } from '../policy/index.ts';

// Which audit-trail entries become events, of which type, and what of them
// leaves. An entry's own fields are commitments and enums (leaf format v2: no
// value a client sent); what people need (the agent, the tool, the verdict)
// comes from the read side's views (review/event-views.ts), the same a viewer
// sees in the API, never from the stored rows themselves.

/** Every event type a destination may ask for (besides "*"). */
export const EVENT_TYPES = [
  'invocation.denied',
  'invocation.flagged',
  'invocation.allowed',
  'rogue.recorded',
  'output_scan.flagged',
  'review.decided',
  'judgement.completed',
  'approval.requested',
  'approval.decided',
  'policy.changed',
  'token.created',
  'token.revoked',
  'member.changed',
  'witness.failed',
  'quota.reached',
  'destination.failing',
] as const;

export const TEST_EVENT = 'destination.test';

export const MODES = ['observed', 'enforced', 'shadow'] as const;

export interface Filter {
  agents?: string[];
  tools?: string[];
  modes?: (typeof MODES)[number][];
}

/** The type of the event an entry makes, or null when the entry is no event (an agent registered, a setting). */
export function eventTypeOf(leaf: Record<string, unknown>): string | null {
  switch (leaf.kind) {
    case 'invocation':
      return leaf.verdict === 'deny'
        ? 'invocation.denied'
        : leaf.verdict === 'flag_for_review'
          ? 'invocation.flagged'
          : 'invocation.allowed';
    case 'tool_output_scan':
      return leaf.verdict === 'allow' ? null : 'output_scan.flagged';
    case 'rogue':
      return 'rogue.recorded';
    case 'review':
      return 'review.decided';
    case 'judge_verdict':
      return 'judgement.completed';
    case 'approval_requested':
      return 'approval.requested';
    case 'approval_decided':
      return 'approval.decided';
    case 'policy_change':
    case 'scope_change':
      return 'policy.changed';
    case 'token_issued':
      return 'token.created';
    case 'token_revoked':
      return 'token.revoked';
    case 'member_change':
      return 'member.changed';
    case 'witness_failed':
      return 'witness.failed';
    case 'quota_reached':
      return 'quota.reached';
    case 'destination_failing':
      return 'destination.failing';
    default:
      return null;
  }
}

/** Fields of a leaf that are no part of an event's data: the envelope has them, or they are bulky. */
const ENVELOPE = new Set(['kind', 'time', 'v', 'tenant_id', 'policy', 'content', 'meta', 'opinions', 'note']);

/**
 * The leaf's fields in clear: without the envelope and without commitments
 * and pseudonyms (`sha256:…`), which mean nothing without the salts the
 * service keeps. What stays is the service's own ids, enums and counts.
 */
export function clearFields(leaf: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(leaf)) {
    if (ENVELOPE.has(k)) continue;
    if (typeof v === 'string' && v.startsWith('sha256:')) continue;
    out[k] = v;
  }
  return out;
}

/** An event's id: the same for an entry on every retry, on every node, to every destination. */
export function eventIdOf(origin: string, index: number): string {
  return `evt_${createHash('sha256').update(`${origin}\n${index}`).digest('hex').slice(0, 32)}`;
}

/** Whether a destination asked for an event type. */
export function wants(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/** The agent, tool and mode an event is about, when it is about an agent's action. */
export interface Subject {
  agent?: string | null;
  tool?: string | null;
  mode?: string | null;
}

/**
 * Whether a filter lets an event through. A filter narrows the events about an
 * agent's action (invocations, rogue events, scans, reviews, judgements): each
 * field set must match (an event without the value does not). Events about the
 * workspace (policy, tokens, members, destinations) have no agent and pass.
 */
export function passes(filter: Filter, subject: Subject | null): boolean {
  if (subject === null) return true;
  const match = (globs: string[] | undefined, value: string | null | undefined) =>
    globs === undefined || globs.length === 0 || (!!value && globs.some((g) => globMatch(g, value)));
  if (!match(filter.agents, subject.agent)) return false;
  if (!match(filter.tools, subject.tool)) return false;
  if (
    filter.modes &&
    filter.modes.length > 0 &&
    !(subject.mode && filter.modes.includes(subject.mode as (typeof MODES)[number]))
  )
    return false;
  return true;
}

/**
 * A value as JSON.parse(JSON.stringify(v)) gives it back (dates as their
 * ISO text, undefined fields dropped, non-finite numbers null), built in one
 * walk: the read side's rows become plain data without a string in between.
 */
export function plainJson(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v === null || typeof v !== 'object') return v;
  const json = (v as { toJSON?: unknown }).toJSON;
  if (typeof json === 'function') return plainJson((json as () => unknown).call(v));
  if (Array.isArray(v))
    return v.map((x: unknown) =>
      x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : plainJson(x),
    );
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    out[k] = plainJson(x);
  }
  return out;
}
