// Delivery on a thread of its own (delivery-host.ts, delivery-thread.ts): on
// PostgreSQL a served node delivers from a worker thread with its own pool;
// a deny reaches a webhook, signed, and an e-mail destination through the
// service's mailer (which the thread asks for), drain() crosses to the thread,
// and closing the service ends the thread. PGlite keeps delivery in the
// service's thread.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type SignedIn, startTestService, type TestService } from '../testing/harness.ts';
import { INVOCATION, newWorkspace, post } from '../testing/ingest-kit.ts';
import { testStores } from '../testing/test-db.ts';
import { DeliveryThread } from './delivery-host.ts';

const DENY_SHELL = {
  default_verdict: 'allow',
  rules: [{ id: 'deny-shell', when: { tools: ['shell*'] }, verdict: 'deny' }],
};

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
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
      t = await startTestService(store, { deliveryThread: true, env: { DESTINATION_POLL_MS: '50' } });
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
        ? 'a served PostgreSQL node delivers from its own thread'
        : 'PGlite delivers in the service thread',
      () => {
        const deliveries = t!.service.deliveries;
        if (store === 'postgres') {
          assert.ok(deliveries instanceof DeliveryThread);
          assert.equal(deliveries.running, true);
        } else assert.equal(deliveries, t!.service.destinations.worker);
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

      // The destinations' deliveries are logged by the thread like by the in-process worker.
      const log = await t!.request({
        url: `/api/v1/destinations/${(hook.json() as { destination_id: string }).destination_id}/deliveries`,
        token: a.token,
      });
      assert.equal(log.statusCode, 200, log.body);
      assert.ok(
        (log.json() as { deliveries: Array<{ event_id: string; status: string }> }).deliveries.some(
          (d) => d.event_id === event.id && d.status === 'delivered',
        ),
        log.body,
      );
    });

    test('closing the service ends the thread', async () => {
      const deliveries = t!.service.deliveries;
      await t!.close();
      t = undefined;
      if (deliveries instanceof DeliveryThread) assert.equal(deliveries.running, false);
    });
  });
}
