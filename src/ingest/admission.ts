import { rateLimited } from '../core/index.ts';

export interface AdmissionOptions {
  /** Most request body bytes one workspace has in processing on this node (INGEST_WORKSPACE_BYTES). */
  maxBytes: number;
  /** Longest a request waits for its workspace's room before it is answered 429 (INGEST_WORKSPACE_WAIT_MS). */
  waitMs: number;
  /** Most requests of one workspace waiting for room; past it a request is answered 429 at once. */
  maxWaiting?: number;
}

interface Waiter {
  bytes: number;
  admit: () => void;
}

interface Room {
  /** Bytes of the requests admitted and not yet answered. */
  bytes: number;
  /** Requests admitted and not yet answered. */
  admitted: number;
  waiting: Waiter[];
}

/** Requests of one workspace waiting for room, at most (default of AdmissionOptions.maxWaiting). */
export const MAX_WAITING = 256;

/**
 * Per-workspace admission to the event endpoints on this node, before a
 * request's body is read: each workspace may have at most `maxBytes` of
 * request bodies in processing (parsed, validated, scanned, decided, written)
 * at once. A request that would pass it waits, in its workspace's own FIFO,
 * with its body unread in the socket (the client is slowed down, nothing is
 * buffered for it); one request alone is always admitted, whatever its size.
 * So one workspace's flood of 4 MiB batches holds a bounded share of the
 * node's memory and of its event loop, whatever the number of its
 * connections, and another workspace's requests never wait for its room.
 */
export class Admission {
  readonly #maxBytes: number;
  readonly #waitMs: number;
  readonly #maxWaiting: number;
  readonly #rooms = new Map<string, Room>();

  constructor(opts: AdmissionOptions) {
    this.#maxBytes = opts.maxBytes;
    this.#waitMs = opts.waitMs;
    this.#maxWaiting = opts.maxWaiting ?? MAX_WAITING;
  }

  /** Requests of a workspace waiting for room. */
  waiting(tenantId: string): number {
    return this.#rooms.get(tenantId)?.waiting.length ?? 0;
  }

  /**
   * Admits a request of `bytes` for `tenantId`, now or once the workspace has
   * room; the returned function (idempotent) gives its room back when it is
   * answered. Throws 429 rate_limited when too many of the workspace's
   * requests wait already, or when this one waited `waitMs`.
   */
  async enter(tenantId: string, bytes: number): Promise<() => void> {
    let room = this.#rooms.get(tenantId);
    if (!room) this.#rooms.set(tenantId, (room = { bytes: 0, admitted: 0, waiting: [] }));
    const r = room;
    if (r.waiting.length === 0 && (r.admitted === 0 || r.bytes + bytes <= this.#maxBytes))
      return this.#admit(tenantId, r, bytes);
    if (r.waiting.length >= this.#maxWaiting) throw busy();
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { bytes, admit: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        const at = r.waiting.indexOf(waiter);
        if (at >= 0) r.waiting.splice(at, 1);
        this.#forget(tenantId, r);
        reject(busy());
      }, this.#waitMs);
      r.waiting.push(waiter);
    });
    return this.#release(tenantId, r, bytes);
  }

  #admit(tenantId: string, r: Room, bytes: number): () => void {
    r.bytes += bytes;
    r.admitted++;
    return this.#release(tenantId, r, bytes);
  }

  #release(tenantId: string, r: Room, bytes: number): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      r.bytes -= bytes;
      r.admitted--;
      // The workspace's next requests, in order, as long as they fit (the first always does when none is left).
      while (r.waiting.length > 0) {
        const next = r.waiting[0]!;
        if (r.admitted > 0 && r.bytes + next.bytes > this.#maxBytes) break;
        r.waiting.shift();
        r.bytes += next.bytes;
        r.admitted++;
        next.admit();
      }
      this.#forget(tenantId, r);
    };
  }

  #forget(tenantId: string, r: Room): void {
    if (r.admitted === 0 && r.waiting.length === 0 && this.#rooms.get(tenantId) === r) this.#rooms.delete(tenantId);
  }
}

const busy = () =>
  rateLimited(
    1,
    'rate_limited',
    "This workspace's earlier requests are still being recorded on this node; retry shortly.",
  );
