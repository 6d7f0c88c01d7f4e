// The console's screens in a real browser: the review journey by keyboard
// alone, the audit trail verified in the browser, a report download, an API
// token issued and revoked, a viewer who never sees content, and axe on every
// screen in both themes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { axeViolations, browserSkip, waitUntil, type ConsoleEnv, startConsole } from '../testing/browser.ts';
import { startJudgeStandIn } from '../testing/judge-stand-in.ts';

const skip = browserSkip();

describe('console screens', { skip }, () => {
  let env: ConsoleEnv;
  let token: string;
  const email = 'rita@screens-co.com';
  const flagged: number[] = [];
  before(async () => {
    env = await startConsole();
    token = (await env.ts.signIn(email)).token;
    const post = async (url: string, payload: object) => {
      const r = await env.ts.request({ method: 'POST', url, token, payload });
      assert.equal(r.statusCode, 201, r.body);
      return r.json();
    };
    for (let i = 0; i < 2; i++) {
      const r = await post('/api/v1/admin/agents/events/invocation', {
        agent_key: 'ops-bot',
        tool_name: 'deploy',
        prompt: `use token ghp_${'Zy9Xw8Vu7T'.repeat(3)}12345${i}`,
      });
      assert.equal(r.verdict, 'flag_for_review');
      flagged.push(r.invocation_id);
    }
    await post('/api/v1/admin/agents/events/invocation', {
      agent_key: 'billing-bot',
      tool_name: 'charge',
      prompt: 'Card 4111 1111 1111 1111 for Jane Doe, jane@example.com',
    });
    await post('/api/v1/admin/agents/events/rogue', {
      agent_key: 'billing-bot',
      event_type: 'tool_out_of_scope',
      tool: 'shell',
    });
  });
  after(async () => {
    const errors = env?.pageErrors ?? [];
    await env?.close();
    assert.deepEqual(errors, [], 'no CSP violation or script error on any page');
  });

  test('the whole review journey by keyboard alone: a note is required, approve, reject, the signed review entry shown', async () => {
    const page = await env.signIn(email);
    await page.goto(`${env.base}/console/reviews`);
    const region = page.getByRole('region', { name: `Review of invocation ${flagged[0]}` });
    await region.waitFor();
    await region.focus();
    await page.keyboard.press('a');
    await page.getByText('Write a note before you approve or reject.').waitFor();
    assert.equal(await page.evaluate('document.activeElement.id'), 'review-note', 'the note field takes focus');
    await page.keyboard.type('Token was a revoked test credential.');
    await page.keyboard.press('Escape');
    await page.keyboard.press('a');
    await page.getByTestId('last-decision').getByText(`Approved invocation #${flagged[0]}`).waitFor();
    await page.getByRole('region', { name: `Review of invocation ${flagged[1]}` }).waitFor();
    await page.keyboard.press('e');
    await page.keyboard.type('Live credential leaked to the deploy tool.');
    await page.keyboard.press('Control+Shift+Enter');
    await page.getByTestId('last-decision').getByText(`Rejected invocation #${flagged[1]}`).waitFor();
    await page.getByText('All items reviewed').waitFor();
    // The signed review entry verifies in the browser, by keyboard too.
    await page.getByTestId('last-decision').getByRole('button', { name: 'Verify in this browser' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('last-decision').getByTestId('verified').waitFor();

    const approved = (await env.ts.request({ method: 'GET', url: '/api/v1/reviews?status=approved', token })).json()
      .items;
    const rejected = (await env.ts.request({ method: 'GET', url: '/api/v1/reviews?status=rejected', token })).json()
      .items;
    assert.deepEqual(
      approved.map((i: { invocation_id: number }) => i.invocation_id),
      [flagged[0]],
    );
    assert.equal(approved[0].review.note, 'Token was a revoked test credential.');
    assert.deepEqual(
      rejected.map((i: { invocation_id: number }) => i.invocation_id),
      [flagged[1]],
    );
    await page.context().close();
  });

  test("the judge panel's opinion beside the content in the queue; a reviewer asks it again", async () => {
    const standIn = await startJudgeStandIn({
      'console-judge': { verdict: 'allow', rationale: 'The token was already revoked.', rubric_points: ['R1'] },
    });
    try {
      const panel = {
        judges: [{ name: 'local-llama', base_url: standIn.baseUrl, model: 'console-judge' }],
        quorum: 'majority',
        auto_resolve: false,
      };
      assert.equal(
        (await env.ts.request({ method: 'PUT', url: '/api/v1/workspace/judges', token, payload: panel })).statusCode,
        200,
      );
      const r = await env.ts.request({
        method: 'POST',
        url: '/api/v1/admin/agents/events/invocation',
        token,
        payload: { agent_key: 'ops-bot', tool_name: 'deploy', prompt: `old token ghp_${'Qa1Ws2Ed3R'.repeat(3)}123456` },
      });
      const id = r.json().invocation_id as number;
      const judgement = async () =>
        (await env.ts.request({ method: 'GET', url: `/api/v1/invocations/${id}`, token })).json().judgement;
      const deadline = Date.now() + 30_000;
      while ((await judgement())?.status !== 'done') {
        assert.ok(Date.now() < deadline, 'the panel never answered');
        await new Promise((res) => setTimeout(res, 100));
      }
      const page = await env.signIn(email);
      await page.goto(`${env.base}/console/reviews`);
      const region = page.getByRole('region', { name: `Review of invocation ${id}` });
      const shown = region.getByTestId('judgement');
      await shown.getByText('The token was already revoked.').waitFor();
      const text = await shown.innerText();
      for (const s of ['Judge panel', 'Panel decision:', 'Allow', 'Unanimous', 'local-llama', 'rubric R1'])
        assert.ok(text.includes(s), `${s} in ${text}`);
      // Asked again: the panel is called a second time and the screen follows the new judgement.
      standIn.script('console-judge', { verdict: 'deny', rationale: 'On second thought: a live token.' });
      await shown.getByRole('button', { name: 'Ask the judge panel again' }).click();
      await shown.getByText('On second thought: a live token.').waitFor({ timeout: 30_000 });
      assert.equal((await judgement()).attempt, 2);
      assert.equal(standIn.calls('console-judge'), 2);
      await page.goto(`${env.base}/console/reviews?view=list`);
      await page.getByRole('cell', { name: 'deny (1 deny)' }).waitFor();
      await page.context().close();
    } finally {
      await standIn.close();
    }
  });

  test('audit trail: checkpoint signature and an entry inclusion verified in the browser, consistency on the next visit; a forged checkpoint refused', async () => {
    const page = await env.signIn(email);
    await page.goto(`${env.base}/console/audit`);
    await page.getByTestId('checkpoint-verified').waitFor();
    const verify = page.getByRole('button', { name: /^Verify the inclusion of entry/ }).first();
    const label = (await verify.getAttribute('aria-label'))!;
    const index = Number(/entry (\d+)/.exec(label)![1]);
    await verify.click();
    await page.getByTestId(`included-${index}`).waitFor();
    // The log grows; the next visit proves it is an extension of what this browser saw.
    await env.ts.request({
      method: 'POST',
      url: '/api/v1/admin/agents/events/invocation',
      token,
      payload: { agent_key: 'ops-bot', prompt: 'hello' },
    });
    await page.reload();
    await page.getByTestId('consistency-ok').waitFor();
    // A checkpoint whose signature was altered in transit.
    await page.route('**/api/v1/audit/checkpoint', async (route) => {
      const res = await route.fetch();
      const text = await res.text();
      const forged = text.replace(
        /(\n\n\u2014 \S+ )([A-Za-z0-9+/]{10})/,
        (_m, a: string, b: string) => a + (b[0] === 'A' ? 'B' : 'A') + b.slice(1),
      );
      assert.notEqual(forged, text);
      await route.fulfill({ response: res, body: forged });
    });
    await page.reload();
    await page.getByTestId('checkpoint-failed').waitFor();
    await page.context().close();
  });

  test('a compliance report is downloaded as JSON', async () => {
    const page = await env.signIn(email);
    await page.goto(`${env.base}/console/reports`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download report' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^compliance-.*\.json$/);
    const body = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    assert.ok(JSON.stringify(body).includes('invocations'), 'a report with invocation counts');
    await page.context().close();
  });

  test('an API token is issued (shown once) and revoked from Settings', async () => {
    const page = await env.signIn(email);
    await page.goto(`${env.base}/console/settings`);
    await page.getByRole('region', { name: 'Your API tokens' }).getByLabel('Name').fill('ci-pipeline');
    await page.getByRole('button', { name: 'Issue token' }).click();
    const secret = await page.getByTestId('secret-value').innerText();
    assert.match(secret, /^svc_live_/);
    const me = () => env.ts.request({ method: 'GET', url: '/api/v1/accounts/me', token: secret });
    assert.equal((await me()).statusCode, 200);
    await page.getByRole('button', { name: 'Done' }).click();
    assert.equal(await page.getByTestId('secret-value').count(), 0, 'the secret is gone once dismissed');
    await page.getByRole('button', { name: 'Revoke token ci-pipeline' }).click();
    await page.getByRole('button', { name: 'Revoke token ci-pipeline' }).waitFor({ state: 'detached' });
    assert.equal((await me()).statusCode, 401);
    await page.context().close();
  });

  test('a viewer sees no stored content anywhere and is told so', async () => {
    const inv = await env.ts.request({
      method: 'POST',
      url: '/api/v1/workspace/invites',
      token,
      payload: { email: 'vic@screens-co.com', role: 'viewer' },
    });
    assert.equal(inv.statusCode, 201, inv.body);
    const page = await env.signIn('vic@screens-co.com');
    const bodies: string[] = [];
    page.on('response', async (r) => {
      if (r.url().includes('/api/v1/invocations/')) bodies.push(await r.text());
    });
    await page.goto(`${env.base}/console/invocations?verdict=flag_for_review`);
    await page
      .getByRole('button', { name: /^Open invocation/ })
      .first()
      .click();
    await page.getByTestId('no-content').waitFor();
    assert.equal(await page.locator('mark').count(), 0);
    assert.doesNotMatch(await page.getByTestId('detail').innerText(), /ghp_|Zy9Xw8/);
    assert.ok(bodies.length > 0 && bodies.every((b) => !b.includes('"content"')));
    await page.goto(`${env.base}/console/reviews`);
    await page.getByText('Not available to your role').waitFor();
    await page.goto(`${env.base}/console/reports`);
    await page.getByText('Not available to your role').waitFor();
    await page.context().close();
  });

  test('the overview counts the events per hour by verdict, as a chart and as a table', async () => {
    const page = await env.signIn(email);
    const all = (await env.ts.request({ method: 'GET', url: '/api/v1/invocations?limit=200', token })).json()
      .items as Array<{ verdict: string }>;
    await page.getByText(`${all.length} in all`, { exact: false }).waitFor();
    await page.getByRole('button', { name: 'View as table' }).click();
    const table = page.getByRole('region', { name: /as a table$/ }).locator('table');
    const flaggedCells = await table.locator('tbody tr td:nth-of-type(2)').allInnerTexts();
    assert.equal(
      flaggedCells.reduce((a, c) => a + Number(c.replace(/\D/g, '') || 0), 0),
      all.filter((i) => i.verdict === 'flag_for_review').length,
    );
    assert.equal(await table.locator('tbody tr').count(), 24);
    await page.getByRole('button', { name: 'Last 30 days, by day' }).click();
    await page.waitForURL(/range=30d/);
    await page.getByText(`${all.length} in all`, { exact: false }).waitFor();
    await page.context().close();
  });

  test('axe finds no WCAG 2.0/2.1/2.2 A or AA violation on any screen, in both themes', async () => {
    const ctx = await env.browser.newContext({ baseURL: env.base });
    await env.signIn(email, ctx);
    const anyId = flagged[0];
    const screens = [
      '/',
      '/?range=30d',
      '/invocations',
      `/invocations?selected=${anyId}`,
      '/reviews',
      '/reviews?view=list&status=approved',
      '/agents',
      '/agents?selected=billing-bot',
      '/rogue',
      '/audit',
      '/reports',
      '/settings',
    ];
    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      const page = await env.newPage(ctx);
      await page.addInitScript(`localStorage.setItem('al.theme', '${theme}')`);
      for (const path of screens) {
        await page.goto(`${env.base}/console${path}`);
        await page.locator('h1').first().waitFor();
        await waitUntil(page, "!document.querySelector('[aria-busy=true]')");
        for (const v of await axeViolations(page)) found.push(`${theme} ${path}: ${v}`);
      }
      await page.close();
    }
    const signedOut = await env.newPage();
    await signedOut.goto(`${env.base}/console/`);
    await signedOut.getByRole('button', { name: 'Send me a code' }).waitFor();
    for (const v of await axeViolations(signedOut)) found.push(`sign-in: ${v}`);
    assert.deepEqual(found, []);
    await ctx.close();
  });
});
