// The console in a real browser: sign-in by e-mailed code, the session cookie,
// the invocations explorer with its URL state, the detail panel and the
// evidence verified in the browser. Runs on PGlite (one service per file).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { browserSkip, type ConsoleEnv, startConsole, waitUntil } from '../testing/browser.ts';

const skip = browserSkip();

describe('console: sign-in, explorer, evidence', { skip }, () => {
  let env: ConsoleEnv;
  let token: string;
  const email = 'alice@explorer-co.com';
  before(async () => {
    env = await startConsole();
  });
  after(async () => {
    const errors = env?.pageErrors ?? [];
    await env?.close();
    assert.deepEqual(errors, [], 'no CSP violation or script error on any page');
  });

  test('sign-in with the mailed code sets an HttpOnly SameSite=Strict session cookie; nothing secret in storage', async () => {
    const page = await env.signIn(email);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'al_session');
    assert.ok(session, 'session cookie set (plain name over http to 127.0.0.1)');
    assert.match(session.value, /^svc_session_/);
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Strict');
    assert.equal(await page.evaluate('document.cookie'), '');
    const stored = await page.evaluate<string>('JSON.stringify({ ...localStorage, ...sessionStorage })');
    assert.doesNotMatch(stored, /svc_/);
    // An API token for the same account, to record events as an agent would.
    token = (await env.ts.signIn(email)).token;
    await page.context().close();
  });

  test('events recorded through the API appear in the explorer; a filtered view survives reload and a shared URL', async () => {
    const post = (body: object) =>
      env.ts.request({ method: 'POST', url: '/api/v1/admin/agents/events/invocation', token, payload: body });
    for (const [i, body] of [
      { agent_key: 'billing-bot', tool_name: 'search', prompt: 'find invoice 42' },
      {
        agent_key: 'billing-bot',
        tool_name: 'charge',
        tool_input: 'api key sk_live_51HqLyjWDarjtT1zdp7dcXYZabc123456 for stripe',
      },
      { agent_key: 'support-bot', tool_name: 'email', prompt: 'Write to John Smith at john.smith@example.com' },
    ].entries()) {
      const r = await post({ ...body, correlation_id: `run-${i}` });
      assert.equal(r.statusCode, 201, r.body);
    }
    const page = await env.signIn(email);
    await page.getByRole('link', { name: 'Invocations' }).click();
    const rows = page.locator('table.data tbody tr');
    await assert.doesNotReject(rows.first().waitFor());
    assert.equal(await rows.count(), 3);
    assert.match(await rows.first().innerText(), /support-bot/);

    await page.getByLabel('Verdict').selectOption('deny');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/verdict=deny/);
    await waitUntil(page, "document.querySelectorAll('table.data tbody tr').length === 1");
    assert.match(await rows.first().innerText(), /charge/);
    assert.match(await rows.first().innerText(), /Denied/);

    await page.reload();
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    assert.equal(await page.getByLabel('Verdict').inputValue(), 'deny');

    // The URL alone carries the view: a fresh browser session opening it sees the same filtered page.
    const shared = page.url();
    const again = await env.signIn(email);
    await again.goto(shared);
    await again.locator('table.data tbody tr').first().waitFor();
    assert.equal(await again.locator('table.data tbody tr').count(), 1);
    await again.context().close();
    await page.context().close();
  });

  test('the detail panel explains the verdict, highlights findings and verifies the evidence in the browser; a tampered proof is refused', async () => {
    const page = await env.signIn(email);
    await page.goto(`${env.base}/console/invocations?verdict=deny`);
    await page
      .getByRole('button', { name: /^Open invocation/ })
      .first()
      .click();
    const panel = page.getByTestId('detail');
    await panel.getByText('A credential was passed to a tool.').waitFor();
    assert.match(page.url(), /selected=\d+/);
    const mark = panel.locator('mark.f-secret').first();
    await mark.waitFor();
    assert.match(await mark.innerText(), /SECRET|API|KEY|STRIPE/i, 'the redacted secret is marked with its type');
    assert.equal(await panel.getByRole('tree').count(), 1);
    assert.equal(await panel.locator('[role=treeitem][aria-current=true]').count(), 1);

    await panel.getByRole('button', { name: 'Verify in this browser' }).click();
    await panel.getByTestId('verified').waitFor();
    assert.match(await panel.getByTestId('verified').innerText(), /Verified in this browser/);

    // The same check on a proof altered in transit: one hash of the inclusion path flipped.
    await page.route('**/api/v1/audit/evidence/**', async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      const h = Buffer.from(body.inclusion.hashes[0] ?? body.leaf_hash, 'base64');
      h[0]! ^= 1;
      if (body.inclusion.hashes.length) body.inclusion.hashes[0] = h.toString('base64');
      else body.leaf_hash = h.toString('base64');
      await route.fulfill({ response: res, json: body });
    });
    await panel.getByRole('button', { name: 'Verify in this browser' }).click();
    await panel.getByTestId('verify-failed').waitFor();
    assert.equal(await panel.getByTestId('verified').count(), 0);
    await page.context().close();
  });

  test("times show in the browser's zone; one click switches every time to UTC", async () => {
    const ctx = await env.browser.newContext({ baseURL: env.base, timezoneId: 'Asia/Kolkata' });
    const page = await env.signIn(email, ctx);
    await page.goto(`${env.base}/console/invocations`);
    const first = page.locator('table.data tbody tr').first().locator('time');
    await first.waitFor();
    assert.match(await page.locator('table.data thead').innerText(), /Recorded \(Asia\/(Kolkata|Calcutta)\)/);
    const iso = (await first.getAttribute('datetime'))!;
    const local = await first.innerText();
    await page.getByRole('button', { name: 'UTC', exact: true }).click();
    await page.locator('table.data thead', { hasText: 'Recorded (UTC)' }).waitFor();
    const utc = await first.innerText();
    assert.equal(utc, iso.slice(0, 19).replace('T', ' '));
    assert.equal(Date.parse(`${local.replace(' ', 'T')}Z`) - Date.parse(`${utc.replace(' ', 'T')}Z`), 5.5 * 3_600_000);
    await ctx.close();
  });

  test('a span recorded over OTLP shows when it happened beside when it was recorded; the explorer filters by either', async () => {
    // The workspace is two hours old; the span started an hour ago (a start before the workspace is not taken).
    env.ts.clock.advance(2 * 3_600_000);
    const started = env.ts.clock.now().getTime() - 3_600_000;
    const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
    const res = await fetch(`${env.base}/api/v1/otel/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'otel-bot' } }] },
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: '0af7651916cd43dd8448eb211c80319c',
                    spanId: 'b7ad6b7169203331',
                    name: 'chat',
                    kind: 3,
                    startTimeUnixNano: ns(started),
                    endTimeUnixNano: ns(started + 800),
                    attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }],
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    assert.equal(res.status, 200, await res.text());
    const page = await env.signIn(email);
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    await page.goto(`${env.base}/console/invocations?agent_key=otel-bot`);
    const row = page.locator('table.data tbody tr').first();
    await row.waitFor();
    const happened = row.locator('time').nth(1);
    assert.equal(await happened.getAttribute('datetime'), new Date(started).toISOString());
    assert.match(await row.innerText(), /happened/);
    await row.getByRole('button').first().click();
    const panel = page.getByTestId('detail');
    await panel.getByText(/happened/).waitFor();
    assert.equal(
      await panel.locator(`time[datetime="${new Date(started).toISOString()}"]`).count(),
      1,
      'the detail shows the start too',
    );

    // A period of occurrence around the start finds it; the same period of recording does not.
    const around = `${iso(started - 60_000)}&__to=${iso(started + 60_000)}`;
    await page.goto(
      `${env.base}/console/invocations?agent_key=otel-bot&occurred_from=${around.replace('__to', 'occurred_to')}`,
    );
    await row.waitFor();
    assert.equal(await page.locator('table.data tbody tr').count(), 1);
    assert.equal(await page.locator('#f-basis').inputValue(), 'occurred');
    await page.goto(`${env.base}/console/invocations?agent_key=otel-bot&since=${around.replace('__to', 'until')}`);
    await page.getByText('No invocation matches these filters').waitFor();
    assert.equal(await page.locator('#f-basis').inputValue(), 'recorded');
    await page.context().close();
  });

  test('sign-out revokes the session: its cookie no longer authenticates anything', async () => {
    const page = await env.signIn(email);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'al_session')!;
    const me = () =>
      env.ts.request({
        method: 'GET',
        url: '/api/v1/console/session',
        headers: { cookie: `al_session=${cookie.value}` },
      });
    assert.equal((await me()).statusCode, 200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Send me a code' }).waitFor();
    assert.equal((await me()).statusCode, 401);
    assert.equal((await page.context().cookies()).filter((c) => c.name === 'al_session').length, 0);
    await page.context().close();
  });
});
