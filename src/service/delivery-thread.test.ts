// Delivery on a thread of its own (delivery-host.ts, delivery-thread.ts): on
// PostgreSQL a served node delivers from a worker thread with its own pool,
// started only once a destination exists (delivery-on-demand.ts); a deny
// reaches a webhook, signed, and an e-mail destination through the service's
// mailer (which the thread asks for), drain() crosses to the thread; a thread
// that dies is started again and goes on from its cursors; with every
// destination paused the thread stops, and one resumed elsewhere starts it
// again; closing the service ends the thread. PGlite keeps delivery in the
// service's thread.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type SignedIn, startTestService, type TestService } from '../testing/harness.ts';
import { INVOCATION, newWorkspace, post } from '../testing/ingest-kit.ts';
import { testStores } from '../testing/test-db.ts';
import { DeliveryThread } from './delivery-host.ts';
import { DeliveryOnDemand } from './delivery-on-demand.ts';

const DENY_SHELL = {
  default_verdict: 'allow',
  rules: [{ id: 'deny-shell', when: { tools: ['shell*'] }, verdict: 'deny' }],
};

/** The thread loads the service's modules: seconds on a busy machine. */
async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A webhook receiver that holds each request a while, noting the log index of each event and how many it held at once. */
function slowReceiver(holdMs: number) {
  const got = { indexes: [] as number[], inFlight: 0, maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.inFlight++;
      got.maxInFlight = Math.max(got.maxInFlight, got.inFlight);
      got.indexes.push(
        (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { evidence: { index: number } }).evidence.index,
      );
      const timer = setTimeout(() => res.writeHead(204).end(), holdMs);
      // Answered, or cut off by the sender (a thread ended mid-request).
      res.on('close', () => {
        clearTimeout(timer);
        got.inFlight--;
      });
    });
  });
  return { got, server };
}

for (const store of testStores()) {
  describe(`delivery thread [${store}]`, () => {
    let t: TestService | undefined;
    let a: SignedIn;
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });

    before(async () => {
      t = await startTestService(store, {
        deliveryThread: true,
        env: { DESTINATION_POLL_MS: '50' },
        // Checks far apart, so a thread running right after a destination is made was woken by it, and one
        // running again right after a crash was restarted, not found by a check.
        deliveryThreadTiming: { restartMs: 200, checkMs: 3_000, idleMs: 1 },
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      a = await newWorkspace(t, 'thread');
      const put = await t.request({ method: 'PUT', url: '/api/v1/policy', token: a.token, payload: DENY_SHELL });
      assert.equal(put.statusCode, 200, put.body);
    });
    after(async () => {
      await t?.close();
      receiver.close();
    });

    test(
      store === 'postgres'
        ? 'a served PostgreSQL node has a delivery thread, not started while no workspace has a destination'
        : 'PGlite delivers in the service thread',
      async () => {
        const deliveries = t!.service.deliveries;
        if (store === 'postgres') {
          assert.ok(deliveries instanceof DeliveryOnDemand);
          assert.ok(t!.service.deliveryThread instanceof DeliveryThread);
          // Past the first check (at start) and the next one.
          await new Promise((r) => setTimeout(r, 3_500));
          assert.equal(t!.service.deliveryThread.running, false);
          // Nothing to deliver to: drain() has nothing to run and starts nothing.
          await deliveries.drain();
          assert.equal(t!.service.deliveryThread.running, false);
        } else {
          assert.equal(deliveries, t!.service.destinations.worker);
          assert.equal(t!.service.deliveryThread, undefined);
        }
      },
    );

    test('a deny reaches a webhook, signed, and the admins by e-mail; drain() waits for it', async () => {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const hook = await t!.request({
        method: 'POST',
        url: '/api/v1/destinations',
        token: a.token,
        payload: { name: 'on-call', kind: 'webhook', url, events: ['invocation.denied'] },
      });
      assert.equal(hook.statusCode, 201, hook.body);
      // Made through this node: the thread starts at once, not at the next check.
      if (store === 'postgres') assert.equal(t!.service.deliveryThread?.running, true);
      const { secret } = hook.json() as { secret: string };
      const to = `oncall@${a.account.email.split('@')[1]}`;
      const mail = await t!.request({
        method: 'POST',
        url: '/api/v1/destinations',
        token: a.token,
        payload: { name: 'mail', kind: 'email', url: `mailto:${to}`, events: ['invocation.denied'] },
      });
      assert.equal(mail.statusCode, 201, mail.body);

      const res = await post(t!, INVOCATION, a.token, { agent_key: 'ops-bot', tool_name: 'shell.exec' });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal((res.json() as { verdict: string }).verdict, 'deny');
      await t!.service.deliveries.drain();
      // The thread's own poller may have sent it before drain() ran: either way it is there now or soon.
      await until('the webhook', () => received.length === 1);
      const [got] = received;
      const headers = Object.fromEntries(Object.entries(got!.headers).map(([k, v]) => [k, String(v)]));
      const event = new Webhook(secret).verify(got!.body, headers) as {
        id: string;
        type: string;
        evidence: { index: number; leaf_hash: string };
      };
      assert.equal(event.type, 'invocation.denied');
      assert.equal(headers['webhook-id'], event.id);
      const entry = await t!.request({ url: `/api/v1/audit/entries/${event.evidence.index}`, token: a.token });
      assert.equal((entry.json() as { leaf_hash: string }).leaf_hash, event.evidence.leaf_hash);
      // The e-mail kind sends through the service's mailer: the thread asks the service's thread for it.
      const sent = await t!.smtp.waitFor((m) => m.to.includes(to), 30_000);
      assert.match(sent.text ?? sent.subject, /shell\.exec|denied/i);

      // The destinations' deliveries are logged by the thread like by the in-process worker: behind the send
      // (drain() may have found the destination leased by the thread's own poller's pass, still writing it).
      const logUrl = `/api/v1/destinations/${(hook.json() as { destination_id: string }).destination_id}/deliveries`;
      await until('the delivery logged', async () => {
        const log = await t!.request({ url: logUrl, token: a.token });
        assert.equal(log.statusCode, 200, log.body);
        return (log.json() as { deliveries: Array<{ event_id: string; status: string }> }).deliveries.some(
          (d) => d.event_id === event.id && d.status === 'delivered',
        );
      });
    });

    test('a thread that dies is started again and goes on from its cursors: nothing lost, nothing sent twice at once', async (c) => {
      if (store !== 'postgres') return c.skip('PGlite has no delivery thread');
      const thread = t!.service.deliveryThread!;
      const slow = slowReceiver(100);
      await new Promise<void>((r) => slow.server.listen(0, '127.0.0.1', r));
      try {
        const url = `http://127.0.0.1:${(slow.server.address() as AddressInfo).port}/slow`;
        const made = await t!.request({
          method: 'POST',
          url: '/api/v1/destinations',
          token: a.token,
          payload: { name: 'slow', kind: 'webhook', url, events: ['invocation.denied'] },
        });
        assert.equal(made.statusCode, 201, made.body);
        const DENIES = 12;
        for (let i = 0; i < DENIES; i++) {
          const res = await post(t!, INVOCATION, a.token, { agent_key: 'ops-bot', tool_name: `shell.run${i}` });
          assert.equal(res.statusCode, 201, res.body);
        }
        // Mid-pass: some sent, one held by the receiver, the rest waiting.
        await until('the first deliveries', () => slow.got.indexes.length >= 3);
        await thread.kill();
        const beforeKill = slow.got.indexes.slice();
        await until('the thread ended', () => !thread.running, 5_000);
        // Restarted after restartMs (200 ms), well before the next check (3 s) or the dead thread's lease (120 s).
        await until('the thread started again', () => thread.running, 2_500);
        await until('every deny delivered', () => new Set(slow.got.indexes).size === DENIES);
        const all = [...new Set(slow.got.indexes)].sort((x, y) => x - y);
        assert.equal(all.length, DENIES);
        assert.equal(slow.got.maxInFlight, 1, 'two sends to one destination at once');
        // Before the kill, in log order; after it, from the cursor the dead thread's bookkeeping left (at or
        // before the last sent: at least once), in log order to the end, no gap.
        assert.deepEqual(beforeKill, all.slice(0, beforeKill.length));
        const after = slow.got.indexes.slice(beforeKill.length);
        const from = all.indexOf(after[0]!);
        assert.ok(
          from >= 0 && from <= beforeKill.length,
          `resumed at ${after[0]}, sent before: ${beforeKill.join(',')}`,
        );
        assert.deepEqual(after, all.slice(from));
        // Its bookkeeping done: the destination's cursor is past them all, its lease let go.
        const cursor = async () =>
          (
            await t!.testDb.db.query<{ next_index: number; lease_owner: string | null }>(
              `SELECT next_index, lease_owner FROM destination_cursors WHERE destination_id = $1`,
              [(made.json() as { destination_id: string }).destination_id],
            )
          )[0]!;
        await until('the cursor past every deny', async () => {
          const c = await cursor();
          return Number(c.next_index) > all.at(-1)! && c.lease_owner === null;
        });
        assert.equal(new Set(slow.got.indexes).size, DENIES);
      } finally {
        slow.server.close();
      }
    });

    test('with every destination paused the thread stops; one resumed on another node starts it again', async (c) => {
      if (store !== 'postgres') return c.skip('PGlite has no delivery thread');
      const thread = t!.service.deliveryThread!;
      const list = await t!.request({ url: '/api/v1/destinations', token: a.token });
      const ids = (list.json() as { destinations: Array<{ destination_id: string; name: string }> }).destinations;
      assert.ok(ids.length >= 2, list.body);
      for (const d of ids) {
        const res = await t!.request({
          method: 'PATCH',
          url: `/api/v1/destinations/${d.destination_id}`,
          token: a.token,
          payload: { paused: true },
        });
        assert.equal(res.statusCode, 200, res.body);
      }
      // Two checks (3 s apart) find none: stopped after its pass.
      await until('the thread stopped', () => !thread.running, 15_000);
      // Another node's API resumes the webhook: only the database says so, this node finds it at its next check.
      const hook = ids.find((d) => d.name === 'on-call')!;
      await t!.testDb.db.query(`UPDATE destination_cursors SET paused = false WHERE destination_id = $1`, [
        hook.destination_id,
      ]);
      await until('the thread started by a check', () => thread.running, 10_000);
      const before = received.length;
      const res = await post(t!, INVOCATION, a.token, { agent_key: 'ops-bot', tool_name: 'shell.again' });
      assert.equal((res.json() as { verdict: string }).verdict, 'deny');
      await until('the deny at the webhook', () =>
        received
          .slice(before)
          .some((r) => (JSON.parse(r.body) as { data: { tool_name?: string } }).data.tool_name === 'shell.again'),
      );
    });

    test('closing the service ends the thread', async () => {
      const thread = t!.service.deliveryThread;
      await t!.close();
      t = undefined;
      if (thread) assert.equal(thread.running, false);
    });
  });
}
