import { BEARER_TOKEN, commandOptions } from '../core/index.ts';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LedgerGate, type Mode, type OnUnreachable } from './ledger.ts';
import { isLoopback, startHttpProxy } from './http-listener.ts';
import { startRelay } from './relay.ts';

// `agent-ledger mcp-proxy`: an MCP client starts this in place of a stdio MCP
// server; it starts the server and relays between the two, each tools/call
// decided by agent-ledger before the server sees it.

const USAGE = `usage: agent-ledger mcp-proxy --url URL --token TOKEN --agent-key KEY
                            [--mode enforced|observed] [--on-unreachable deny|allow] -- COMMAND [ARGS…]
       agent-ledger mcp-proxy --url URL --token TOKEN --agent-key KEY [--mode …] [--on-unreachable …]
                            --listen HOST:PORT --upstream URL [--upstream-header 'NAME: VALUE']…
                            [--listen-token SECRET] [--session-idle SECONDS]
  URL    AGENT_LEDGER_URL        the service (e.g. https://ledger.example.com)
  TOKEN  AGENT_LEDGER_TOKEN      an API token (filters tools/list by the agent's scope, names deny reasons)
                                 or an ingress token of the workspace
  KEY    AGENT_LEDGER_AGENT_KEY  the agent the calls are recorded for
  --mode enforced (default): each tools/call is recorded and decided before the server sees it;
         observed: calls run at once and are recorded with their result afterwards
  --on-unreachable deny (default): refuse calls while the service cannot record them (fail closed);
         allow: let them run unrecorded, with a warning on stderr
  -- COMMAND [ARGS…]      a stdio MCP server, started by the proxy (the MCP client starts the proxy)
  --listen HOST:PORT      serve MCP over Streamable HTTP at http://HOST:PORT/mcp (PORT 0: any free port)
  --upstream URL          the Streamable HTTP MCP server the calls go to
  --upstream-header H     a header for every request to the upstream server (repeatable)
  --listen-token SECRET   AGENT_LEDGER_LISTEN_TOKEN: clients must send Authorization: Bearer SECRET
                          (required to listen on an address other than loopback)
  --session-idle SECONDS  end a client's session after this long with no request open (default 3600)
`;

export async function mcpProxyCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  const command = split === -1 ? [] : args.slice(split + 1);
  const parsed = commandOptions(
    'mcp-proxy',
    own,
    {
      url: { type: 'string' },
      token: { type: 'string' },
      'agent-key': { type: 'string' },
      mode: { type: 'string' },
      'on-unreachable': { type: 'string' },
      listen: { type: 'string' },
      upstream: { type: 'string' },
      'upstream-header': { type: 'string', multiple: true },
      'listen-token': { type: 'string' },
      'session-idle': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  const url = values.url ?? env.AGENT_LEDGER_URL;
  const token = values.token ?? env.AGENT_LEDGER_TOKEN;
  const agentKey = values['agent-key'] ?? env.AGENT_LEDGER_AGENT_KEY;
  const mode = values.mode ?? 'enforced';
  const onUnreachable = values['on-unreachable'] ?? 'deny';
  const http = values.listen !== undefined || values.upstream !== undefined;
  const listen = values.listen === undefined ? null : parseListen(values.listen);
  const upstreamUrl = values.upstream === undefined ? null : URL.parse(values.upstream);
  const upstreamHeaders: Record<string, string> = {};
  const headerProblems: string[] = [];
  for (const h of values['upstream-header'] ?? []) {
    const at = h.indexOf(':');
    const name = at > 0 ? h.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) headerProblems.push(`--upstream-header ${h}: not NAME: VALUE`);
    else upstreamHeaders[name] = h.slice(at + 1).trim();
  }
  const listenToken = values['listen-token'] ?? env.AGENT_LEDGER_LISTEN_TOKEN ?? null;
  const idle = values['session-idle'] ?? '3600';
  const problems = [
    ...(url ? [] : ['--url (or AGENT_LEDGER_URL) is required']),
    ...(token ? [] : ['--token (or AGENT_LEDGER_TOKEN) is required']),
    ...(agentKey ? [] : ['--agent-key (or AGENT_LEDGER_AGENT_KEY) is required']),
    ...(mode === 'enforced' || mode === 'observed' ? [] : ['--mode must be enforced or observed']),
    ...(onUnreachable === 'deny' || onUnreachable === 'allow' ? [] : ['--on-unreachable must be deny or allow']),
    ...(http
      ? [
          ...(command.length === 0 ? [] : ['either -- COMMAND (stdio) or --listen/--upstream (HTTP), not both']),
          ...(listen ? [] : ['--listen HOST:PORT is required with --upstream (e.g. 127.0.0.1:8808)']),
          ...(upstreamUrl && /^https?:$/.test(upstreamUrl.protocol)
            ? []
            : ['--upstream must be the http(s) URL of a Streamable HTTP MCP server']),
          ...(listen && !isLoopback(listen.host) && !listenToken
            ? ['--listen on an address other than loopback needs --listen-token (or AGENT_LEDGER_LISTEN_TOKEN)']
            : []),
          ...(listenToken !== null && listenToken.length < 16 ? ['--listen-token must be at least 16 characters'] : []),
          ...(listenToken !== null && !BEARER_TOKEN.test(listenToken)
            ? ['--listen-token must be visible ASCII without spaces, at most 512 characters (a bearer token)']
            : []),
          ...(/^[1-9]\d{0,6}$/.test(idle) ? [] : ['--session-idle must be a number of seconds (1-9999999)']),
          ...headerProblems,
        ]
      : command.length > 0
        ? []
        : ['the server to wrap follows --: -- COMMAND [ARGS…] (or --listen HOST:PORT --upstream URL)']),
  ];
  if (problems.length > 0) {
    process.stderr.write(`agent-ledger mcp-proxy: ${problems.join('; ')}\n${USAGE}`);
    return 2;
  }

  const newGate = (server: string) =>
    new LedgerGate({
      url: url!,
      token: token!,
      agentKey: agentKey!,
      mode: mode as Mode,
      onUnreachable: onUnreachable as OnUnreachable,
      server,
    });
  const onError = (err: Error) => process.stderr.write(`agent-ledger mcp-proxy: ${err.message}\n`);

  if (http) {
    const proxy = await startHttpProxy({
      host: listen!.host,
      port: listen!.port,
      upstream: upstreamUrl!,
      upstreamHeaders,
      listenToken,
      sessionIdleMs: Number(idle) * 1000,
      newGate: () => newGate(upstreamUrl!.href),
      onError,
    });
    process.stderr.write(`agent-ledger mcp-proxy: listening on ${proxy.url}, upstream ${upstreamUrl!.href}\n`);
    await new Promise<void>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
    });
    await proxy.close();
    return 0;
  }

  const gate = newGate(command.join(' '));
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
    onError,
  });
  // The SDK's stdio server transport does not notice the caller going away: end of stdin ends the session.
  process.stdin.once('end', () => void relay.close());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void relay.close());
  await relay.closed;
  return 0;
}

/** HOST:PORT, [IPv6]:PORT; null when it is not one. */
function parseListen(v: string): { host: string; port: number } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(v);
  if (!m) return null;
  const port = Number(m[3]);
  return port <= 65_535 ? { host: m[1] ?? m[2]!, port } : null;
}
