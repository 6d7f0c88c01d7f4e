// Fairness between workspaces on the ingest path (issue #36): one workspace's
// flood of long texts waits in its own queue for the detectors, served in turn
// with every other workspace's events; another workspace's event is scanned,
// decided and stored while the flood's backlog still waits, not after it.
// (Latency under a flood is measured by bench/ingest-fair.ts, not here.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { eachStore, type TestService } from '../testing/harness.ts';
import { INVOCATION, newWorkspace, post, query } from '../testing/ingest-kit.ts';

const BATCH = '/api/v1/admin/agents/events/batch';
const METRICS_TOKEN = 'metrics_fairness_token_0123456789';

/** A prompt of `chars` characters with an e-mail and a phone number every few hundred (the detectors' real work). */
function prompt(i: number, chars: number): string {
  let s = '';
  for (let j = 0; s.length < chars; j++)
    s +=
      j % 4 === 3
        ? `Reply to customer${i}.${j}@example.com or call +1 415 555 ${String(1000 + ((i + j) % 9000))} today. `
        : `Case ${i}-${j}: the agent summarised the order history and drafted an answer for review. `;
  return s.slice(0, chars);
}

/** Events waiting for the detectors (the agent_ledger_scans_waiting gauge). */
async function scansWaiting(t: TestService): Promise<number> {
  const res = await t.request({ method: 'GET', url: '/metrics', token: METRICS_TOKEN });
  assert.equal(res.statusCode, 200);
  const m = /^agent_ledger_scans_waiting (\d+)/m.exec(res.body);
  assert.ok(m, 'the scan scheduler exposes its backlog');
  return Number(m[1]);
}

async function invocations(t: TestService, tenantId: string): Promise<number> {
  const [row] = await query<{ n: number }>(t, 'SELECT count(*)::int AS n FROM invocations WHERE tenant_id = $1', [
    tenantId,
  ]);
  return row!.n;
}

eachStore(
  'fairness between workspaces',
  (get) => {
    test("another workspace's event is stored while a flood's backlog still waits for the detectors", async () => {
      const t = get();
      const flooder = await newWorkspace(t, 'fair-flood');
      const other = await newWorkspace(t, 'fair-other');
      const events = Array.from({ length: 500 }, (_, i) => ({
        kind: 'invocation',
        event: { agent_key: `bulk-${i % 4}`, tool_name: 'summarise', prompt: prompt(i, 4000) },
      }));
      let floodAnswered = false;
      const flood = post(t, BATCH, flooder.token, { events }).then((res) => {
        floodAnswered = true;
        return res;
      });
      // The flood's scans are queued: more than a slice of the loop's time.
      const deadline = Date.now() + 30_000;
      while ((await scansWaiting(t)) === 0) {
        assert.ok(!floodAnswered && Date.now() < deadline, 'the flood never queued its scans');
        await sleep(1);
      }
      const single = await post(t, INVOCATION, other.token, {
        agent_key: 'support-bot',
        tool_name: 'reply',
        tool_input: 'Write to jane.doe@example.com about her refund.',
      });
      assert.equal(single.statusCode, 201, single.body);
      assert.equal(single.json().pii_count, 1, 'scanned: the e-mail address was found');
      const waitingThen = await scansWaiting(t);
      assert.ok(!floodAnswered, 'the other workspace was answered before the flood');
      assert.ok(waitingThen > 0, `the flood's backlog still waited (${waitingThen} scans) when it was answered`);
      assert.equal(await invocations(t, other.account.tenant_id), 1);
      assert.equal(await invocations(t, flooder.account.tenant_id), 0, 'nothing of the flood was written yet');

      const res = await flood;
      assert.equal(res.statusCode, 207, res.body);
      const results = res.json().results as Array<{ status: number }>;
      assert.equal(results.filter((r) => r.status === 201).length, 500, 'every event of the flood stored');
      assert.equal(await invocations(t, flooder.account.tenant_id), 500);
      assert.equal(await scansWaiting(t), 0);
    });
  },
  { env: { METRICS_TOKEN } },
);
