import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { bearerToken, safeEqual } from '../core/index.ts';
import type { LedgerGate } from './ledger.ts';
import { type Relay, startRelay } from './relay.ts';

// `agent-ledger mcp-proxy --listen HOST:PORT --upstream URL`: the gate in front
// of a Streamable HTTP MCP server. Each MCP session of a client gets its own
// session with the upstream server and its own relay (relay.ts, the same gate
// as the stdio mode): the SDK's StreamableHTTPServerTransport faces the
// client, its StreamableHTTPClientTransport the upstream server.

export interface HttpProxyOptions {
  host: string;
  /** 0: any free port (the address is in the answer). */
  port: number;
  upstream: URL;
  /** Headers sent with every request to the upstream server (e.g. its Authorization). */
  upstreamHeaders: Record<string, string>;
  /** When set, every request must carry `Authorization: Bearer <listenToken>`. */
  listenToken: string | null;
  /** A session with no request open (a GET stream counts) for this long (ms) is ended, as a client's DELETE would. */
  sessionIdleMs: number;
  /** A gate per MCP session: each session's calls share one correlation id. */
  newGate: () => LedgerGate;
  onError?: (err: Error) => void;
}

export interface HttpProxy {
  /** Where clients connect: http://HOST:PORT/mcp */
  url: string;
  /** MCP sessions open now. */
  sessions(): number;
  close(): Promise<void>;
}

/** The path the proxy serves MCP on. */
export const MCP_PATH = '/mcp';
/** Largest JSON-RPC body a client may POST (the SDK's own default). */
const MAX_BODY = 4 * 1024 * 1024;

interface Session {
  caller: StreamableHTTPServerTransport;
  upstream: StreamableHTTPClientTransport;
  relay: Relay;
  /** Requests of the session open now (a held call, the client's GET stream). */
  open: number;
  /** When its last request ended (ms, performance.now()). */
  idleSince: number;
}

export const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || (isIP(host) === 4 && host.startsWith('127.'));

export async function startHttpProxy(o: HttpProxyOptions): Promise<HttpProxy> {
  const sessions = new Map<string, Session>();
  let port = o.port;

  const fail = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    if (res.headersSent) return void res.end();
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };

  /**
   * A server bound to a loopback address answers only requests that name it
   * (Host: localhost:PORT, 127.0.0.1:PORT, [::1]:PORT): a web page the user
   * visits cannot reach it through a rebound DNS name. A browser's request
   * from a page that is not itself on this machine (an Origin other than a
   * loopback one, such as a local MCP inspector's) is refused too.
   */
  const allowedHost = (req: IncomingMessage): boolean => {
    if (!isLoopback(o.host)) return true;
    const host = (req.headers.host ?? '').toLowerCase();
    const names = [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `${o.host}:${port}`];
    if (!names.includes(host)) return false;
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    const from = URL.parse(origin);
    return from !== null && /^https?:$/.test(from.protocol) && isLoopback(from.hostname);
  };

  /** The header read as the service reads its own (core's bearerToken), the token compared in constant time. */
  const authorized = (req: IncomingMessage): boolean => {
    if (o.listenToken === null) return true;
    const got = bearerToken(req.headers.authorization);
    return got !== undefined && safeEqual(got, o.listenToken);
  };

  const openSession = async (): Promise<Session> => {
    const upstream = new StreamableHTTPClientTransport(o.upstream, { requestInit: { headers: o.upstreamHeaders } });
    const caller = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Called while the initialize request is handled, after the relay started.
      onsessioninitialized: (id) => void sessions.set(id, session),
      // The client ended its session (DELETE): so does the proxy with the upstream server.
      onsessionclosed: async (id) => {
        sessions.delete(id);
        await upstream.terminateSession().catch((err: Error) => o.onError?.(err));
      },
    });
    const relay = await startRelay({
      caller,
      upstream,
      gate: o.newGate(),
      ...(o.onError ? { onError: o.onError } : {}),
    });
    const session: Session = { caller, upstream, relay, open: 0, idleSince: performance.now() };
    void relay.closed.then(() => {
      if (caller.sessionId) sessions.delete(caller.sessionId);
    });
    return session;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (path !== MCP_PATH) return fail(res, 404, `Not found: MCP is served on ${MCP_PATH}`);
    if (!allowedHost(req)) return fail(res, 403, 'Forbidden: the Host or Origin does not name this proxy');
    if (!authorized(req)) return fail(res, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
    const id = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(id) ? id[0] : id;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) return fail(res, 404, 'Session not found');
      track(session, res);
      return session.caller.handleRequest(req, res);
    }
    if (req.method !== 'POST') return fail(res, 400, 'Bad Request: no session (initialize first)');
    const body = await readJson(req);
    if (body === undefined) return fail(res, 400, 'Parse error: the body is not JSON (at most 4 MiB)');
    if (!isInitializeRequest(body)) return fail(res, 400, 'Bad Request: no session (initialize first)');
    const session = await openSession();
    track(session, res);
    await session.caller.handleRequest(req, res, body);
  };

  const track = (session: Session, res: ServerResponse) => {
    session.open++;
    res.once('close', () => {
      session.open--;
      session.idleSince = performance.now();
    });
  };
  /** Clients that went away without ending their session (no DELETE): their sessions, upstream too, are ended. */
  const reaper = setInterval(
    () => {
      const now = performance.now();
      for (const [id, s] of sessions) {
        if (s.open > 0 || now - s.idleSince < o.sessionIdleMs) continue;
        sessions.delete(id);
        void s.upstream
          .terminateSession()
          .catch(() => {})
          .then(() => s.relay.close());
      }
    },
    Math.max(250, Math.min(60_000, o.sessionIdleMs / 4)),
  );
  reaper.unref();

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      o.onError?.(err);
      fail(res, 500, 'Internal error of the proxy');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  port = (server.address() as { port: number }).port;
  const hostInUrl = isIP(o.host) === 6 ? `[${o.host}]` : o.host;

  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    sessions: () => sessions.size,
    async close() {
      clearInterval(reaper);
      await Promise.allSettled(
        [...sessions.values()].map(async (s) => {
          await s.upstream.terminateSession().catch(() => {});
          await s.relay.close();
        }),
      );
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
