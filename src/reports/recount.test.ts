import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeBase64 } from '../ledger/bytes.ts';
import { commitment, encodeLeaf, newSalt } from '../ledger/leaf.ts';
import { recountFacts } from './recount.ts';

// A log written before leaf format v2 and after it: v1 leaves name agents and
// rogue event types in clear, v2 leaves by pseudonym; one recount reads both.

const period = { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' };
const time = '2026-01-10T00:00:00.000Z';
const agentSalt = newSalt();
const typeSalt = newSalt();
const agent = commitment(agentSalt, 'pay-bot');
const type = commitment(typeSalt, 'oos_tool');
const entries = [
  {
    kind: 'invocation',
    invocation_id: 1,
    agent_key: 'pay-bot',
    mode: 'observed',
    verdict: 'allow',
    findings: {},
    time,
  },
  { kind: 'rogue', event_type: 'oos_tool', agent_key: 'pay-bot', time },
  {
    v: 2,
    kind: 'invocation',
    invocation_id: 2,
    agent,
    mode: 'enforced',
    verdict: 'deny',
    findings: { tool_input: { CREDIT_CARD: 1 } },
    meta: 'sha256:x',
    time,
  },
  { v: 2, kind: 'rogue', type, agent, meta: 'sha256:y', time },
].map((leaf, index) => ({ index, leaf: encodeLeaf(leaf) }));

test('v1 and v2 leaves recount together once the report opens the pseudonyms', () => {
  const f = recountFacts(entries, period, {
    agent: { 'pay-bot': encodeBase64(agentSalt) },
    rogue_event_type: { oos_tool: encodeBase64(typeSalt) },
  });
  assert.equal(f.totals.invocations, 2);
  assert.deepEqual(f.totals.invocations_by_agent, { 'pay-bot': 2 });
  assert.deepEqual(f.totals.invocations_by_verdict, { allow: 1, deny: 1 });
  assert.deepEqual(f.totals.rogue_events_by_type, { oos_tool: 2 });
  assert.deepEqual(f.totals.pii_findings_by_type, { CREDIT_CARD: 1 });
});

test('a pseudonym the report does not open (or opens with another salt) is counted apart', () => {
  const none = recountFacts(entries, period);
  assert.deepEqual(none.totals.invocations_by_agent, { 'pay-bot': 1, [agent]: 1 });
  assert.deepEqual(none.totals.rogue_events_by_type, { oos_tool: 1, [type]: 1 });
  const wrong = recountFacts(entries, period, {
    agent: { 'pay-bot': encodeBase64(newSalt()) },
    rogue_event_type: { oos_tool: 'not base64!' },
  });
  assert.deepEqual(wrong.totals.invocations_by_agent, { 'pay-bot': 1, [agent]: 1 });
  assert.deepEqual(wrong.totals.rogue_events_by_type, { oos_tool: 1, [type]: 1 });
  // Opening another value with the right salt does not relabel it either.
  const swapped = recountFacts(entries, period, { agent: { 'mail-bot': encodeBase64(agentSalt) } });
  assert.deepEqual(swapped.totals.invocations_by_agent, { 'pay-bot': 1, [agent]: 1 });
});
