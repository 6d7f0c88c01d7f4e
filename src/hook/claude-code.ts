import { parseArgs } from 'node:util';
import { AgentLedger, AgentLedgerError } from '../../packages/client/src/index.ts';

// `agent-ledger hook claude-code`: a Claude Code PreToolUse hook. Claude Code
// runs it before every tool call with the call as JSON on stdin; the call is
// recorded in `enforced` mode and a `deny` verdict blocks the tool: exit 2
// with the reason on stderr (which Claude Code shows the model), and the
// documented JSON decision on stdout. Allowed calls exit 0 with no output, so
// Claude Code's own permission flow goes on as usual.

const USAGE = `usage: agent-ledger hook claude-code [--url URL] [--token TOKEN] [--agent KEY] [--fail-closed]
  URL    AGENT_LEDGER_URL        the service (e.g. https://ledger.example.com)
  TOKEN  AGENT_LEDGER_TOKEN      an API or ingress token of the workspace
  KEY    AGENT_LEDGER_AGENT_KEY  the agent the calls are recorded for (default claude-code)
  --fail-closed / AGENT_LEDGER_FAIL=closed: block tool calls while the service cannot be reached
                                           (default: let them run, with a warning)
`;

/** What Claude Code sends a PreToolUse hook (fields this hook reads). */
interface PreToolUseInput {
  session_id?: string;
  hook_event_name?: string;
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  cwd?: string;
  permission_mode?: string;
}

const BLOCK = 2;
const MAX_STDIN = 4 * 1024 * 1024;

export async function hookCommand(
  args: string[],
  io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  const [kind, ...rest] = args;
  if (kind !== 'claude-code') {
    io.stderr.write(USAGE);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      agent: { type: 'string' },
      'fail-closed': { type: 'boolean' },
    },
  });
  const url = values.url ?? io.env.AGENT_LEDGER_URL;
  const token = values.token ?? io.env.AGENT_LEDGER_TOKEN;
  const agent = values.agent ?? io.env.AGENT_LEDGER_AGENT_KEY ?? 'claude-code';
  const failClosed = values['fail-closed'] === true || io.env.AGENT_LEDGER_FAIL === 'closed';
  const unavailable = (why: string) => {
    if (failClosed) {
      io.stderr.write(`agent-ledger: ${why}; the tool call is blocked (fail-closed).\n`);
      return BLOCK;
    }
    io.stderr.write(`agent-ledger: ${why}; the tool call was not recorded (fail-open).\n`);
    return 0;
  };
  if (!url || !token) return unavailable('AGENT_LEDGER_URL and AGENT_LEDGER_TOKEN must be set');

  let input: PreToolUseInput;
  try {
    input = JSON.parse(await readAll(io.stdin)) as PreToolUseInput;
  } catch (err) {
    return unavailable(`the hook input is not JSON (${(err as Error).message})`);
  }
  if (typeof input !== 'object' || input === null || typeof input.tool_name !== 'string')
    return unavailable('the hook input names no tool_name');

  const client = new AgentLedger({
    baseUrl: url,
    token,
    maxRetries: 2,
    retryBaseMs: 100,
    maxRetryDelayMs: 2_000,
    timeoutMs: 5_000,
  });
  const toolInput = clip(
    typeof input.tool_input === 'string' ? input.tool_input : JSON.stringify(input.tool_input ?? null),
  );
  // A cut input is marked, as OTLP marks its cuts: a reviewer must know the
  // record holds only the first 32,000 code points of what the tool was given.
  const context = JSON.stringify({
    source: 'claude-code',
    hook: input.hook_event_name ?? 'PreToolUse',
    tool_use_id: input.tool_use_id,
    permission_mode: input.permission_mode,
    cwd: input.cwd,
    ...(toolInput.cutFrom === null ? {} : { truncated: { tool_input: toolInput.cutFrom } }),
  });
  try {
    const res = await client.invocation(
      {
        agent_key: agent,
        mode: 'enforced',
        tool_name: input.tool_name.slice(0, 256),
        tool_input: toolInput.text,
        context: clip(context).text,
        ...(typeof input.session_id === 'string' && input.session_id !== ''
          ? { correlation_id: input.session_id.slice(0, 64) }
          : {}),
      },
      // Claude Code may run a hook again for the same call: one record per tool use.
      input.tool_use_id ? { idempotencyKey: `claude-code-${input.tool_use_id}`.slice(0, 255) } : {},
    );
    if (res.verdict !== 'deny') return 0;
    const reason = `agent-ledger denied ${input.tool_name} for agent ${agent} (invocation ${res.invocation_id}, evidence ${res.evidence_id ?? 'n/a'}).`;
    io.stdout.write(
      `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`,
    );
    io.stderr.write(`${reason}\n`);
    return BLOCK;
  } catch (err) {
    if (err instanceof AgentLedgerError && err.status < 500 && err.status !== 429) {
      return unavailable(`the service refused the record (${err.message})`);
    }
    return unavailable(`the service could not be reached (${err instanceof Error ? err.message : String(err)})`);
  }
}

const MAX_TEXT = 32_000;

/** The API takes up to 32,000 code points per text field; cutFrom is the length in code points of a text that was cut. */
function clip(s: string): { text: string; cutFrom: number | null } {
  if (s.length <= MAX_TEXT) return { text: s, cutFrom: null };
  const points = [...s];
  return points.length <= MAX_TEXT
    ? { text: s, cutFrom: null }
    : { text: points.slice(0, MAX_TEXT).join(''), cutFrom: points.length };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MAX_STDIN) throw new Error('more than 4 MiB');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}
