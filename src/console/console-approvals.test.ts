// The approvals inbox in a real browser against the real service (PGlite):
// held calls appear with what the agent wants to do, redacted as the read side
// stores it, and a live countdown; one approved and one denied by keyboard
// alone, each with a note the API then shows with who decided; an expired one
// under Expired; a viewer sees but cannot decide; axe on every tab in both
// themes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axeViolations, browserSkip, type ConsoleEnv, startConsole, waitUntil } from '../testing/browser.ts';

const skip = browserSkip();
const INVOKE = '/api/v1/admin/agents/events/invocation';

interface Approval {
  approval_id: string;
  invocation_id: number;
  status: string;
  decided_by?: string | null;
  note?: string;
}

describe('console: the approvals inbox', { skip }, () => {
  let env: ConsoleEnv;
  let token: string;
  let adminId: string;
  const email = 'olga@approvals-co.com';
  const held: Record<'refund' | 'payout' | 'export', Approval> = {} as never;

  const hold = async (agent_key: string, tool_name: string, tool_input: string) => {
    const r = await env.ts.request({
      method: 'POST',
      url: INVOKE,
      token,
      payload: { agent_key, tool_name, tool_input, mode: 'enforced' },
    });
    assert.equal(r.statusCode, 201, r.body);
    const body = r.json();
    assert.equal(body.approval?.status, 'pending', r.body);
    return { approval_id: body.approval.approval_id, invocation_id: body.invocation_id, status: 'pending' };
  };
  const approvals = async (status: string): Promise<Approval[]> => {
    const r = await env.ts.request({ method: 'GET', url: `/api/v1/approvals?status=${status}`, token });
    assert.equal(r.statusCode, 200, r.body);
    return r.json().items;
  };

  before(async () => {
    env = await startConsole();
    const admin = await env.ts.signIn(email);
    token = admin.token;
    adminId = admin.account.id;
    const policy = await env.ts.request({
      method: 'PUT',
      url: '/api/v1/policy',
      token,
      payload: {
        default_verdict: 'allow',
        rules: [
          { id: 'hold-payments', when: { tools: ['payments.*'] }, verdict: 'allow', hold: true, hold_seconds: 900 },
          { id: 'hold-exports', when: { tools: ['crm.export'] }, verdict: 'allow', hold: true, hold_seconds: 1 },
        ],
      },
    });
    assert.equal(policy.statusCode, 200, policy.body);
    held.refund = await hold('refund-bot', 'payments.refund', '{"customer": "greta.lind@example.com", "amount": 40}');
    env.ts.clock.advance(1_000); // the refund's hold runs out first: it is on top
    held.payout = await hold('payout-bot', 'payments.payout', '{"to": "vendor-17", "amount": 1200}');
    // One nobody decides: its second passes (the service's clock, and the database's for its job).
    held.export = await hold('crm-bot', 'crm.export', '{"segment": "all customers"}');
    env.ts.clock.advance(2_000);
    await new Promise((r) => setTimeout(r, 1_100));
    const expired = await env.ts.request({ method: 'GET', url: `/api/v1/approvals/${held.export.approval_id}`, token });
    assert.equal(expired.json().status, 'expired', expired.body);
  });
  after(async () => {
    const errors = env?.pageErrors ?? [];
    await env?.close();
    assert.deepEqual(errors, [], 'no CSP violation or script error on any page');
  });

  test('held calls wait with their redacted input and a live countdown; approve and deny by keyboard alone, each with a note', async () => {
    const page = await env.signIn(email);
    await page.getByTestId('pending-approvals').getByText('2').waitFor();
    await page.getByRole('link', { name: /^Approvals/ }).click();
    const refund = page.getByRole('region', { name: 'Approval of payments.refund by refund-bot' });
    await refund.waitFor();
    // What the agent wants to do, as stored: the e-mail address in its input is redacted.
    const input = refund.getByTestId('tool-input');
    assert.match(await input.innerText(), /^\{"customer": "<EMAIL_ADDRESS>/);
    assert.match(await input.locator('mark').innerText(), /^<EMAIL_ADDRESS>/, 'the finding is marked');
    assert.doesNotMatch(await page.locator('main').innerText(), /greta\.lind/);
    assert.match(await refund.innerText(), /hold-payments/, 'why it is held: the rule');
    // The time left counts down.
    const left = refund.getByTestId('time-left');
    const t0 = await left.innerText();
    assert.match(t0, /^1[0-5]:\d\d$/);
    await waitUntil(page, `document.querySelector('[data-testid=time-left]').textContent !== ${JSON.stringify(t0)}`);

    await refund.focus();
    await page.keyboard.press('a');
    await page.getByText('Write a note before you approve or deny.').waitFor();
    assert.equal(await page.evaluate('document.activeElement.id'), 'approval-note', 'the note takes focus');
    await page.keyboard.type('Refund confirmed with the customer by phone.');
    await page.keyboard.press('Escape');
    await page.keyboard.press('a');
    await page.getByTestId('last-decision').getByText('Approved payments.refund for refund-bot').waitFor();
    // The next held call takes its place; the badge follows.
    const payout = page.getByRole('region', { name: 'Approval of payments.payout by payout-bot' });
    await payout.waitFor();
    const approved = await approvals('approved');
    assert.deepEqual(
      approved.map((a) => [a.approval_id, a.note, a.decided_by]),
      [[held.refund.approval_id, 'Refund confirmed with the customer by phone.', adminId]],
    );
    assert.deepEqual(
      (await approvals('pending')).map((a) => a.approval_id),
      [held.payout.approval_id],
    );

    await page.keyboard.press('j'); // one item left: j stays on it
    await page.keyboard.press('e');
    await page.keyboard.type('Vendor 17 is not on the approved list.');
    await page.keyboard.press('Escape');
    await page.keyboard.press('d');
    await page.getByTestId('last-decision').getByText('Denied payments.payout for payout-bot').waitFor();
    await page.getByText('Nothing waits for a decision').waitFor();
    await page.getByTestId('pending-approvals').waitFor({ state: 'detached', timeout: 20_000 });
    const denied = await approvals('denied');
    assert.deepEqual(
      denied.map((a) => [a.approval_id, a.note, a.decided_by]),
      [[held.payout.approval_id, 'Vendor 17 is not on the approved list.', adminId]],
    );
    assert.deepEqual(await approvals('pending'), []);
    // The review queue item was resolved with each decision.
    const reviews = (await env.ts.request({ method: 'GET', url: '/api/v1/reviews?status=pending', token })).json();
    assert.deepEqual(reviews.items, []);

    // Decided and expired ones under their tabs.
    await page.getByRole('button', { name: 'Denied', exact: true }).click();
    const deniedView = page.getByRole('region', { name: 'Approval of payments.payout by payout-bot' });
    await deniedView.getByText('Vendor 17 is not on the approved list.').waitFor();
    assert.match(await deniedView.getByTestId('decision').innerText(), /Denied by you/);
    await page.getByRole('button', { name: 'Expired', exact: true }).click();
    await page.waitForURL(/status=expired/);
    const exported = page.getByRole('region', { name: 'Approval of crm.export by crm-bot' });
    await exported.getByText('Expired (a deny)').waitFor();
    assert.match(
      await exported.getByTestId('decision').innerText(),
      /Nobody decided before .*expired, which is a deny/,
    );
    await page.context().close();
  });

  test('a viewer sees the inbox, without content, and cannot decide', async () => {
    const another = await hold('refund-bot', 'payments.refund', '{"customer": "ida.berg@example.com", "amount": 9}');
    const inv = await env.ts.request({
      method: 'POST',
      url: '/api/v1/workspace/invites',
      token,
      payload: { email: 'vera@approvals-co.com', role: 'viewer' },
    });
    assert.equal(inv.statusCode, 201, inv.body);
    const page = await env.signIn('vera@approvals-co.com');
    await page.goto(`${env.base}/console/approvals`);
    const region = page.getByRole('region', { name: 'Approval of payments.refund by refund-bot' });
    await region.waitFor();
    await region.getByTestId('no-content').waitFor();
    assert.match(await page.locator('#no-decide').innerText(), /can see approvals but not decide/);
    for (const name of [/^Approve/, /^Deny/])
      assert.equal(await region.getByRole('button', { name }).isDisabled(), true);
    assert.equal(await region.getByRole('textbox').count(), 0, 'no note field');
    await region.focus();
    await page.keyboard.press('a');
    await page.keyboard.press('d');
    await new Promise((r) => setTimeout(r, 300));
    const still = await env.ts.request({ method: 'GET', url: `/api/v1/approvals/${another.approval_id}`, token });
    assert.equal(still.json().status, 'pending');
    assert.doesNotMatch(await page.locator('main').innerText(), /ida\.berg/);
    await page.context().close();
  });

  test('axe finds no WCAG 2.0/2.1/2.2 A or AA violation on the inbox, any tab, either theme, for an admin and a viewer', async () => {
    const found: string[] = [];
    for (const who of [email, 'vera@approvals-co.com']) {
      const ctx = await env.browser.newContext({ baseURL: env.base });
      await env.signIn(who, ctx);
      for (const theme of ['light', 'dark']) {
        const page = await env.newPage(ctx);
        await page.addInitScript(`localStorage.setItem('al.theme', '${theme}')`);
        for (const path of [
          '/approvals',
          '/approvals?status=approved',
          '/approvals?status=denied',
          '/approvals?status=expired',
        ]) {
          await page.goto(`${env.base}/console${path}`);
          await page.getByTestId('approval').waitFor();
          await waitUntil(page, "!document.querySelector('[aria-busy=true]')");
          for (const v of await axeViolations(page)) found.push(`${who} ${theme} ${path}: ${v}`);
        }
        await page.close();
      }
      await ctx.close();
    }
    assert.deepEqual(found, []);
  });
});
