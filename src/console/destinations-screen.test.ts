// Settings → Destinations in a real browser against the real service on
// PGlite: an admin adds a webhook pointing at a receiver in this test (every
// request verified with the standardwebhooks package and the secret the page
// showed once), sends a test event and reads the receiver's status, sees the
// deliveries in the log, pauses and resumes, deletes after a confirmation; a
// failing destination says so; a viewer gets no access; axe in both themes.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { EVENT_TYPES } from '../destinations/events.ts';
import { axeViolations, browserSkip, waitUntil, type ConsoleEnv, startConsole } from '../testing/browser.ts';

const skip = browserSkip();

interface Got {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  event: { id: string; type: string; data: Record<string, unknown>; evidence: { index: number } };
}

/** An HTTP receiver answering every request with `status`, recording all. */
class Receiver {
  readonly got: Got[] = [];
  status = 204;
  url = '';
  #server: Server;
  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = this.status;
        this.got.push({ headers: req.headers, body, status, event: JSON.parse(body) as Got['event'] });
        res.writeHead(status).end(status >= 400 ? 'down for maintenance' : '');
      });
    });
  }
  async start(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
    return this;
  }
  /** The events of the requests, each verified as Standard Webhooks says with the secret. */
  verified(secret: string): Got['event'][] {
    const wh = new Webhook(secret);
    return this.got.map((g) => {
      const headers = Object.fromEntries(Object.entries(g.headers).map(([k, v]) => [k, String(v)]));
      return wh.verify(g.body, headers) as Got['event'];
    });
  }
  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((r) => this.#server.close(() => r()));
  }
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('console: Settings → Destinations', { skip }, () => {
  let env: ConsoleEnv;
  let token: string;
  const email = 'dora@dest-screens.com';
  const hook = new Receiver();
  const down = new Receiver();
  let downId = '';
  const api = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    env.ts.request({ method, url, token, ...(payload ? { payload } : {}) });
  const flagged = async (agent: string) => {
    const r = await api('POST', '/api/v1/admin/agents/events/invocation', {
      agent_key: agent,
      tool_name: 'deploy',
      prompt: `use token ghp_${'Zy9Xw8Vu7T'.repeat(3)}${Math.random().toString().slice(2, 8)}`,
    });
    assert.equal(r.statusCode, 201, r.body);
    assert.equal(r.json().verdict, 'flag_for_review');
    return r.json().invocation_id as number;
  };

  before(async () => {
    env = await startConsole();
    token = (await env.ts.signIn(email)).token;
    await hook.start();
    await down.start();
  });
  after(async () => {
    const errors = env?.pageErrors ?? [];
    await env?.close();
    await hook.close();
    await down.close();
    assert.deepEqual(errors, [], 'no CSP violation or script error on any page');
  });

  test('an admin adds a webhook: the API refuses a metadata address at the URL field, the secret is shown once, a test event shows the receiver’s 204, deliveries are logged, pause holds them, resume sends them, delete asks first', async () => {
    const page = await env.signIn(email);
    await page.goto(`${env.base}/console/settings`);
    await page.getByRole('link', { name: 'Manage destinations' }).click();
    await page.getByRole('heading', { name: 'Destinations', level: 1 }).waitFor();
    await page.getByText('No destinations yet').waitFor();
    await page.getByRole('button', { name: 'Add destination' }).click();
    const form = page.getByRole('form', { name: 'Add a destination' });
    // The form offers exactly the event types the API knows.
    const offered = await form
      .getByTestId('event-types')
      .locator('input[type=checkbox]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('value')));
    assert.deepEqual(offered, [...EVENT_TYPES]);
    assert.equal(
      await page.evaluate('document.activeElement.id'),
      'dest-name',
      'the name field takes focus when the form opens',
    );
    await form.getByLabel('Name').fill('siem-hook');
    await form.getByLabel('URL').fill('http://169.254.169.254/latest/meta-data');
    await form.getByRole('button', { name: 'Add destination' }).click();
    const problems = form.getByTestId('dest-errors');
    await problems.getByText('This URL cannot be a destination.').waitFor();
    assert.match(await problems.innerText(), /URL\s+address refused: 169\.254\.169\.254 is/);
    assert.equal(await form.getByLabel('URL').getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('#dest-url-err').innerText(), /address refused/);
    assert.equal((await api('GET', '/api/v1/destinations')).json().destinations.length, 0);

    await form.getByLabel('URL').fill(hook.url);
    await form.getByRole('button', { name: 'Add destination' }).click();
    const once = page.getByTestId('secret-once');
    await once.waitFor();
    assert.match(await once.innerText(), /shown only this once and cannot be shown again/);
    const secret = await page.getByTestId('secret-value').innerText();
    assert.match(secret, /^whsec_/);
    const list = (await api('GET', '/api/v1/destinations')).json().destinations;
    assert.equal(list.length, 1);
    const id = list[0].destination_id as string;
    assert.deepEqual(list[0].events, ['invocation.denied', 'invocation.flagged']);
    assert.ok(!JSON.stringify(list).includes(secret), 'the API never returns the secret again');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await page.getByTestId('secret-value').count(), 0, 'the secret is gone once dismissed');
    await page.reload();
    await page.getByTestId('destination-detail').waitFor();
    assert.ok(!(await page.content()).includes(secret), 'nor is it on the page after a reload');

    // The URL is a secret too: shown only as far as the host.
    const origin = new URL(hook.url).origin;
    assert.match(await page.getByTestId('destination-detail').innerText(), new RegExp(`URL\\s+${origin}/…`));
    assert.ok(!(await page.content()).includes(hook.url), 'the full URL is not on the page');
    // The list: state, kind, events.
    const row = page.getByRole('row', { name: /siem-hook/ });
    assert.match(await row.innerText(), /✓\s*Active\s+webhook\s+invocation\.denied, invocation\.flagged\s+none yet/);

    // A test event: the receiver's status in the page, the request signed with the secret shown once.
    const detail = page.getByTestId('destination-detail');
    await detail.getByRole('button', { name: 'Send test event' }).click();
    await detail
      .getByTestId('test-result')
      .getByText(/The receiver took the test event: HTTP 204/)
      .waitFor();
    const [test1] = hook.verified(secret);
    assert.equal(test1!.type, 'destination.test');
    assert.ok((await detail.getByTestId('test-result').innerText()).includes(test1!.id));
    const log = detail.getByTestId('delivery-log');
    await log.getByRole('row', { name: new RegExp(test1!.id) }).waitFor();
    assert.match(
      await log.getByRole('row', { name: new RegExp(test1!.id) }).innerText(),
      /destination\.test\s+✓\s*Delivered\s+204\s+1\s+\d+ ms/,
    );
    await row.getByText(/delivered \(HTTP 204\)/).waitFor();

    // An event the delivery worker sends: logged with its audit-trail entry.
    await flagged('ops-bot');
    await until('the flag delivered', () => hook.got.length === 2);
    const ev = hook.verified(secret)[1]!;
    assert.equal(ev.type, 'invocation.flagged');
    await detail.getByRole('button', { name: 'Refresh' }).click();
    const evRow = log.getByRole('row', { name: new RegExp(ev.id) });
    await evRow.waitFor();
    assert.match(
      await evRow.innerText(),
      new RegExp(`\\(entry ${ev.evidence.index}\\)\\s+invocation\\.flagged\\s+✓\\s*Delivered\\s+204\\s+1`),
    );

    // Paused: nothing is sent, the list says so; resumed: what was held arrives.
    await detail.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('state-siem-hook').getByText('Paused').waitFor();
    assert.equal((await api('GET', `/api/v1/destinations/${id}`)).json().paused, true);
    await flagged('ops-bot');
    await new Promise((r) => setTimeout(r, 2_000)); // four polls of the worker
    assert.equal(hook.got.length, 2, 'nothing delivered while paused');
    await detail.getByRole('button', { name: 'Resume' }).click();
    await page.getByTestId('state-siem-hook').getByText('Active').waitFor();
    await until('the held flag delivered after resuming', () => hook.got.length === 3);
    assert.equal(hook.verified(secret)[2]!.type, 'invocation.flagged');

    // Delete asks first; cancel keeps it.
    await detail.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete destination siem-hook?' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    assert.equal((await api('GET', `/api/v1/destinations/${id}`)).statusCode, 200);
    await detail.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete destination' }).click();
    await page.getByText('No destinations yet').waitFor();
    assert.equal((await api('GET', `/api/v1/destinations/${id}`)).statusCode, 404);
    await page.context().close();
  });

  test('a destination whose receiver fails for 24 h shows as failing, with the last error and its retries', async () => {
    down.status = 503;
    const r = await api('POST', '/api/v1/destinations', {
      name: 'down-hook',
      kind: 'webhook',
      url: down.url,
      events: ['*'],
      signing: 'ed25519',
    });
    assert.equal(r.statusCode, 201, r.body);
    downId = r.json().destination_id;
    const realNow = env.ts.clock.now();
    await flagged('ops-bot');
    await until('the first failure', () => down.got.length >= 1);
    // The next failure, 25 h (on the service's clock) after the first, marks it failing.
    env.ts.clock.advance(25 * 3_600_000);
    const state = async () => (await api('GET', `/api/v1/destinations/${downId}`)).json();
    await until('failing', async () => (await state()).state === 'failing', 30_000);
    env.ts.clock.set(realNow);

    const page = await env.signIn(email);
    await page.goto(`${env.base}/console/settings/destinations`);
    const cell = page.getByTestId('state-down-hook');
    await cell.getByText('Failing').waitFor();
    assert.match(await cell.innerText(), /Failing\s+since \d{4}-\d\d-\d\d/);
    await page.getByRole('button', { name: 'Open destination down-hook' }).click();
    const detail = page.getByTestId('destination-detail');
    const problem = detail.getByTestId('destination-problem');
    await problem.waitFor();
    assert.match(await problem.innerText(), /Failing since .*deliveries are being retried\.\s+Last error: HTTP 503/);
    assert.match(await detail.innerText(), /Ed25519 · public key whpk_/);
    const retrying = detail.getByTestId('delivery-log').getByRole('row', { name: /invocation\.flagged/ });
    await retrying.waitFor();
    assert.match(await retrying.innerText(), /↻\s*Retrying\s+503\s+[2-9]/);
    // A test event reports the receiver's refusal.
    await detail.getByRole('button', { name: 'Send test event' }).click();
    await detail
      .getByTestId('test-result')
      .getByText(/The test event was not taken: HTTP 503/)
      .waitFor();
    await page.context().close();
  });

  test('a viewer is told destinations are for admins and the page never asks the API for them', async () => {
    const inv = await api('POST', '/api/v1/workspace/invites', { email: 'vera@dest-screens.com', role: 'viewer' });
    assert.equal(inv.statusCode, 201, inv.body);
    const page = await env.signIn('vera@dest-screens.com');
    const asked: string[] = [];
    page.on('request', (q) => {
      if (q.url().includes('/api/v1/destinations')) asked.push(q.url());
    });
    await page.goto(`${env.base}/console/settings`);
    await page
      .getByRole('region', { name: 'Destinations' })
      .getByText('The Viewer role cannot see or manage destinations (admins only).')
      .waitFor();
    assert.equal(await page.getByRole('link', { name: 'Manage destinations' }).count(), 0);
    await page.goto(`${env.base}/console/settings/destinations?selected=${downId}`);
    await page.getByText('Not available to your role').waitFor();
    assert.equal(await page.getByTestId('destination-detail').count(), 0);
    assert.deepEqual(asked, []);
    await page.context().close();
  });

  test('axe finds no WCAG 2.0/2.1/2.2 A or AA violation on the destination screens, in both themes', async () => {
    const ctx = await env.browser.newContext({ baseURL: env.base });
    await env.signIn(email, ctx);
    const found: string[] = [];
    const check = async (page: Page, what: string) => {
      await waitUntil(page, "!document.querySelector('[aria-busy=true]')");
      for (const v of await axeViolations(page)) found.push(`${what}: ${v}`);
    };
    for (const theme of ['light', 'dark']) {
      const page = await env.newPage(ctx);
      await page.addInitScript(`localStorage.setItem('al.theme', '${theme}')`);
      await page.goto(`${env.base}/console/settings/destinations?selected=${downId}`);
      await page.getByTestId('destination-problem').waitFor();
      await page.getByTestId('delivery-log').waitFor();
      await check(page, `${theme} list and failing detail`);
      await page.getByRole('button', { name: 'Add destination' }).click();
      const form = page.getByRole('form', { name: 'Add a destination' });
      await form.getByLabel('Kind').selectOption('splunk_hec');
      await form.getByLabel('Name').fill('down-hook');
      await form.getByRole('button', { name: 'Add destination' }).click();
      await form.getByTestId('dest-errors').waitFor();
      await check(page, `${theme} form with errors`);
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').waitFor();
      await check(page, `${theme} delete dialog`);
      await page.close();
    }
    assert.deepEqual(found, []);
    await ctx.close();
  });
});
