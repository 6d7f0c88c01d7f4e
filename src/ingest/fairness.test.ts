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

eachStore(
  'a workspace past its share of the node',
  (get) => {
    test("its further requests get 429 with Retry-After, nothing of them stored; another workspace's are recorded", async () => {
      const t = get();
      const flooder = await newWorkspace(t, 'room-flood');
      const other = await newWorkspace(t, 'room-other');
      // Two batches of ~80 KB: the first fills the workspace's 64 KiB room, the second finds no room and no wait.
      const batch = (tag: string) => ({
        events: Array.from({ length: 20 }, (_, i) => ({
          kind: 'invocation',
          event: { agent_key: `room-${tag}`, tool_name: 'summarise', prompt: prompt(i, 4000) },
        })),
      });
      const [one, two, single] = await Promise.all([
        post(t, BATCH, flooder.token, batch('a')),
        post(t, BATCH, flooder.token, batch('b')),
        post(t, INVOCATION, other.token, { agent_key: 'room-single', tool_name: 'reply' }),
      ]);
      // Whichever was admitted first is recorded; the other is refused.
      assert.deepEqual([one.statusCode, two.statusCode].sort(), [207, 429], `${one.body} ${two.body}`);
      const [admitted, refused] = one.statusCode === 207 ? [one, 'room-b'] : [two, 'room-a'];
      assert.ok(admitted.json().results.every((r: { status: number }) => r.status === 201));
      const busy = one.statusCode === 429 ? one : two;
      assert.equal(busy.headers['retry-after'], '1');
      assert.equal(busy.json().code, 'rate_limited');
      assert.equal(single.statusCode, 201, single.body);
      const agents = await query<{ agent_key: string; n: number }>(
        t,
        'SELECT agent_key, count(*)::int AS n FROM invocations WHERE tenant_id = $1 GROUP BY agent_key',
        [flooder.account.tenant_id],
      );
      assert.equal(agents.length, 1);
      assert.equal(agents[0]!.n, 20);
      assert.notEqual(agents[0]!.agent_key, refused, 'the refused batch stored nothing');
      // Its room is given back once answered: the workspace's next batch goes.
      const again = await post(t, BATCH, flooder.token, batch('c'));
      assert.equal(again.statusCode, 207, again.body);
    });
  },
  { env: { INGEST_WORKSPACE_BYTES: String(64 * 1024), INGEST_WORKSPACE_WAIT_MS: '0' } },
);
