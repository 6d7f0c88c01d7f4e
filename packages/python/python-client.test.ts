import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { eachStore, TestClock } from '../../src/testing/harness.ts';

// The Python client's unittest suite (packages/python/tests) against the real
// service: this file starts the service listening on a port, signs in an admin,
// issues the agent's ingress token and sets a policy that allows, denies and
// holds by tool name, then runs `python3 -m unittest discover` with the URL and
// tokens in its environment. The service's clock is the real one: held calls
// expire by it while Python waits.

const PACKAGE = fileURLToPath(new URL('.', import.meta.url));
const PYTHON = process.env.PYTHON ?? 'python3';

/** The policy the Python tests are written against (tests/helpers.py names the tools). */
const POLICY = {
  default_verdict: 'allow',
  rules: [
    { id: 'no-deletes', when: { tools: ['fs.delete*'] }, verdict: 'deny' },
    { id: 'hold-payments', when: { tools: ['payments.*'] }, verdict: 'allow', hold: true, hold_seconds: 600 },
    { id: 'hold-briefly', when: { tools: ['brief.*'] }, verdict: 'allow', hold: true, hold_seconds: 2 },
  ],
};

function run(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // Asynchronous on purpose: the service answering Python runs on this process's event loop.
    const child = spawn(cmd, args, { cwd: PACKAGE, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const realClock = new TestClock();
realClock.now = () => new Date();

eachStore(
  'Python client (packages/python) against the service',
  (get) => {
    test('python3 -m unittest discover: record, batches, retries, guard and async_guard', async () => {
      const t = get();
      const admin = await t.signIn('admin@python-client.example');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
      const issued = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/ingress-tokens',
        token: admin.token,
        payload: { name: 'python agent' },
      });
      assert.equal(issued.statusCode, 201, issued.body);
      const policy = await t.request({ method: 'PUT', url: '/api/v1/policy', token: admin.token, payload: POLICY });
      assert.equal(policy.statusCode, 200, policy.body);

      const { code, output } = await run(PYTHON, ['-m', 'unittest', 'discover', '-s', 'tests', '-v'], {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PYTHONPATH: `${PACKAGE}src`,
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONUNBUFFERED: '1',
        AGENT_LEDGER_URL: url,
        AGENT_LEDGER_TOKEN: (issued.json() as { token: string }).token,
        AGENT_LEDGER_ADMIN_TOKEN: admin.token,
      });
      assert.equal(code, 0, `python3 -m unittest failed (exit ${code}):\n${output}`);
      assert.match(output, /^OK/m, output);
      assert.doesNotMatch(output, /skipped/, 'no Python test may be skipped here');

      // What Python did is in this workspace's audit trail: its held calls' approvals were requested and decided.
      const leaves = await t.request({
        method: 'GET',
        url: '/api/v1/audit/entries?start=0&end=1000',
        token: admin.token,
      });
      const kinds = (leaves.json() as { entries: Array<{ leaf: string }> }).entries.map(
        (e) => (JSON.parse(e.leaf) as { kind?: string; type?: string }).kind ?? '',
      );
      for (const kind of ['approval_requested', 'approval_decided', 'approval_expired', 'tool_output_attached'])
        assert.ok(kinds.includes(kind), `a ${kind} leaf (${[...new Set(kinds)].join(', ')})`);
    });
  },
  { clock: realClock },
);
