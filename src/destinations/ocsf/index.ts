import type { OutboundEvent } from '../kind.ts';

// The OCSF mapping of an event (format 'ocsf'), checked in tests against the
// schema files vendored in ./schema (see its NOTICE for source and licence):
//   - a deny or a flag (invocation.denied, invocation.flagged,
//     output_scan.flagged) is a Detection Finding (2004): finding_info names
//     the event, the agent and the tool are its evidence;
//   - everything else — an invocation allowed, a rogue event, an admin's
//     change — is API Activity (6003): the agent (or whoever acted) is the
//     actor, the tool the API operation.
// Every event carries its audit-trail evidence: metadata.uid is the event id,
// metadata.log_provider / sequence the log origin and the entry's index, and
// the record_integrity profile's attestation holds the entry's leaf hash as
// the event's fingerprint in the log's chain (the complete evidence, with the
// checkpoint, is in unmapped.evidence, beside the event's data as given).

/** The OCSF schema version the mapping follows (the vendored schema's version.json). */
export const OCSF_VERSION = '1.9.0-dev';

/** True once toOcsf maps events; the API refuses format 'ocsf' while it is false. */
export const OCSF_READY = true;

const FINDING_TYPES = new Set(['invocation.denied', 'invocation.flagged', 'output_scan.flagged']);

const SEVERITY: Record<string, [id: number, caption: string]> = {
  'invocation.denied': [4, 'High'],
  'witness.failed': [4, 'High'],
  'invocation.flagged': [3, 'Medium'],
  'output_scan.flagged': [3, 'Medium'],
  'rogue.recorded': [3, 'Medium'],
  'quota.reached': [3, 'Medium'],
  'destination.failing': [3, 'Medium'],
  'token.created': [2, 'Low'],
  'token.revoked': [2, 'Low'],
  'policy.changed': [2, 'Low'],
  'member.changed': [2, 'Low'],
};
const INFORMATIONAL: [number, string] = [1, 'Informational'];

/** API Activity's activities; what is not a create, update or delete of something is Other ("Invoke" for a tool call). */
const API_ACTIVITY: Record<string, [id: number, caption: string]> = {
  'token.created': [1, 'Create'],
  'approval.requested': [1, 'Create'],
  'policy.changed': [3, 'Update'],
  'member.changed': [3, 'Update'],
  'review.decided': [3, 'Update'],
  'approval.decided': [3, 'Update'],
  'token.revoked': [4, 'Delete'],
};

const PRODUCT = { name: 'agent-ledger', vendor_name: 'agent-ledger' };

function str(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function epochMs(iso: string): number | undefined {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
}

function reasons(data: Record<string, unknown>): string[] {
  const r = data['reasons'];
  return Array.isArray(r) ? r.map(str).filter((x): x is string => x !== undefined) : [];
}

/** What a security control did: [action_id, action, disposition_id, disposition]. */
function control(type: string, data: Record<string, unknown>): [number, string, number, string] | undefined {
  const verdict = str(data['verdict']);
  const enforced = str(data['mode']) === 'enforced';
  if (type === 'invocation.denied' || verdict === 'deny')
    // Only an enforced deny stopped anything; an observed one had already happened.
    return enforced ? [2, 'Denied', 2, 'Blocked'] : [3, 'Observed', 15, 'Detected'];
  if (type === 'invocation.flagged' || type === 'output_scan.flagged' || verdict === 'flag_for_review')
    return [3, 'Observed', 19, 'Alert'];
  if (type === 'invocation.allowed' || verdict === 'allow') return [1, 'Allowed', 1, 'Allowed'];
  return undefined;
}

function title(event: OutboundEvent, agent?: string, tool?: string): string {
  const what: Record<string, string> = {
    'invocation.denied': 'Tool call denied',
    'invocation.flagged': 'Tool call flagged for review',
    'output_scan.flagged': 'Tool output flagged',
  };
  const head = what[event.type] ?? event.type;
  return agent ? `${head}: ${agent}${tool ? ` → ${tool}` : ''}` : head;
}

export function toOcsf(event: OutboundEvent): Record<string, unknown> {
  const d = event.data;
  const agent = str(d['agent_key'] ?? d['agent']);
  const tool = str(d['tool_name'] ?? d['tool']);
  const invocation = str(d['invocation_id']);
  const finding = FINDING_TYPES.has(event.type);
  const [severityId, severity] = SEVERITY[event.type] ?? INFORMATIONAL;
  const time = epochMs(event.occurred_at) ?? epochMs(event.recorded_at) ?? 0;
  const ev = event.evidence;

  const metadata: Record<string, unknown> = {
    uid: event.id,
    version: OCSF_VERSION,
    product: PRODUCT,
    profiles: ['security_control', 'record_integrity'],
    tenant_uid: event.tenant_id,
    event_code: event.type,
    log_name: 'audit-trail',
    log_provider: ev.log_origin,
  };
  // sequence is a 32-bit integer in OCSF; a log that outgrew it still has the index in the attestation.
  if (Number.isInteger(ev.index) && ev.index < 2 ** 31) metadata['sequence'] = ev.index;
  const logged = epochMs(event.recorded_at);
  if (logged !== undefined) metadata['logged_time'] = logged;
  const correlation = str(d['correlation_id']);
  if (correlation) metadata['correlation_uid'] = correlation;

  const hex = /^[0-9a-f]{64}$/i.test(ev.leaf_hash);
  const attestation = {
    uid: String(ev.index),
    authority_uid: ev.log_origin,
    chain_uid: ev.log_origin,
    fingerprint: {
      algorithm_id: 3,
      algorithm: 'SHA-256',
      value: ev.leaf_hash,
      encoding_id: hex ? 1 : 2,
      encoding: hex ? 'Hex' : 'Base64',
      // The fingerprinted bytes are the audit-trail leaf (RFC 6962 leaf hash of its canonical JSON), not this OCSF record.
      serialization_id: 99,
      serialization: 'agent-ledger audit-trail leaf (RFC 6962)',
    },
  };

  const out: Record<string, unknown> = {};
  if (finding) {
    Object.assign(out, {
      category_uid: 2,
      category_name: 'Findings',
      class_uid: 2004,
      class_name: 'Detection Finding',
      activity_id: 1,
      activity_name: 'Create',
      type_uid: 200401,
      type_name: 'Detection Finding: Create',
    });
  } else {
    const [activityId, activityName] = API_ACTIVITY[event.type] ?? [99, 'Invoke'];
    Object.assign(out, {
      category_uid: 6,
      category_name: 'Application Activity',
      class_uid: 6003,
      class_name: 'API Activity',
      activity_id: activityId,
      activity_name: activityName,
      type_uid: 600300 + activityId,
      type_name: `API Activity: ${activityName}`,
    });
  }
  out['severity_id'] = severityId;
  out['severity'] = severity;
  out['time'] = time;
  out['message'] = title(event, agent, tool);
  out['metadata'] = metadata;
  const ctl = control(event.type, d);
  if (ctl) Object.assign(out, { action_id: ctl[0], action: ctl[1], disposition_id: ctl[2], disposition: ctl[3] });
  out['attestation_list'] = [attestation];

  // Who acted: the agent for an agent's event; a person or the service for the rest.
  const actor: Record<string, unknown> = {};
  if (agent) actor['app_name'] = agent;
  const principal = str(d['principal_id'] ?? d['actor'] ?? d['user_id']);
  if (principal && principal !== agent) actor['user'] = { uid: principal };
  if (Object.keys(actor).length === 0) actor['app_name'] = 'agent-ledger';
  const api: Record<string, unknown> = { operation: tool ?? event.type };
  if (invocation) api['request'] = { uid: invocation };

  if (finding) {
    const rs = reasons(d);
    const info: Record<string, unknown> = {
      uid: event.id,
      title: title(event, agent, tool),
      types: [event.type],
      created_time: time,
    };
    if (rs.length > 0) {
      info['desc'] = rs.join('; ');
      info['analytic'] = { type_id: 1, type: 'Rule', name: rs[0] };
    }
    out['finding_info'] = info;
    out['is_alert'] = true;
    out['status_id'] = 1;
    out['status'] = 'New';
    const evidence: Record<string, unknown> = { actor, api };
    if (agent) evidence['ai_agent'] = { name: agent };
    out['evidences'] = [evidence];
  } else {
    out['actor'] = actor;
    out['api'] = api;
    out['src_endpoint'] = { name: agent ?? 'agent-ledger' };
    if (agent) {
      out['ai_agent'] = { name: agent };
      (metadata['profiles'] as string[]).push('ai_operation');
    }
  }
  out['unmapped'] = { event_type: event.type, data: d, evidence: ev };
  return out;
}
