import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { dumpTables as dumpDb } from '../testing/db-dump.ts';
import { eachStore, type TestService } from '../testing/harness.ts';
import { addMember } from '../testing/workspace.ts';

const run = promisify(execFile);

/** Every row of every table of the service's database, as text. */
const dumpTables = (t: TestService) => dumpDb(t.service.ctx.db);

const sha256hex = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * True when the digits appear on their own: not inside a longer run of digits
 * or of hex (a hash written in hex holds six given digits in a row now and then).
 */
const hasCode = (text: string, code: string) => new RegExp(`(?<![0-9a-fA-F])${code}(?![0-9a-fA-F])`).test(text);

eachStore('no secret token or sign-in code is stored in clear', (get) => {
  test('a dump of every table after sign-ins, token issue and a pending code holds none of them', async () => {
    const t = get();
    const codes: Array<{ email: string; code: string }> = [];
    const tokens: string[] = [];

    // Sign-in (creates a workspace), a second sign-in, an invited member, issued tokens.
    for (const email of ['alice@vault.example', 'alice@vault.example']) {
      const code = await t.requestCode(email);
      codes.push({ email, code });
      const v = await t.request({ method: 'POST', url: '/api/v1/accounts/verify', payload: { email, code } });
      assert.equal(v.statusCode, 200);
      tokens.push(v.json().token);
    }
    const admin = {
      token: tokens[0]!,
      token_id: '',
      account: { id: '', email: 'alice@vault.example', tenant_id: '', role: 'admin', plan_tier: 'team' },
    };
    admin.account.tenant_id = (
      await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: admin.token })
    ).json().account.tenant_id;
    const member = await addMember(t, admin, 'bob@vault.example', 'operator');
    tokens.push(member.token);
    for (const name of ['ci', 'laptop']) {
      const r = await t.request({
        method: 'POST',
        url: '/api/v1/accounts/tokens',
        token: admin.token,
        payload: { name },
      });
      tokens.push(r.json().token);
    }
    // Use a token so last_used_at is written too, and revoke one.
    await t.request({ method: 'GET', url: '/api/v1/accounts/tokens', token: tokens[3]! });
    const ids = (await t.request({ method: 'GET', url: '/api/v1/accounts/tokens', token: admin.token })).json().tokens;
    await t.request({
      method: 'DELETE',
      url: `/api/v1/accounts/tokens/${ids[ids.length - 1].token_id}`,
      token: admin.token,
    });
    // A code requested and not used yet: it is live in the table right now.
    const pending = await t.requestCode('carol@vault.example');
    codes.push({ email: 'carol@vault.example', code: pending });
    // And one voided by wrong guesses.
    const voided = await t.requestCode('dave@vault.example');
    for (let i = 0; i < 5; i++) {
      await t.request({
        method: 'POST',
        url: '/api/v1/accounts/verify',
        payload: { email: 'dave@vault.example', code: voided === '000000' ? '000001' : '000000' },
      });
    }
    codes.push({ email: 'dave@vault.example', code: voided });

    const { text, tables } = await dumpTables(t);
    for (const table of ['public.api_tokens', 'public.signin_codes', 'public.accounts', 'public.invitations'])
      assert.ok(tables.includes(table));

    // The dump does reach the rows: each token's SHA-256 is there, and the pending code's row.
    for (const token of tokens) assert.ok(text.includes(sha256hex(token)), 'token hash row missing from the dump');
    assert.match(text, /public\.signin_codes\.email=carol@vault\.example/);

    for (const token of tokens) {
      const secret = token.slice('svc_live_'.length);
      assert.ok(!text.includes(token), 'a token is stored in clear');
      assert.ok(!text.includes(secret), 'the secret part of a token is stored in clear');
      // Not even the part after the displayed prefix, in pieces of 12.
      for (let i = 4; i + 12 <= secret.length; i += 6)
        assert.ok(!text.includes(secret.slice(i, i + 12)), 'a piece of a token secret is stored');
    }
    for (const { email, code } of codes) {
      assert.match(code, /^\d{6,}$/);
      assert.ok(!hasCode(text, code), `the sign-in code of ${email} is stored in clear`);
      // An unkeyed hash of a 6-digit code is as good as clear: it must not be there either.
      for (const h of [sha256hex(code), sha256hex(`${email}\n${code}`), sha256hex(`${email}${code}`)])
        assert.ok(!text.includes(h));
    }

    if (t.store === 'postgres') {
      // The operator's own tool: pg_dump of the whole database, data and schema.
      const { stdout } = await run('pg_dump', ['--no-owner', '--inserts', t.testDb.url!], {
        maxBuffer: 256 * 1024 * 1024,
      });
      assert.match(stdout, /INSERT INTO public\.api_tokens/);
      for (const token of tokens)
        assert.ok(!stdout.includes(token.slice('svc_live_'.length)), 'pg_dump shows a token secret');
      for (const { code } of codes) assert.ok(!hasCode(stdout, code), 'pg_dump shows a sign-in code');
    }
  });
});
