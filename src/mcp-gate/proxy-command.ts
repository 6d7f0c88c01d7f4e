import { parseArgs } from 'node:util';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LedgerGate, type Mode, type OnUnreachable } from './ledger.ts';
import { startRelay } from './relay.ts';

// `agent-ledger mcp-proxy`: an MCP client starts this in place of a stdio MCP
// server; it starts the server and relays between the two, each tools/call
// decided by agent-ledger before the server sees it.

const USAGE = `usage: agent-ledger mcp-proxy --url URL --token TOKEN --agent-key KEY
                            [--mode enforced|observed] [--on-unreachable deny|allow] -- COMMAND [ARGS…]
  URL    AGENT_LEDGER_URL        the service (e.g. https://ledger.example.com)
  TOKEN  AGENT_LEDGER_TOKEN      an API token (filters tools/list by the agent's scope, names deny reasons)
                                 or an ingress token of the workspace
  KEY    AGENT_LEDGER_AGENT_KEY  the agent the calls are recorded for
  --mode enforced (default): each tools/call is recorded and decided before the server sees it;
         observed: calls run at once and are recorded with their result afterwards
  --on-unreachable deny (default): refuse calls while the service cannot record them (fail closed);
         allow: let them run unrecorded, with a warning on stderr
`;

export async function mcpProxyCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  const command = split === -1 ? [] : args.slice(split + 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: own,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        'agent-key': { type: 'string' },
        mode: { type: 'string' },
        'on-unreachable': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    process.stderr.write(`agent-ledger mcp-proxy: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const url = values.url ?? env.AGENT_LEDGER_URL;
  const token = values.token ?? env.AGENT_LEDGER_TOKEN;
  const agentKey = values['agent-key'] ?? env.AGENT_LEDGER_AGENT_KEY;
  const mode = values.mode ?? 'enforced';
  const onUnreachable = values['on-unreachable'] ?? 'deny';
  const problems = [
    ...(url ? [] : ['--url (or AGENT_LEDGER_URL) is required']),
    ...(token ? [] : ['--token (or AGENT_LEDGER_TOKEN) is required']),
    ...(agentKey ? [] : ['--agent-key (or AGENT_LEDGER_AGENT_KEY) is required']),
    ...(mode === 'enforced' || mode === 'observed' ? [] : ['--mode must be enforced or observed']),
    ...(onUnreachable === 'deny' || onUnreachable === 'allow' ? [] : ['--on-unreachable must be deny or allow']),
    ...(command.length > 0 ? [] : ['the server to wrap follows --: -- COMMAND [ARGS…]']),
  ];
  if (problems.length > 0) {
    process.stderr.write(`agent-ledger mcp-proxy: ${problems.join('; ')}\n${USAGE}`);
    return 2;
  }

  const gate = new LedgerGate({
    url: url!,
    token: token!,
    agentKey: agentKey!,
    mode: mode as Mode,
    onUnreachable: onUnreachable as OnUnreachable,
    server: command.join(' '),
  });
  // The wrapped server gets the proxy's environment (the MCP client's
  // configuration sets it for the server), less the ledger's token: the
  // server is what is being gated and has no business holding it.
  const serverEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && k !== 'AGENT_LEDGER_TOKEN') serverEnv[k] = v;
  const upstream = new StdioClientTransport({
    command: command[0]!,
    args: command.slice(1),
    env: serverEnv,
    stderr: 'inherit',
  });
  const caller = new StdioServerTransport();
  const relay = await startRelay({
    caller,
    upstream,
    gate,
    onError: (err) => process.stderr.write(`agent-ledger mcp-proxy: ${err.message}\n`),
  });
  // The SDK's stdio server transport does not notice the caller going away: end of stdin ends the session.
  process.stdin.once('end', () => void relay.close());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void relay.close());
  await relay.closed;
  return 0;
}
