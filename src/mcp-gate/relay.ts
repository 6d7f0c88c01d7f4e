import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { LedgerGate } from './ledger.ts';

// The gate relays JSON-RPC messages between the MCP client (the caller) and
// the wrapped server at the transport level: everything passes as it is —
// initialize, capabilities, notifications, the server's own requests
// (sampling, elicitation), progress — except two requests from the caller:
//   - tools/call is decided by the service first; refused, the caller gets a
//     tool result with isError and the server never sees the request;
//   - tools/list's answer loses the tools outside the agent's scope.
// Relaying messages rather than re-serving them through the SDK's Client and
// Server keeps the proxy transparent to protocol features it knows nothing of.

type Pending = { kind: 'call'; name: string; arguments: unknown; gated: unknown } | { kind: 'list' } | { kind: 'init' };

export interface RelayOptions {
  caller: Transport;
  upstream: Transport;
  gate: LedgerGate;
  onError?: (err: Error) => void;
}

export interface Relay {
  /** Resolves when either side closed; the other is closed then too. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function startRelay({ caller, upstream, gate, onError }: RelayOptions): Promise<Relay> {
  /** The caller's requests the server is answering, by id, when their answer needs the gate. */
  const pending = new Map<RequestId, Pending>();
  /** tools/call requests still being decided, so a cancellation stops the wait. */
  const deciding = new Map<RequestId, AbortController>();
  /** The scope read for each tools/list in flight (read while the server lists). */
  const scopes = new Map<RequestId, ReturnType<LedgerGate['allowedTools']>>();
  let closing = false;
  let done!: () => void;
  const closed = new Promise<void>((r) => (done = r));

  /** The caller's requests that asked for progress, by progress token: over HTTP their progress goes on the request's own stream. */
  const progressOf = new Map<string | number, RequestId>();

  const toCaller = (m: JSONRPCMessage, relatedRequestId?: RequestId) =>
    caller
      .send(m, relatedRequestId === undefined ? undefined : { relatedRequestId })
      .catch((err: Error) => onError?.(err));
  const toUpstream = (m: JSONRPCMessage) =>
    upstream.send(m).catch(async (err: Error) => {
      onError?.(err);
      // A request the server never got is answered, not left waiting.
      if (isJSONRPCRequest(m)) {
        pending.delete(m.id);
        await toCaller({
          jsonrpc: '2.0',
          id: m.id,
          error: { code: -32603, message: `agent-ledger mcp-proxy: the server could not be reached (${err.message})` },
        });
        // No session began: nothing is left to relay.
        if (m.method === 'initialize') await close();
      }
    });

  const close = async () => {
    if (closing) return;
    closing = true;
    for (const c of deciding.values()) c.abort();
    await Promise.allSettled([upstream.close(), caller.close()]);
    await gate.close().catch((err: Error) => onError?.(err));
    done();
  };

  caller.onmessage = (message) => {
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      void gateCall(message);
      return;
    }
    if (isJSONRPCRequest(message) && message.method === 'tools/list') {
      pending.set(message.id, { kind: 'list' });
      scopes.set(message.id, gate.allowedTools());
    }
    if (isJSONRPCRequest(message) && message.method === 'initialize') pending.set(message.id, { kind: 'init' });
    if (isJSONRPCRequest(message)) rememberProgress(message);
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const c = id === undefined ? undefined : deciding.get(id);
      if (c) {
        // Not yet forwarded: the server never heard of this request.
        c.abort();
        return;
      }
    }
    void toUpstream(message);
  };

  upstream.onmessage = (message) => {
    if (isJSONRPCNotification(message) && message.method === 'notifications/progress') {
      const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
      const id = typeof token === 'string' || typeof token === 'number' ? progressOf.get(token) : undefined;
      void toCaller(message, id);
      return;
    }
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      forgetProgress(message.id);
      const p = pending.get(message.id);
      if (p) {
        pending.delete(message.id);
        if (p.kind === 'init' && isJSONRPCResultResponse(message)) {
          // The HTTP client transport sends the negotiated version with each later request (MCP-Protocol-Version).
          const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
          if (typeof version === 'string') upstream.setProtocolVersion?.(version);
        }
        if (p.kind === 'list' && isJSONRPCResultResponse(message)) {
          void filterList(message.id, message);
          return;
        }
        scopes.delete(message.id);
        if (p.kind === 'call') {
          // The caller has its answer first: recording the result is never on the call's path.
          void toCaller(message);
          const result = isJSONRPCResultResponse(message)
            ? message.result
            : { isError: true, content: [{ type: 'text', text: message.error.message }] };
          try {
            gate.after(p, p.gated as Parameters<LedgerGate['after']>[1], result);
          } catch (err) {
            onError?.(err as Error);
          }
          return;
        }
      }
    }
    void toCaller(message);
  };

  async function gateCall(req: JSONRPCRequest): Promise<void> {
    const params = (req.params ?? {}) as { name?: unknown; arguments?: unknown; _meta?: { progressToken?: unknown } };
    const name = typeof params.name === 'string' ? params.name : '';
    const abort = new AbortController();
    deciding.set(req.id, abort);
    const progressToken = params._meta?.progressToken;
    let progress = 0;
    let decision;
    try {
      decision = await gate.before({
        name,
        arguments: params.arguments,
        signal: abort.signal,
        // A held call may wait minutes: progress notifications let a caller that
        // asked for them (resetTimeoutOnProgress) keep its request alive.
        onWaiting: (left) => {
          if (typeof progressToken !== 'string' && typeof progressToken !== 'number') return;
          void toCaller(
            {
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { progressToken, progress: ++progress, message: `waiting for approval (${left} s left)` },
            },
            req.id,
          );
        },
      });
    } catch (err) {
      decision = {
        action: 'refuse' as const,
        text: `agent-ledger could not decide ${name}: ${(err as Error).message}`,
      };
    } finally {
      deciding.delete(req.id);
    }
    if (abort.signal.aborted || closing) return; // cancelled: no answer is expected
    if (decision.action === 'refuse') {
      forgetProgress(req.id);
      await toCaller({
        jsonrpc: '2.0',
        id: req.id,
        result: { content: [{ type: 'text', text: decision.text }], isError: true },
      });
      return;
    }
    pending.set(req.id, { kind: 'call', name, arguments: params.arguments, gated: decision });
    rememberProgress(req);
    await toUpstream(req);
  }

  function rememberProgress(req: JSONRPCRequest): void {
    const token = (req.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
    if (typeof token === 'string' || typeof token === 'number') progressOf.set(token, req.id);
  }

  function forgetProgress(id: RequestId): void {
    for (const [token, of] of progressOf) if (of === id) progressOf.delete(token);
  }

  async function filterList(id: RequestId, message: JSONRPCMessage & { result: Record<string, unknown> }) {
    const scope = await (scopes.get(id) ?? gate.allowedTools());
    scopes.delete(id);
    const tools = Array.isArray(message.result.tools) ? (message.result.tools as Array<{ name?: unknown }>) : [];
    let kept = tools;
    if (scope.filter) kept = tools.filter((t) => typeof t.name === 'string' && scope.filter!(t.name));
    // Fail closed: with the service unreachable every call would be refused, so none is offered.
    else if (scope.unreachable && gate.onUnreachable === 'deny') kept = [];
    await toCaller({ ...message, result: { ...message.result, tools: kept } } as JSONRPCMessage);
  }

  caller.onclose = () => void close();
  upstream.onclose = () => void close();
  caller.onerror = (err) => onError?.(err);
  upstream.onerror = (err) => onError?.(err);

  await upstream.start();
  await caller.start();
  return { closed, close };
}
