import { parseArgs } from 'node:util';
import { AgentLedger, AgentLedgerError } from '../../packages/client/src/index.ts';

// `agent-ledger hook claude-code`: a Claude Code PreToolUse hook. Claude Code
// runs it before every tool call with the call as JSON on stdin; the call is
// recorded in `enforced` mode and a `deny` verdict blocks the tool: exit 2
// with the reason on stderr (which Claude Code shows the model), and the
// documented JSON decision on stdout. Allowed calls exit 0 with no output, so
// Claude Code's own permission flow goes on as usual. A call a hold rule holds
// waits for a person's decision up to --wait seconds (less than the hook's
// timeout: a hook Claude Code times out does not block the tool): approved, it
// runs as allowed; denied or expired, it is blocked; still undecided, the
// hook answers `ask` and the person at the terminal decides.

/** Seconds a held call waits by default: below the 30 s timeout the documented settings give the hook. */
const DEFAULT_WAIT = 25;
/** The longest --wait: Claude Code's longest hook timeout is 10 minutes. */
const MAX_WAIT = 600;

const USAGE = `usage: agent-ledger hook claude-code [--url URL] [--token TOKEN] [--agent KEY] [--fail-open] [--wait SECONDS]
  URL    AGENT_LEDGER_URL        the service (e.g. https://ledger.example.com)
  TOKEN  AGENT_LEDGER_TOKEN      an API or ingress token of the workspace
  KEY    AGENT_LEDGER_AGENT_KEY  the agent the calls are recorded for (default claude-code)
  --fail-open / AGENT_LEDGER_FAIL=open: let tool calls run, with a warning, while the service cannot be
                                       reached (default: block them, as mcp-proxy's --on-unreachable deny;
                                       --fail-closed / AGENT_LEDGER_FAIL=closed say the default)
  --wait / AGENT_LEDGER_HOLD_WAIT: seconds a held call waits for its approval (default ${DEFAULT_WAIT}, 0: do not
                                   wait); keep it below the hook's timeout. Undecided by then: ask.
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
      'fail-open': { type: 'boolean' },
      wait: { type: 'string' },
    },
  });
  const waitArg = values.wait ?? io.env.AGENT_LEDGER_HOLD_WAIT ?? String(DEFAULT_WAIT);
  const waitSeconds = /^\d+$/.test(waitArg) ? Math.min(MAX_WAIT, Number(waitArg)) : DEFAULT_WAIT;
  const url = values.url ?? io.env.AGENT_LEDGER_URL;
  const token = values.token ?? io.env.AGENT_LEDGER_TOKEN;
  const agent = values.agent ?? io.env.AGENT_LEDGER_AGENT_KEY ?? 'claude-code';
  // Fail closed unless told otherwise: a control that lets every call through while it cannot be asked is
  // not one (an agent could get there by cutting the network). --fail-closed wins over an inherited FAIL=open.
  const failClosed =
    values['fail-closed'] === true || (values['fail-open'] !== true && io.env.AGENT_LEDGER_FAIL !== 'open');
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

  /** The documented JSON decision on stdout (read by Claude Code on exit 0). */
  const decide = (permissionDecision: 'deny' | 'ask', reason: string) =>
    io.stdout.write(
      `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, permissionDecisionReason: reason } })}\n`,
    );
  /** Blocks the tool: exit 2 with the reason on stderr (shown to Claude), the JSON decision on stdout as well. */
  const block = (reason: string) => {
    decide('deny', reason);
    io.stderr.write(`${reason}\n`);
    return BLOCK;
  };

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
    if (res.approval) {
      const held = `agent-ledger held ${input.tool_name} for agent ${agent} for approval ${res.approval.approval_id}`;
      const last =
        waitSeconds === 0
          ? res.approval
          : await client.waitForApproval(res.approval, {
              deadline: Date.now() + waitSeconds * 1000,
              onRetry: (err) =>
                io.stderr.write(`agent-ledger: waiting for approval ${res.approval!.approval_id}: ${message(err)}\n`),
            });
      if (last.status === 'approved') return 0;
      if (last.status === 'pending') {
        // Not decided while the hook may wait: the person at the terminal decides (Claude Code asks them).
        decide(
          'ask',
          `${held} (invocation ${res.invocation_id}), not decided within ${waitSeconds} s; it expires at ${last.expires_at}. Allow it here only if you would approve it there.`,
        );
        return 0;
      }
      const by = last.decided_by ? ` by ${last.decided_by}` : '';
      const note = last.note ? `: ${last.note}` : '';
      const what =
        last.status === 'denied' ? `was denied${by}${note}` : `was not approved before ${last.expires_at} (expired)`;
      return block(`${held}, which ${what} (invocation ${res.invocation_id}).`);
    }
    if (res.verdict !== 'deny') return 0;
    return block(
      `agent-ledger denied ${input.tool_name} for agent ${agent} (invocation ${res.invocation_id}, evidence ${res.evidence_id ?? 'n/a'}).`,
    );
  } catch (err) {
    if (err instanceof AgentLedgerError && err.status < 500 && err.status !== 429) {
      return unavailable(`the service refused the record (${err.message})`);
    }
    return unavailable(`the service could not be reached (${message(err)})`);
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

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
