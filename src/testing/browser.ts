// Test kit for the console's browser tests: the real service (in this process,
// listening on a loopback port) and Debian's real Chromium driven by
// playwright-core. CI installs chromium (.ci/run); set CHROMIUM_PATH to use
// another build.
import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { ensureConsoleBuilt } from '../console/build.ts';
import { startTestService, TestClock, type TestService } from './harness.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or false. In CI (CONSOLE_BROWSER_REQUIRED=1) a missing browser fails instead. */
export function browserSkip(): string | false {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CONSOLE_BROWSER_REQUIRED === '1')
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium`);
  return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
}

export interface ConsoleEnv {
  ts: TestService;
  base: string;
  browser: Browser;
  /** CSP violations and page errors seen by any page: a test fails when this is not empty. */
  pageErrors: string[];
  newPage(ctx?: BrowserContext): Promise<Page>;
  /** Signs in through the console's own form with the code from the mail; returns the page, on the console. */
  signIn(email: string, ctx?: BrowserContext): Promise<Page>;
  close(): Promise<void>;
}

export async function startConsole(): Promise<ConsoleEnv> {
  ensureConsoleBuilt();
  // The service's clock is the real time: the browser's "now" and the data agree.
  const ts = await startTestService('pglite', { clock: new TestClock(Date.now()) });
  await ts.app.listen({ host: '127.0.0.1', port: 0 });
  const addr = ts.app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const pageErrors: string[] = [];
  const env: ConsoleEnv = {
    ts,
    base,
    browser,
    pageErrors,
    async newPage(ctx) {
      const c = ctx ?? (await browser.newContext({ baseURL: base }));
      const page = await c.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) pageErrors.push(m.text());
      });
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      return page;
    },
    async signIn(email, ctx) {
      const page = await env.newPage(ctx);
      await page.goto(`${base}/console/`);
      await page.getByLabel('Work e-mail').fill(email);
      const seen = new Set(ts.smtp.messages);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      const mail = await ts.smtp.waitFor((m) => !seen.has(m) && m.to.includes(email.toLowerCase()));
      const code = /\b(\d{6,})\b/.exec(mail.subject)?.[1];
      if (!code) throw new Error('no code in the sign-in mail');
      await page.getByLabel('Sign-in code').fill(code);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      return page;
    },
    async close() {
      await browser.close();
      await ts.close();
    },
  };
  return env;
}

/**
 * Waits until a page expression is truthy. Polled with evaluate (run through
 * the DevTools protocol): page.waitForFunction would compile the expression
 * in the page, which the console's CSP (no 'unsafe-eval') refuses.
 */
export async function waitUntil(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(`Boolean(${expression})`))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** axe-core with the WCAG 2.0/2.1/2.2 A and AA rules; returns the violations, summarised. */
export async function axeViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return r.violations.map(
    (v) =>
      `${v.id}: ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
}
