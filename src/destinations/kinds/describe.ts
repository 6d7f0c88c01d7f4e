import type { OutboundEvent } from '../kind.ts';

// What a person reads about an event (Slack, e-mail): a headline, the few
// fields that say what happened, and where to look in the console. Built only
// from the event as the engine made it (data already redacted). The data's
// names follow the read side (agent_key, tool_name, verdict, reasons, mode,
// invocation_id; a rogue event's event_type, tool, severity); the short
// spellings are read too so a new event type does not lose its fields.

export interface Described {
  headline: string;
  fields: Array<[label: string, value: string]>;
  reasons: string[];
  /** The console page for the event, when the target knows the console's URL. */
  link?: string;
}

const TITLES: Record<string, string> = {
  'invocation.denied': 'Denied',
  'invocation.flagged': 'Flagged for review',
  'invocation.allowed': 'Allowed',
  'rogue.recorded': 'Rogue event',
  'output_scan.flagged': 'Tool output flagged',
  'review.decided': 'Review decided',
  'judgement.completed': 'Judgement completed',
  'approval.requested': 'Approval requested',
  'approval.decided': 'Approval decided',
  'policy.changed': 'Policy changed',
  'token.created': 'API token created',
  'token.revoked': 'API token revoked',
  'member.changed': 'Member changed',
  'witness.failed': 'Witness failed',
  'quota.reached': 'Quota reached',
  'destination.failing': 'Destination failing',
  'destination.test': 'Test event',
};

const MAX_VALUE = 200;

function text(v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s;
}

export function agentOf(data: Record<string, unknown>): string | undefined {
  return text(data['agent_key'] ?? data['agent']);
}

export function toolOf(data: Record<string, unknown>): string | undefined {
  return text(data['tool_name'] ?? data['tool']);
}

export function reasonsOf(data: Record<string, unknown>): string[] {
  const r = data['reasons'];
  if (!Array.isArray(r)) return [];
  return r
    .slice(0, 10)
    .map((x) => text(x))
    .filter((x): x is string => x !== undefined);
}

export function describe(event: OutboundEvent, consoleUrl?: string): Described {
  const d = event.data;
  const agent = agentOf(d);
  const tool = toolOf(d);
  const title = TITLES[event.type] ?? event.type;
  const headline = [title, agent && `${agent}${tool ? ` → ${tool}` : ''}`].filter(Boolean).join(': ');
  const fields: Array<[string, string]> = [['Event', event.type]];
  const add = (label: string, v: unknown) => {
    const s = text(v);
    if (s !== undefined) fields.push([label, s]);
  };
  add('Agent', agent);
  add('Tool', tool);
  add('Verdict', d['verdict'] ?? d['decision']);
  add('Mode', d['mode']);
  add('Rogue event', d['event_type']);
  add('Severity', d['severity']);
  add('Invocation', d['invocation_id']);
  fields.push(['Audit-trail entry', `${event.evidence.index} of ${event.evidence.log_origin}`]);
  const out: Described = { headline, fields, reasons: reasonsOf(d) };
  const link = consoleLink(event, consoleUrl);
  if (link) out.link = link;
  return out;
}

/** The console page an event is best read on, or undefined without a console URL. */
export function consoleLink(event: OutboundEvent, consoleUrl?: string): string | undefined {
  if (!consoleUrl) return undefined;
  const base = consoleUrl.replace(/\/+$/, '');
  const inv = event.data['invocation_id'];
  if (typeof inv === 'number' || (typeof inv === 'string' && /^\d+$/.test(inv)))
    return `${base}/invocations?selected=${encodeURIComponent(String(inv))}`;
  if (event.type.startsWith('rogue.')) return `${base}/rogue`;
  return `${base}/audit`;
}
