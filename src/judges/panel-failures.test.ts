import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { startJudgeStandIn, type JudgeStandIn, type StandInStep } from '../testing/judge-stand-in.ts';
import { MAX_RESPONSE_BYTES } from './chat-client.ts';
import { runPanel, type JudgeCase, type JudgeEndpoint, type JudgeOpinion, type RunOptions } from './panel.ts';

// How the panel copes with judges that misbehave, against a real HTTP server
// (the stand-in): split and malformed panels, timeouts, 429 with Retry-After,
// 5xx, resets, oversized answers, quota running out. Every test checks the
// number of HTTP requests the stand-in received against the calls reserved.

let standIn: JudgeStandIn;
before(async () => {
  standIn = await startJudgeStandIn();
});
after(async () => {
  await standIn.close();
});

const aCase: JudgeCase = {
  persona: null,
  invocation: { id: 'inv-2', tool_name: 'search' },
  content: [{ field: 'input', text: 'find [PERSON_1]' }],
  findings: [{ type: 'PERSON', field: 'input', start: 5, end: 15 }],
};

function quota(budget = Infinity) {
  const asked: string[] = [];
  let left = budget;
  return {
    asked,
    reserveCall: async (judge: string) => {
      asked.push(judge);
      if (left <= 0) return false;
      left -= 1;
      return true;
    },
  };
}

let seq = 0;
function scripted(name: string, steps: StandInStep | StandInStep[]): JudgeEndpoint {
  seq += 1;
  const j = { name, base_url: standIn.baseUrl, model: `${name}-f${seq}`, api_key: null };
  standIn.script(j.model, steps);
  return j;
}
const opts = (q: ReturnType<typeof quota>, more: Partial<RunOptions> = {}): RunOptions => ({
  reserveCall: q.reserveCall,
  timeoutMs: 300,
  backoffBaseMs: 20,
  ...more,
});
const brief = (o: JudgeOpinion) => ({ verdict: o.verdict, calls: o.calls, error: o.error });

test('a split panel: majority follows the majority, unanimous_to_deny does not deny', async () => {
  const js = () => [
    scripted('a', { verdict: 'deny' }),
    scripted('b', { verdict: 'deny' }),
    scripted('c', { verdict: 'allow' }),
  ];
  const m = await runPanel(js(), 'majority', aCase, opts(quota()));
  assert.deepEqual([m.decision, m.unanimous], ['deny', false]);
  const u = await runPanel(js(), 'unanimous_to_deny', aCase, opts(quota()));
  assert.deepEqual([u.decision, u.unanimous], ['uncertain', false]);
  assert.deepEqual(
    u.judges.map((o) => o.verdict),
    ['deny', 'deny', 'allow'],
  );
});

test('a malformed answer is asked again once, then counts as uncertain', async () => {
  const twice = scripted('twice', { content: 'I think this is fine.' });
  const fixed = scripted('fixed', [{ content: '{"verdict":"allow"}' }, { verdict: 'deny', rationale: 'second try' }]);
  const enumWrong = scripted('enum', { content: '{"verdict":"approve","rationale":"x","rubric_points":[]}' });
  const q = quota();
  const out = await runPanel([twice, fixed, enumWrong], 'majority', aCase, opts(q));
  assert.deepEqual(out.judges.map(brief), [
    { verdict: 'uncertain', calls: 2, error: 'malformed' },
    { verdict: 'deny', calls: 2, error: undefined },
    { verdict: 'uncertain', calls: 2, error: 'malformed' },
  ]);
  assert.match(out.judges[0]!.rationale, /malformed answer: answer is not JSON/);
  assert.equal(out.judges[1]!.rationale, 'second try');
  assert.deepEqual([out.decision, out.unanimous], ['uncertain', false]);
  assert.equal(standIn.calls(twice.model) + standIn.calls(fixed.model) + standIn.calls(enumWrong.model), 6);
  assert.equal(q.asked.length, 6);
});

test('an answer in a Markdown code fence, with prose around it, counts at the first call', async () => {
  const fenced = scripted('fenced', {
    content:
      'Here is my assessment.\n\n```json\n{"verdict":"deny","rationale":"R1: a name left the workspace","rubric_points":["R1"]}\n```\n\nHappy to explain.',
  });
  const prose = scripted('prose', {
    content: 'Verdict follows. {"verdict":"deny","rationale":"R1","rubric_points":["R1"]} That is all.',
  });
  const q = quota();
  const out = await runPanel([fenced, prose], 'unanimous_to_deny', aCase, opts(q));
  assert.deepEqual(out.judges.map(brief), [
    { verdict: 'deny', calls: 1, error: undefined },
    { verdict: 'deny', calls: 1, error: undefined },
  ]);
  assert.equal(out.judges[0]!.rationale, 'R1: a name left the workspace');
  assert.deepEqual(out.judges[0]!.rubric_points, ['R1']);
  assert.deepEqual([out.decision, out.unanimous], ['deny', true]);
  assert.equal(standIn.calls(fenced.model) + standIn.calls(prose.model), 2);
});

test('a judge that times out is retried up to maxAttempts, then abstains; the others decide', async () => {
  const slow = scripted('slow', { delayMs: 2_000, then: { verdict: 'allow' } });
  const ok = scripted('ok', { verdict: 'deny' });
  const q = quota();
  const out = await runPanel([slow, ok], 'majority', aCase, opts(q, { maxAttempts: 3 }));
  assert.deepEqual(out.judges.map(brief), [
    { verdict: 'abstained', calls: 3, error: 'timeout' },
    { verdict: 'deny', calls: 1, error: undefined },
  ]);
  assert.deepEqual([out.decision, out.unanimous], ['deny', false]);
  assert.equal(standIn.calls(slow.model), 3);
  assert.equal(q.asked.length, 4);
});

test('429 with Retry-After is waited out, then the answer counts', async () => {
  const limited = scripted('limited', [
    { status: 429, headers: { 'retry-after': '1' } },
    { verdict: 'allow', rationale: 'after the wait' },
  ]);
  const q = quota();
  const t0 = Date.now();
  const out = await runPanel([limited], 'majority', aCase, opts(q));
  const waited = Date.now() - t0;
  assert.deepEqual(out.judges.map(brief), [{ verdict: 'allow', calls: 2, error: undefined }]);
  assert.deepEqual([out.decision, out.unanimous], ['allow', true]);
  assert.ok(waited >= 950, `waited ${waited} ms for Retry-After: 1`);
  assert.equal(standIn.calls(limited.model), 2);
});

test('a Retry-After beyond the cap abstains at once instead of spending calls', async () => {
  const later = scripted('later', { status: 429, headers: { 'retry-after': '3600' } });
  const q = quota();
  const out = await runPanel([later], 'majority', aCase, opts(q, { retryAfterCapMs: 5_000 }));
  assert.deepEqual(out.judges.map(brief), [{ verdict: 'abstained', calls: 1, error: 'http_429' }]);
  assert.deepEqual([out.decision, out.unanimous], ['uncertain', false]);
  assert.equal(standIn.calls(later.model), 1);
});

test('5xx and connection resets are retried with backoff; exhausted, the judge abstains', async () => {
  const down = scripted('down', { status: 503 });
  const flaky = scripted('flaky', [{ status: 500 }, { reset: true }, { verdict: 'deny' }]);
  const reset = scripted('reset', { reset: true });
  const q = quota();
  const out = await runPanel([down, flaky, reset], 'majority', aCase, opts(q, { maxAttempts: 3 }));
  assert.deepEqual(out.judges.map(brief), [
    { verdict: 'abstained', calls: 3, error: 'http_503' },
    { verdict: 'deny', calls: 3, error: undefined },
    { verdict: 'abstained', calls: 3, error: 'network' },
  ]);
  assert.equal(out.decision, 'deny');
  assert.equal(standIn.calls(down.model) + standIn.calls(flaky.model) + standIn.calls(reset.model), 9);
  assert.equal(q.asked.length, 9);
});

test('another 4xx is not retried: the judge abstains with the status', async () => {
  const unauthorised = scripted('unauthorised', { status: 401, body: '{"error":{"message":"bad key"}}' });
  const out = await runPanel([unauthorised], 'majority', aCase, opts(quota()));
  assert.deepEqual(out.judges.map(brief), [{ verdict: 'abstained', calls: 1, error: 'http_401' }]);
  assert.equal(standIn.calls(unauthorised.model), 1);
});

test('an oversized answer (50 MB) is dropped after MAX_RESPONSE_BYTES, not buffered', async () => {
  const huge = scripted('huge', { hugeBytes: 50 * 1024 * 1024 });
  const declared = scripted('declared', {
    status: 200,
    headers: { 'content-length': String(MAX_RESPONSE_BYTES + 1) },
    body: 'x'.repeat(MAX_RESPONSE_BYTES + 1),
  });
  const before = process.memoryUsage().arrayBuffers;
  const out = await runPanel([huge, declared], 'majority', aCase, opts(quota(), { timeoutMs: 10_000 }));
  assert.deepEqual(out.judges.map(brief), [
    { verdict: 'abstained', calls: 1, error: 'too_large' },
    { verdict: 'abstained', calls: 1, error: 'too_large' },
  ]);
  assert.ok(process.memoryUsage().arrayBuffers - before < 20 * 1024 * 1024, 'the 50 MB answer was not held in memory');
});

test('a redirect is not followed', async () => {
  const target = scripted('target', { verdict: 'allow' });
  const moved = scripted('moved', { status: 307, headers: { location: `${standIn.baseUrl}/chat/completions` } });
  const out = await runPanel([{ ...moved }], 'majority', aCase, opts(quota()));
  assert.deepEqual(out.judges.map(brief), [{ verdict: 'abstained', calls: 1, error: 'http_307' }]);
  assert.equal(standIn.calls(target.model), 0);
  assert.equal(standIn.calls(moved.model), 1);
});

test('no quota, no request: each judge abstains with quota and the stand-in hears nothing', async () => {
  const js = [scripted('q1', { verdict: 'deny' }), scripted('q2', { verdict: 'deny' })];
  const q = quota(0);
  const out = await runPanel(js, 'unanimous_to_deny', aCase, opts(q));
  assert.deepEqual(out.judges.map(brief), [
    { verdict: 'abstained', calls: 0, error: 'quota' },
    { verdict: 'abstained', calls: 0, error: 'quota' },
  ]);
  assert.deepEqual([out.decision, out.unanimous], ['uncertain', false]);
  assert.equal(standIn.calls(js[0]!.model) + standIn.calls(js[1]!.model), 0);
});

test('the quota running out mid-retry stops that judge: calls made equal calls reserved', async () => {
  const js = [scripted('m1', { status: 503 }), scripted('m2', { status: 503 }), scripted('m3', { status: 503 })];
  const q = quota(4);
  const out = await runPanel(js, 'majority', aCase, opts(q, { maxAttempts: 3 }));
  const sent = js.reduce((n, j) => n + standIn.calls(j.model), 0);
  assert.equal(sent, 4);
  assert.equal(
    out.judges.reduce((n, o) => n + o.calls, 0),
    4,
  );
  assert.ok(out.judges.some((o) => o.error === 'quota'));
  assert.ok(out.judges.every((o) => o.verdict === 'abstained'));
});

test('reserveCall failing (the store is down) rejects the run', async () => {
  const j = scripted('store', { verdict: 'allow' });
  await assert.rejects(
    runPanel([j], 'majority', aCase, {
      reserveCall: async () => {
        throw new Error('quota store unavailable');
      },
    }),
    /quota store unavailable/,
  );
  assert.equal(standIn.calls(j.model), 0);
});

test('aborting the signal rejects the run (the job stays pending) and stops waiting judges', async () => {
  const slow = scripted('abort', { delayMs: 5_000, then: { verdict: 'allow' } });
  const ac = new AbortController();
  const t0 = Date.now();
  setTimeout(() => ac.abort(new Error('shutting down')), 100);
  await assert.rejects(
    runPanel([slow], 'majority', aCase, opts(quota(), { timeoutMs: 10_000, signal: ac.signal })),
    /shutting down/,
  );
  assert.ok(Date.now() - t0 < 4_000, 'did not wait for the 5 s answer');
  assert.equal(standIn.calls(slow.model), 1);
});

test('aborting during a backoff wait rejects with the same reason', async () => {
  const limited = scripted('abort-wait', { status: 429, headers: { 'retry-after': '20' } });
  const ac = new AbortController();
  setTimeout(() => ac.abort(new Error('shutting down')), 200);
  await assert.rejects(
    runPanel([limited], 'majority', aCase, opts(quota(), { retryAfterCapMs: 30_000, signal: ac.signal })),
    /shutting down/,
  );
  assert.equal(standIn.calls(limited.model), 1);
});

test('judges are asked in parallel: all three requests arrive before the first answer', async () => {
  const js = ['p1', 'p2', 'p3'].map((n) => scripted(n, { delayMs: 2_000, then: { verdict: 'allow' } }));
  const running = runPanel(js, 'majority', aCase, opts(quota(), { timeoutMs: 10_000 }));
  const arrived = () => js.reduce((n, j) => n + standIn.calls(j.model), 0);
  const t0 = Date.now();
  while (arrived() < 3 && Date.now() - t0 < 1_800) await new Promise((r) => setTimeout(r, 10));
  assert.equal(arrived(), 3, 'asked one after another');
  assert.equal((await running).decision, 'allow');
});

test('an unreachable judge abstains with network after its attempts', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((r) => closed.close(() => r()));
  const q = quota();
  const out = await runPanel(
    [{ name: 'gone', base_url: `http://127.0.0.1:${port}/v1`, model: 'x', api_key: null }],
    'majority',
    aCase,
    opts(q, { maxAttempts: 2 }),
  );
  assert.deepEqual(out.judges.map(brief), [{ verdict: 'abstained', calls: 2, error: 'network' }]);
  assert.equal(q.asked.length, 2);
});

test('a judge with an unusable base_url abstains without a call; the rest of the panel still decides', async () => {
  const ok = scripted('fine', { verdict: 'allow' });
  const q = quota();
  const bad = (base_url: string, name: string) => ({ name, base_url, model: 'x', api_key: null });
  const out = await runPanel(
    [bad('http://exa mple/v1', 'space'), bad('ftp://host/v1', 'ftp'), bad('http://u:p@127.0.0.1/v1', 'creds'), ok],
    'majority',
    aCase,
    opts(q),
  );
  assert.deepEqual(out.judges.map(brief), [
    { verdict: 'abstained', calls: 0, error: 'bad_url' },
    { verdict: 'abstained', calls: 0, error: 'bad_url' },
    { verdict: 'abstained', calls: 0, error: 'bad_url' },
    { verdict: 'allow', calls: 1, error: undefined },
  ]);
  assert.equal(out.decision, 'allow');
  assert.deepEqual(q.asked, ['fine']);
});
