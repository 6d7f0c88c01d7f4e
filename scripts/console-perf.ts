// The explorer's render time on a big workspace, measured in Chromium:
//   node scripts/seed.ts --database-url URL --invocations 1000000
//   node scripts/console-perf.ts --database-url URL [--runs 5]
// Signs in to the newest seeded workspace through the console, opens the
// invocations explorer (and filtered views), and reads the performance
// measure 'explorer:render' (data in hand → first page of rows in the DOM)
// and the API request's duration from Resource Timing. Prints medians.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config/config.ts';
import { ensureConsoleBuilt } from '../src/console/build.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { startSmtpPeer } from '../src/mail/testing/smtp-peer.ts';
import { createService } from '../src/service/service.ts';
import { CHROMIUM } from '../src/testing/browser.ts';

const { values } = parseArgs({
  options: { 'database-url': { type: 'string' }, runs: { type: 'string', default: '5' } },
});
const url = values['database-url'];
if (!url) {
  console.error('usage: scripts/console-perf.ts --database-url postgres://…');
  process.exit(2);
}
const runs = Number(values.runs);
ensureConsoleBuilt();
const probe = await openPostgres(url, { max: 1 });
const [ws] = await probe.query<{ domain: string; tenant_id: string }>(
  "SELECT domain, tenant_id FROM workspaces WHERE domain LIKE '%.seed.agent-ledger.invalid' ORDER BY created_at DESC LIMIT 1",
);
const [count] = await probe.query<{ n: string }>('SELECT count(*) AS n FROM invocations WHERE tenant_id = $1', [
  ws!.tenant_id,
]);
await probe.close();
console.log(`workspace ${ws!.tenant_id}: ${Number(count!.n).toLocaleString('en')} invocations`);

const smtp = await startSmtpPeer();
const dataDir = mkdtempSync(join(tmpdir(), 'console-perf-'));
const service = await createService(
  loadConfig({
    LOG_LEVEL: 'warn',
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    SIGNUP_LIMIT_PER_IP: '1000',
  }),
);
await service.app.listen({ host: '127.0.0.1', port: 0 });
const addr = service.app.server.address();
const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  const page = await browser.newPage();
  const email = `admin@${ws!.domain}`;
  await page.goto(`${base}/console/`);
  await page.getByLabel('Work e-mail').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const mail = await smtp.waitFor((m) => m.to.includes(email));
  await page.getByLabel('Sign-in code').fill(/\b(\d{6,})\b/.exec(mail.subject)![1]!);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();

  // JavaScript transferred (gzip) on a first load of each entry screen, cache empty.
  for (const path of ['/console/', '/console/invocations']) {
    const ctx = await browser.newContext();
    await ctx.addCookies(await page.context().cookies());
    const p = await ctx.newPage();
    await p.goto(`${base}${path}`);
    await p.locator('h1').first().waitFor();
    await p.waitForLoadState('networkidle');
    const js = await p.evaluate<{ gz: number; raw: number; files: number }>(`(() => {
      const e = performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.js'));
      return { gz: e.reduce((a, r) => a + r.encodedBodySize, 0), raw: e.reduce((a, r) => a + r.decodedBodySize, 0), files: e.length };
    })()`);
    console.log(
      `first load of ${path}: ${js.files} JS files, ${(js.gz / 1024).toFixed(1)} KB gzipped (${(js.raw / 1024).toFixed(1)} KB minified)`,
    );
    await ctx.close();
  }

  const views = ['', '?verdict=deny', '?agent_key=agent-0001', '?verdict=flag_for_review&mode=observed'];
  for (const v of views) {
    const render: number[] = [];
    const api: number[] = [];
    let rows = 0;
    for (let i = 0; i < runs; i++) {
      await page.goto(`${base}/console/invocations${v}`);
      // Polled with evaluate: waitForFunction would need 'unsafe-eval', which the console's CSP forbids.
      for (
        let t = 0;
        !(await page.evaluate<boolean>("performance.getEntriesByName('explorer:render').length > 0"));
        t++
      ) {
        if (t > 600) throw new Error('the explorer did not render within 60 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      const m = await page.evaluate<{ render: number; api: number; rows: number }>(`(() => {
        const r = performance.getEntriesByName('explorer:render')[0];
        const a = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/invocations?')).pop();
        return { render: r.duration, api: a ? a.duration : NaN, rows: document.querySelectorAll('table.data tbody tr').length };
      })()`);
      render.push(m.render);
      api.push(m.api);
      rows = m.rows;
    }
    console.log(
      `explorer ${v || '(no filter)'}: ${rows} rows; render after data median ${median(render).toFixed(1)} ms (max ${Math.max(...render).toFixed(1)}); API request median ${median(api).toFixed(0)} ms; runs ${runs}`,
    );
  }
} finally {
  await browser.close();
  await service.close();
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
}
