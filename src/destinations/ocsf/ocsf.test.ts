import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { anEvent } from '../testing/events.ts';
import { OcsfSchema, SCHEMA_DIR } from '../testing/ocsf-validator.ts';
import { OCSF_READY, OCSF_VERSION, toOcsf } from './index.ts';

// Every mapped event is checked against the OCSF schema's own class and object
// definitions (vendored in ./schema) by the validator in testing/.

const schema = new OcsfSchema();
type O = Record<string, unknown> & {
  metadata: Record<string, unknown>;
  finding_info: Record<string, unknown>;
  evidences: Array<Record<string, Record<string, unknown>>>;
  actor: Record<string, unknown>;
  api: Record<string, unknown>;
  attestation_list: Array<{ fingerprint: Record<string, unknown> } & Record<string, unknown>>;
  unmapped: Record<string, unknown>;
};
const ocsf = (...a: Parameters<typeof anEvent>) => {
  const e = anEvent(...a);
  return { e, o: toOcsf(e) as O };
};

const TYPES = [
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
  'destination.test',
];

test('every event type maps to a valid OCSF event: denies and flags are Detection Findings, the rest API Activity', () => {
  assert.equal(OCSF_READY, true);
  for (const type of TYPES) {
    const { o } = ocsf(type);
    assert.deepEqual(schema.validate(o), [], type);
    const finding = ['invocation.denied', 'invocation.flagged', 'output_scan.flagged'].includes(type);
    assert.equal(o['class_uid'], finding ? 2004 : 6003, type);
  }
  // An admin event names no agent: the service acts, still valid.
  const { o } = ocsf('policy.changed', {
    agent_key: undefined,
    tool_name: undefined,
    invocation_id: undefined,
    verdict: undefined,
  });
  assert.deepEqual(schema.validate(o), []);
  assert.deepEqual(
    [o['activity_id'], o['type_uid'], o.actor, o.api],
    [3, 600303, { app_name: 'agent-ledger' }, { operation: 'policy.changed' }],
  );
});

test('a deny: Detection Finding naming the event, the agent and tool as evidence, blocked when enforced', () => {
  const { e, o } = ocsf('invocation.denied');
  assert.deepEqual(
    [o['category_uid'], o['class_uid'], o['activity_id'], o['type_uid'], o['severity_id'], o['time']],
    [2, 2004, 1, 200401, 4, Date.parse(e.occurred_at)],
  );
  assert.deepEqual(o.finding_info, {
    uid: e.id,
    title: 'Tool call denied: billing-bot → stripe.refund',
    types: ['invocation.denied'],
    created_time: Date.parse(e.occurred_at),
    desc: 'secret: aws_access_key in arguments',
    analytic: { type_id: 1, type: 'Rule', name: 'secret: aws_access_key in arguments' },
  });
  assert.deepEqual(o.evidences, [
    {
      actor: { app_name: 'billing-bot' },
      api: { operation: 'stripe.refund', request: { uid: '42' } },
      ai_agent: { name: 'billing-bot' },
    },
  ]);
  assert.deepEqual([o['action'], o['disposition'], o['is_alert']], ['Denied', 'Blocked', true]);
  const observed = toOcsf(anEvent('invocation.denied', { mode: 'observed' }));
  assert.deepEqual([observed['action'], observed['disposition']], ['Observed', 'Detected']);
  assert.deepEqual(schema.validate(observed), []);
});

test('an allowed call: API Activity with the agent as actor and the tool as the API operation', () => {
  const { o } = ocsf('invocation.allowed', { verdict: 'allow', reasons: [] });
  assert.deepEqual(
    [o['category_uid'], o['class_uid'], o['activity_id'], o['activity_name'], o['type_uid'], o['severity_id']],
    [6, 6003, 99, 'Invoke', 600399, 1],
  );
  assert.deepEqual(o.actor, { app_name: 'billing-bot' });
  assert.deepEqual(o.api, { operation: 'stripe.refund', request: { uid: '42' } });
  assert.deepEqual(o['src_endpoint'], { name: 'billing-bot' });
  assert.deepEqual(o['ai_agent'], { name: 'billing-bot' });
  assert.deepEqual([o['action'], o['disposition']], ['Allowed', 'Allowed']);
  assert.deepEqual(o.metadata['profiles'], ['security_control', 'record_integrity', 'ai_operation']);
  const rogue = toOcsf(
    anEvent('rogue.recorded', { tool_name: undefined, tool: 'shell.exec', verdict: undefined }),
  ) as O;
  assert.deepEqual([rogue['class_uid'], rogue['severity_id'], rogue.api['operation']], [6003, 3, 'shell.exec']);
  assert.equal(rogue['action_id'], undefined, 'a rogue event was not decided by a control');
});

test('the evidence travels: metadata names the event and its log entry; the attestation carries the leaf hash', () => {
  const { e, o } = ocsf('invocation.flagged', { correlation_id: 'run-7' });
  assert.deepEqual(o.metadata, {
    uid: e.id,
    version: OCSF_VERSION,
    product: { name: 'agent-ledger', vendor_name: 'agent-ledger' },
    profiles: ['security_control', 'record_integrity'],
    tenant_uid: e.tenant_id,
    event_code: 'invocation.flagged',
    log_name: 'audit-trail',
    log_provider: e.evidence.log_origin,
    sequence: 41,
    logged_time: Date.parse(e.recorded_at),
    correlation_uid: 'run-7',
  });
  assert.deepEqual(o.attestation_list, [
    {
      uid: '41',
      authority_uid: e.evidence.log_origin,
      chain_uid: e.evidence.log_origin,
      fingerprint: {
        algorithm_id: 3,
        algorithm: 'SHA-256',
        value: e.evidence.leaf_hash,
        encoding_id: 2,
        encoding: 'Base64',
        serialization_id: 99,
        serialization: 'agent-ledger audit-trail leaf (RFC 6962)',
      },
    },
  ]);
  assert.deepEqual(o.unmapped, { event_type: 'invocation.flagged', data: e.data, evidence: e.evidence });
  assert.equal(JSON.stringify(o).includes(JSON.stringify(e.data)), true, 'data exactly as given, nothing added');
});

test('the validator finds what is wrong (it can fail)', () => {
  const good = toOcsf(anEvent('invocation.allowed'));
  const broken = (patch: (o: O) => void) => {
    const o = structuredClone(good) as O;
    patch(o);
    return schema.validate(o);
  };
  assert.deepEqual(
    broken((o) => delete o['time']),
    ['time: required'],
  );
  assert.deepEqual(
    broken((o) => delete o.api['operation']),
    ['api.operation: required'],
  );
  assert.deepEqual(
    broken((o) => (o['severity_id'] = 7)),
    ['severity_id: 7 is not one of 0, 1, 2, 3, 4, 5, 6, 99'],
  );
  assert.deepEqual(
    broken((o) => (o['time'] = '2026-03-01')),
    ['time: must be an integer (timestamp_t)'],
  );
  assert.deepEqual(
    broken((o) => (o['type_uid'] = 600301)),
    ['type_uid: 600301 is not class_uid × 100 + activity_id'],
  );
  assert.deepEqual(
    broken((o) => (o['verdict'] = 'deny')),
    ['verdict: not an attribute here'],
  );
  assert.deepEqual(
    broken((o) => (o.actor = {})),
    ['actor: needs at least one of process, user, iam_role, invoked_by, session, app_name, app_uid'],
  );
  assert.deepEqual(
    broken((o) => (o.metadata['profiles'] = ['security_control', 'ai_operation'])),
    ['attestation_list: belongs to profile record_integrity, not in metadata.profiles'],
  );
  assert.deepEqual(
    broken((o) => (o.attestation_list[0]!.fingerprint['algorithm_id'] = 'sha256')),
    ['attestation_list[0].fingerprint.algorithm_id: must be a 32-bit integer'],
  );
  assert.deepEqual(
    broken((o) => (o['device'] = { name: 'x' })),
    ['device: belongs to profile host, not in metadata.profiles', 'device: object type device is not vendored'],
  );
  assert.deepEqual(
    broken((o) => (o.actor['process'] = { pid: 1 })),
    ['actor.process: object type process is not vendored'],
  );
  assert.deepEqual(schema.validate({ ...good, class_uid: 3001 }), ['class_uid: 3001 is not a vendored class']);
});

test('the vendored schema says where it came from and under which licence; the mapping names its version', () => {
  const version = JSON.parse(readFileSync(join(SCHEMA_DIR, 'version.json'), 'utf8')) as { version: string };
  assert.equal(OCSF_VERSION, version.version);
  assert.equal(schema.version, OCSF_VERSION);
  const notice = readFileSync(join(SCHEMA_DIR, 'NOTICE'), 'utf8');
  assert.match(notice, /https:\/\/github\.com\/ocsf\/ocsf-schema at commit [0-9a-f]{40}/);
  assert.match(notice, /Apache License, Version 2\.0/);
  assert.match(readFileSync(join(SCHEMA_DIR, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0, January 2004/);
});
