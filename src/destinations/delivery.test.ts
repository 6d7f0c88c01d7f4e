// Destinations end to end, on both stores: the API an admin uses, and the
// delivery worker sending the audit trail's events to a real HTTP receiver on
// 127.0.0.1 through the webhook kind, every request verified with the
// standardwebhooks package and every event's evidence checked against the log.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { OCSF_READY } from './ocsf/index.ts';
import { addMember, expectProblem, INVOCATION, newWorkspace, post, query } from '../testing/ingest-kit.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  /** The parsed payload. */
  event: {
    id: string;
    type: string;
    tenant_id: string;
    data: Record<string, unknown>;
    evidence: { log_origin: string; index: number; leaf_hash: string; checkpoint?: string };
  };
}

/** A receiver that answers each request with the next scripted status (204 when none is left), recording all. */
class Receiver {
  readonly requests: Received[] = [];
  readonly script: number[] = [];
  /** Requests in flight now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  delayMs = 0;
  #server: Server;
  url = '';

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        const status = this.script.shift() ?? 204;
        const body = Buffer.concat(chunks).toString('utf8');
        setTimeout(() => {
          this.inFlight--;
          this.requests.push({ headers: req.headers, body, status, event: JSON.parse(body) as Received['event'] });
          res.writeHead(status, status === 429 ? { 'retry-after': '0' } : {}).end(status >= 400 ? 'not now' : '');
        }, this.delayMs);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** The requests the receiver took (2xx). */
  delivered(): Received[] {
    return this.requests.filter((r) => r.status >= 200 && r.status < 300);
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((r) => this.#server.close(() => r()));
  }
}

function headersOf(r: Received): Record<string, string> {
  return Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const DENY_SHELL = {
  default_verdict: 'allow',
  rules: [{ id: 'deny-shell', when: { tools: ['shell*'] }, verdict: 'deny' }],
};

eachStore(
  'destinations',
  (get) => {
    let t: TestService;
    let a: SignedIn;
    let viewer: SignedIn;
    let b: SignedIn;
    let ra: Receiver;
    let rb: Receiver;

    const create = (who: SignedIn, payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/v1/destinations', token: who.token, payload });
    const invoke = async (who: SignedIn, agent: string, tool: string) => {
      const res = await post(t, INVOCATION, who.token, { agent_key: agent, tool_name: tool });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as { invocation_id: number; verdict: string };
    };
    const drain = () => t.service.deliveries.drain();

    test('setup: two workspaces, each denying shell tools, with a receiver each', async () => {
      t = get();
      a = await newWorkspace(t, 'dest-a');
      viewer = await addMember(t, a, 'viewer');
      b = await newWorkspace(t, 'dest-b');
      for (const w of [a, b]) {
        const put = await t.request({ method: 'PUT', url: '/api/v1/policy', token: w.token, payload: DENY_SHELL });
        assert.equal(put.statusCode, 200, put.body);
      }
      ra = await new Receiver().start();
      rb = await new Receiver().start();
    });

    test('a viewer may not add a destination (403); refused addresses, kinds and formats are 422', async () => {
      const ok = { name: 'x', kind: 'webhook', url: ra.url, events: ['*'] };
      expectProblem(await create(viewer, ok), 403, 'forbidden');
      const listed = await t.request({ method: 'GET', url: '/api/v1/destinations', token: viewer.token });
      expectProblem(listed, 403, 'forbidden');
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://[fd00:ec2::254]/',
        'http://[fe80::1]/hook',
        'http://[::ffff:169.254.169.254]/',
      ]) {
        const p = expectProblem(await create(a, { ...ok, url }), 422, 'unprocessable');
        assert.equal(p.errors?.[0]?.field, '/url', url);
        assert.match(p.errors?.[0]?.message ?? '', /address refused/);
      }
      const kind = expectProblem(await create(a, { ...ok, kind: 'pigeon' }), 422, 'unprocessable');
      assert.equal(kind.errors?.[0]?.field, '/kind');
      // format ocsf is refused only while the mapping is not there (OCSF_READY).
      if (!OCSF_READY) {
        const ocsf = expectProblem(await create(a, { ...ok, format: 'ocsf' }), 422, 'unprocessable');
        assert.equal(ocsf.errors?.[0]?.field, '/format');
      }
      const type = expectProblem(
        await create(a, { ...ok, events: ['invocation.denied', 'nope'] }),
        422,
        'unprocessable',
      );
      assert.equal(type.errors?.[0]?.field, '/events/1');
      assert.match(type.errors?.[0]?.message ?? '', /^must be one of .*"invocation\.denied".*"\*"/);
      const none = await t.request({ method: 'GET', url: '/api/v1/destinations', token: a.token });
      assert.deepEqual(none.json(), { destinations: [] });
    });

    let destA = '';
    let secretA = '';
    test('an admin adds a webhook: 201 with the secret once, never again; the change is an audit-trail entry', async () => {
      const res = await create(a, { name: 'siem', kind: 'webhook', url: ra.url, events: ['invocation.denied'] });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json() as { destination_id: string; secret: string; state: string; token_set: boolean };
      assert.match(body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(body.state, 'active');
      destA = body.destination_id;
      secretA = body.secret;
      const one = await t.request({ method: 'GET', url: `/api/v1/destinations/${destA}`, token: a.token });
      assert.equal(one.statusCode, 200);
      assert.equal(one.json().secret, undefined);
      assert.ok(!one.body.includes(secretA.slice(6)), 'the secret is never shown again');
      // At rest it is sealed: not in the row in any form.
      const [row] = await query<{ secret_sealed: string }>(
        t,
        'SELECT secret_sealed FROM destinations WHERE destination_id = $1',
        [destA],
      );
      assert.ok(!row!.secret_sealed.includes(secretA.slice(6)));
      const [leaf] = await query<{ leaf: string }>(
        t,
        `SELECT leaf FROM log_entries WHERE tenant_id = $1 AND leaf LIKE '%destination_change%' ORDER BY idx DESC LIMIT 1`,
        [a.account.tenant_id],
      );
      const l = JSON.parse(leaf!.leaf);
      assert.equal(l.change, 'created');
      assert.equal(l.destination_id, destA);
      assert.ok(!leaf!.leaf.includes('127.0.0.1'), 'no URL in the log');

      const resB = await create(b, { name: 'all', kind: 'webhook', url: rb.url, events: ['*'] });
      assert.equal(resB.statusCode, 201, resB.body);
      // Another workspace's destination is not found from here.
      const cross = await t.request({
        method: 'GET',
        url: `/api/v1/destinations/${resB.json().destination_id}`,
        token: a.token,
      });
      expectProblem(cross, 404, 'not_found');
    });

    test('a deny reaches the receiver signed, with data as the read side shows it and evidence that verifies', async () => {
      const denied = await invoke(a, 'ops-bot', 'shell.exec');
      assert.equal(denied.verdict, 'deny');
      await invoke(a, 'ops-bot', 'search'); // allowed: not asked for
      await invoke(b, 'b-bot', 'shell.exec'); // workspace B's
      await drain();
      assert.equal(ra.requests.length, 1, ra.requests.map((r) => r.event.type).join());
      const r = ra.requests[0]!;
      const wh = new Webhook(secretA);
      const verified = wh.verify(r.body, headersOf(r)) as Received['event'];
      assert.equal(verified.type, 'invocation.denied');
      assert.throws(() => wh.verify(r.body.replace('deny', 'allow'), headersOf(r)), /signature/i);
      assert.equal(r.headers['webhook-id'], verified.id);
      assert.equal(verified.tenant_id, a.account.tenant_id);
      // The data is what GET /api/v1/invocations/{id} shows every role.
      const shown = await t.request({
        method: 'GET',
        url: `/api/v1/invocations/${denied.invocation_id}`,
        token: viewer.token,
      });
      const inv = shown.json() as Record<string, unknown>;
      assert.equal(verified.data.invocation_id, denied.invocation_id);
      for (const k of ['agent_key', 'tool_name', 'verdict', 'reasons', 'mode', 'evidence_id']) {
        assert.deepEqual(verified.data[k], inv[k], k);
      }
      // The evidence names the entry: its leaf hash is SHA-256(0x00 ‖ leaf) of the log's entry at that index.
      const ev = verified.evidence;
      const key = await t.request({ method: 'GET', url: '/api/v1/audit/key', token: a.token });
      assert.equal(ev.log_origin, key.json().origin);
      const entry = await t.request({ method: 'GET', url: `/api/v1/audit/entries/${ev.index}`, token: a.token });
      assert.equal(entry.statusCode, 200);
      const { leaf, leaf_hash } = entry.json() as { leaf: string; leaf_hash: string };
      assert.equal(ev.leaf_hash, leaf_hash);
      const recomputed = createHash('sha256')
        .update(Buffer.from([0]))
        .update(leaf, 'utf8')
        .digest('base64');
      assert.equal(ev.leaf_hash, recomputed);
      const parsed = JSON.parse(leaf);
      assert.equal(parsed.kind, 'invocation');
      assert.equal(parsed.invocation_id, denied.invocation_id);
      assert.equal(verified.data.evidence_id, ev.index + 1);

      // Workspace B's receiver got B's events only, A's never (and A's never B's).
      assert.ok(rb.requests.length >= 1);
      for (const x of rb.requests) assert.equal(x.event.tenant_id, b.account.tenant_id);
      for (const x of ra.requests) assert.equal(x.event.tenant_id, a.account.tenant_id);
      assert.ok(!rb.requests.some((x) => x.body.includes('ops-bot')));
      assert.ok(rb.requests.some((x) => x.event.type === 'invocation.denied' && x.event.data.agent_key === 'b-bot'));

      const log = await t.request({ method: 'GET', url: `/api/v1/destinations/${destA}/deliveries`, token: a.token });
      const [d] = log.json().deliveries as Array<Record<string, unknown>>;
      assert.equal(d!.event_id, verified.id);
      assert.equal(d!.status, 'delivered');
      assert.equal(d!.attempts, 1);
      assert.equal(d!.http_status, 204);
    });

    test('a receiver that fails then recovers gets every event, in log order, the same id on every retry', async () => {
      ra.requests.length = 0;
      ra.script.push(503, 429);
      const first = await invoke(a, 'ops-bot', 'shell.rm');
      const second = await invoke(a, 'ops-bot', 'shell.ls');
      await drain();
      assert.equal(ra.requests.length, 1, 'one try, then it waits');
      const failing = await t.request({ method: 'GET', url: `/api/v1/destinations/${destA}`, token: a.token });
      assert.match(failing.json().last_error, /HTTP 503/);
      await until('both delivered', async () => {
        await drain();
        return ra.delivered().length === 2;
      });
      const ids = ra.requests.map((r) => r.event.id);
      const [id1, id2] = ra.delivered().map((r) => r.event.id);
      // The first event was tried until taken, and the second never went before it.
      assert.deepEqual(ids, [id1, id1, id1, id2]);
      assert.deepEqual(
        ra.delivered().map((r) => r.event.data.invocation_id),
        [first.invocation_id, second.invocation_id],
      );
      assert.ok(ra.delivered()[0]!.event.evidence.index < ra.delivered()[1]!.event.evidence.index);
      for (const r of ra.requests) new Webhook(secretA).verify(r.body, headersOf(r));
      const log = await t.request({ method: 'GET', url: `/api/v1/destinations/${destA}/deliveries`, token: a.token });
      const row = (log.json().deliveries as Array<Record<string, unknown>>).find((d) => d.event_id === id1);
      assert.equal(row!.attempts, 3);
      assert.equal(row!.status, 'delivered');
      const healed = await t.request({ method: 'GET', url: `/api/v1/destinations/${destA}`, token: a.token });
      assert.equal(healed.json().last_error, null);
      assert.equal(healed.json().state, 'active');
    });

    test('the test event is delivered now and answers with the receiver status', async () => {
      ra.requests.length = 0;
      const res = await t.request({ method: 'POST', url: `/api/v1/destinations/${destA}/test`, token: a.token });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual({ ok: res.json().ok, status: res.json().status }, { ok: true, status: 204 });
      const r = ra.requests[0]!;
      const ev = new Webhook(secretA).verify(r.body, headersOf(r)) as Received['event'];
      assert.equal(ev.type, 'destination.test');
      assert.equal(ev.id, res.json().event_id);
      ra.script.push(500);
      const bad = await t.request({ method: 'POST', url: `/api/v1/destinations/${destA}/test`, token: a.token });
      assert.deepEqual({ ok: bad.json().ok, status: bad.json().status }, { ok: false, status: 500 });
      const asViewer = await t.request({
        method: 'POST',
        url: `/api/v1/destinations/${destA}/test`,
        token: viewer.token,
      });
      expectProblem(asViewer, 403, 'forbidden');
    });

    test('410 Gone disables the destination; resuming delivers what waited, from its cursor', async () => {
      ra.requests.length = 0;
      ra.script.push(410);
      const held = await invoke(a, 'ops-bot', 'shell.cat');
      await drain();
      const off = await t.request({ method: 'GET', url: `/api/v1/destinations/${destA}`, token: a.token });
      assert.equal(off.json().state, 'disabled');
      assert.match(off.json().disabled_reason, /410/);
      await invoke(a, 'ops-bot', 'shell.cp');
      await drain();
      assert.equal(ra.requests.length, 1, 'nothing sent to a disabled destination');
      const on = await t.request({
        method: 'PATCH',
        url: `/api/v1/destinations/${destA}`,
        token: a.token,
        payload: { paused: false },
      });
      assert.equal(on.statusCode, 200, on.body);
      assert.equal(on.json().state, 'active');
      await drain();
      const got = ra.delivered().map((r) => r.event.data.invocation_id);
      assert.equal(got[0], held.invocation_id, 'the event the 410 refused comes first');
      assert.equal(got.length, 2);
    });

    test('paused, nothing is sent; PATCH by a viewer is 403; the changes are audit-trail entries', async () => {
      const pause = await t.request({
        method: 'PATCH',
        url: `/api/v1/destinations/${destA}`,
        token: a.token,
        payload: { paused: true },
      });
      assert.equal(pause.json().paused, true);
      ra.requests.length = 0;
      await invoke(a, 'ops-bot', 'shell.mv');
      await drain();
      assert.equal(ra.requests.length, 0);
      const byViewer = await t.request({
        method: 'PATCH',
        url: `/api/v1/destinations/${destA}`,
        token: viewer.token,
        payload: { paused: false },
      });
      expectProblem(byViewer, 403, 'forbidden');
      const changes = await query<{ leaf: string }>(
        t,
        `SELECT leaf FROM log_entries WHERE tenant_id = $1 AND leaf LIKE '%"destination_change"%' ORDER BY idx`,
        [a.account.tenant_id],
      );
      const kinds = changes.map((c) => JSON.parse(c.leaf).change);
      assert.deepEqual(kinds, ['created', 'updated', 'updated']);
    });

    test('a filter narrows by agent and tool globs', async () => {
      const res = await create(a, {
        name: 'filtered',
        kind: 'webhook',
        url: ra.url,
        events: ['invocation.denied', 'invocation.allowed'],
        filter: { agents: ['prod-*'], tools: ['shell.*'] },
      });
      assert.equal(res.statusCode, 201, res.body);
      ra.requests.length = 0;
      await invoke(a, 'dev-bot', 'shell.exec');
      await invoke(a, 'prod-bot', 'search');
      const hit = await invoke(a, 'prod-bot', 'shell.exec');
      await drain();
      assert.deepEqual(
        ra.requests.map((r) => r.event.data.invocation_id),
        [hit.invocation_id],
      );
      const del = await t.request({
        method: 'DELETE',
        url: `/api/v1/destinations/${res.json().destination_id}`,
        token: a.token,
      });
      assert.equal(del.statusCode, 204);
    });

    test('two nodes never send to one destination at once; a node that stops mid-send is taken over from the cursor', async () => {
      const res = await create(a, { name: 'nodes', kind: 'webhook', url: rb.url, events: ['invocation.denied'] });
      assert.equal(res.statusCode, 201, res.body);
      const id = res.json().destination_id as string;
      rb.requests.length = 0;
      rb.maxInFlight = 0;
      rb.delayMs = 30;
      const sent: number[] = [];
      for (let i = 0; i < 6; i++) sent.push((await invoke(a, `n-${i}`, 'shell.exec')).invocation_id);
      const one = t.service.destinations.newWorker({ leaseMs: 300 });
      const two = t.service.destinations.newWorker({ leaseMs: 300 });
      await Promise.all([one.drain(), two.drain(), one.drain(), two.drain()]);
      const mine = () => rb.delivered().filter((r) => r.event.tenant_id === a.account.tenant_id);
      assert.equal(rb.maxInFlight, 1, 'never two requests to one destination at once');
      assert.deepEqual(
        mine().map((r) => r.event.data.invocation_id),
        sent,
      );

      // A node stops while the receiver holds its request; the restarted node (another worker, no memory) goes on.
      rb.requests.length = 0;
      rb.delayMs = 1500;
      const more: number[] = [];
      for (let i = 0; i < 3; i++) more.push((await invoke(a, `m-${i}`, 'shell.exec')).invocation_id);
      const dying = t.service.destinations.newWorker({ leaseMs: 300 });
      const pass = dying.drain();
      await until('the first send started', () => rb.inFlight === 1);
      await dying.stop();
      await pass;
      rb.delayMs = 0;
      const restarted = t.service.destinations.newWorker({ leaseMs: 300 });
      await until('the rest delivered', async () => {
        await restarted.drain();
        return new Set(mine().map((r) => r.event.data.invocation_id)).size === 3;
      });
      const order = mine().map((r) => r.event.data.invocation_id as number);
      // At least once, in log order: a repeat of the interrupted event is allowed, a gap or a reordering never.
      assert.deepEqual([...new Set(order)], more);
      const after = await t.request({ method: 'GET', url: `/api/v1/destinations/${id}`, token: a.token });
      assert.equal(after.json().state, 'active');
    });

    test('failing for 24 h marks a destination failing and tells the other destinations; 72 h disables it', async () => {
      const down = await new Receiver().start();
      const watch = await new Receiver().start();
      try {
        down.script.push(...Array<number>(10).fill(500));
        const f = await create(a, { name: 'down', kind: 'webhook', url: down.url, events: ['invocation.denied'] });
        const g = await create(a, { name: 'watch', kind: 'webhook', url: watch.url, events: ['destination.failing'] });
        assert.equal(f.statusCode, 201, f.body);
        assert.equal(g.statusCode, 201, g.body);
        const fid = f.json().destination_id as string;
        await invoke(a, 'ops-bot', 'shell.kill');
        await drain();
        // The first retry is due 10 ms later on the database's clock, so a slow drain may already have
        // made it; what matters is that failures within the first 24 h of the test clock keep it active.
        const tried = down.requests.length;
        assert.ok(tried >= 1, 'the deny was attempted');
        const state = async () =>
          (await t.request({ method: 'GET', url: `/api/v1/destinations/${fid}`, token: a.token })).json();
        assert.equal((await state()).state, 'active');
        t.clock.advance(25 * 3_600_000);
        await until('a failure after 25 h', async () => {
          await drain();
          return down.requests.length > tried;
        });
        assert.equal((await state()).state, 'failing');
        // The workspace's admins are told by e-mail, through the service's mailer (a real SMTP server here).
        const told = (m: { subject: string }) => m.subject === 'agent-ledger: destination "down" is failing';
        const mail = await t.smtp.waitFor((m) => told(m) && m.to.includes(a.account.email), 5000);
        assert.match(
          mail.text,
          /The webhook destination "down" of your agent-ledger workspace has failed every delivery/,
        );
        assert.match(mail.text, /Last error: HTTP 500/);
        assert.match(mail.text, new RegExp(`Destination id: ${fid}`));
        assert.ok(!mail.raw.includes(down.url.replace(/^http:\/\//, '')), 'no URL in the mail');
        await drain();
        assert.equal(watch.requests.length, 1);
        const ev = new Webhook(g.json().secret as string).verify(
          watch.requests[0]!.body,
          headersOf(watch.requests[0]!),
        ) as Received['event'];
        assert.equal(ev.type, 'destination.failing');
        assert.equal(ev.data.destination_id, fid);
        assert.ok(!down.requests.some((r) => r.event.type === 'destination.failing'), 'not told of itself');
        // Once per failing episode: more failed attempts while it is failing send no more mail.
        // The retry waits grow on the database's clock, which the test clock does not move: make it due now.
        const dueNow = () =>
          query(t, 'UPDATE destination_cursors SET run_after = now() WHERE destination_id = $1 RETURNING 1', [fid]);
        const more = down.requests.length;
        t.clock.advance(3_600_000);
        await dueNow();
        await until('another failure while failing', async () => {
          await drain();
          return down.requests.length > more;
        });
        assert.equal((await state()).state, 'failing');
        await new Promise((r) => setTimeout(r, 200));
        assert.deepEqual(
          t.smtp.messages.filter(told).map((m) => m.to),
          [[a.account.email]],
          'one mail, to the admin only (not the viewer)',
        );
        t.clock.advance(47 * 3_600_000);
        await dueNow();
        await until('given up', async () => {
          await drain();
          return (await state()).state === 'disabled';
        });
        assert.match((await state()).disabled_reason, /72 hours/);
        for (const id of [fid, g.json().destination_id as string]) {
          await t.request({ method: 'DELETE', url: `/api/v1/destinations/${id}`, token: a.token });
        }
      } finally {
        await down.close();
        await watch.close();
      }
    });

    test('a node that died after marking a destination failing, before the mails: the next attempt sends them, once', async () => {
      const down = await new Receiver().start();
      try {
        down.script.push(...Array<number>(10).fill(503));
        const f = await create(a, { name: 'half-told', kind: 'webhook', url: down.url, events: ['invocation.denied'] });
        assert.equal(f.statusCode, 201, f.body);
        const fid = f.json().destination_id as string;
        await invoke(a, 'ops-bot', 'shell.halt');
        await drain();
        assert.ok(down.requests.length >= 1);
        // What the dead node left: the state and the flag committed, no mail sent.
        await query(
          t,
          `UPDATE destination_cursors SET state = 'failing', failing_mail_due = true, failing_since = now(), run_after = now()
           WHERE destination_id = $1 RETURNING 1`,
          [fid],
        );
        const told = (m: { subject: string }) => m.subject === 'agent-ledger: destination "half-told" is failing';
        assert.equal(t.smtp.messages.filter(told).length, 0);
        const tries = down.requests.length;
        await until('the next attempt', async () => {
          await drain();
          return down.requests.length > tries;
        });
        await t.smtp.waitFor((m) => told(m) && m.to.includes(a.account.email), 5000);
        const [row] = await query<{ failing_mail_due: boolean }>(
          t,
          'SELECT failing_mail_due FROM destination_cursors WHERE destination_id = $1',
          [fid],
        );
        assert.equal(row!.failing_mail_due, false);
        await query(t, 'UPDATE destination_cursors SET run_after = now() WHERE destination_id = $1 RETURNING 1', [fid]);
        const again = down.requests.length;
        await until('one more attempt', async () => {
          await drain();
          return down.requests.length > again;
        });
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(t.smtp.messages.filter(told).length, 1, 'told once');
        await t.request({ method: 'DELETE', url: `/api/v1/destinations/${fid}`, token: a.token });
      } finally {
        await down.close();
      }
    });

    test('the URL is a secret: sealed at rest, shown redacted, used whole; a row stored in clear before is read, then sealed', async () => {
      const base = ra.url.replace(/\/hook$/, '');
      const slackUrl = `${base}/services/T0SECRET/B0SECRET/xoxSlackPathSecret`;
      const hookUrl = `${base}/hook?key=qs-Secret-4242`;
      const slack = await create(a, { name: 'slack-secret', kind: 'slack', url: slackUrl, events: ['token.created'] });
      const hook = await create(a, { name: 'hook-secret', kind: 'webhook', url: hookUrl, events: ['token.created'] });
      assert.equal(slack.statusCode, 201, slack.body);
      assert.equal(hook.statusCode, 201, hook.body);
      assert.equal(slack.json().url, `${base}/…`);
      assert.equal(hook.json().url, `${base}/…`);
      const ids = [slack.json().destination_id as string, hook.json().destination_id as string];
      const secrets = ['T0SECRET', 'B0SECRET', 'xoxSlackPathSecret', 'qs-Secret-4242'];
      const listed = await t.request({ method: 'GET', url: '/api/v1/destinations', token: a.token });
      const one = await t.request({ method: 'GET', url: `/api/v1/destinations/${ids[0]}`, token: a.token });
      for (const body of [slack.body, hook.body, listed.body, one.body])
        for (const x of secrets) assert.ok(!body.includes(x), `${x} shown`);
      const rows = async () =>
        query<{ destination_id: string; url: string | null; url_sealed: string | null; row: string }>(
          t,
          'SELECT destination_id, url, url_sealed, d::text AS row FROM destinations d WHERE destination_id = ANY($1::uuid[])',
          [ids],
        );
      for (const r of await rows()) {
        assert.equal(r.url, null);
        assert.ok(r.url_sealed);
        for (const x of [...secrets, '127.0.0.1', '/services/', 'hook?key'])
          assert.ok(!r.row.includes(x), `${x} in the stored row`);
      }
      // The sealed URL is what is sent to: the test event reaches the receiver at its full URL.
      ra.requests.length = 0;
      const sent = await t.request({ method: 'POST', url: `/api/v1/destinations/${ids[1]}/test`, token: a.token });
      assert.deepEqual({ ok: sent.json().ok, status: sent.json().status }, { ok: true, status: 204 }, sent.body);
      // A PATCH of the URL seals the new one.
      const moved = await t.request({
        method: 'PATCH',
        url: `/api/v1/destinations/${ids[1]}`,
        token: a.token,
        payload: { url: `${base}/hook?key=qs-Moved-77` },
      });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(moved.json().url, `${base}/…`);
      assert.ok(!(await rows()).some((r) => r.row.includes('qs-Moved-77')));

      // A row written before URLs were sealed (migration 0170) holds it in clear: it is read as it is ...
      await t.service.ctx.db.withTenant(a.account.tenant_id, (tx) =>
        tx.query('UPDATE destinations SET url = $2, url_sealed = NULL WHERE destination_id = $1', [ids[1], hookUrl]),
      );
      const legacy = await t.request({ method: 'GET', url: `/api/v1/destinations/${ids[1]}`, token: a.token });
      assert.equal(legacy.json().url, `${base}/…`);
      const again = await t.request({ method: 'POST', url: `/api/v1/destinations/${ids[1]}/test`, token: a.token });
      assert.equal(again.json().ok, true, again.body);
      // ... and the worker, when it starts, seals it.
      assert.equal(await t.service.destinations.worker.sealLegacyUrls(), 1);
      assert.equal(await t.service.destinations.worker.sealLegacyUrls(), 0);
      for (const r of await rows()) {
        assert.equal(r.url, null);
        assert.ok(!r.row.includes('qs-Secret-4242'));
      }
      const sealed = await t.request({ method: 'POST', url: `/api/v1/destinations/${ids[1]}/test`, token: a.token });
      assert.equal(sealed.json().ok, true, sealed.body);
      for (const id of ids) await t.request({ method: 'DELETE', url: `/api/v1/destinations/${id}`, token: a.token });
    });

    test('teardown', async () => {
      await ra.close();
      await rb.close();
    });
  },
  { manualJobs: true, env: { DESTINATION_RETRY_BASE_MS: '10' } },
);
