import { randomUUID } from 'node:crypto';
import { Poller } from '../core/index.ts';
import type { Db, Queryable } from '../db/index.ts';
import type { Mailer } from '../mail/index.ts';
import {
  type AppendEntryInTx,
  encodeBase64,
  LEAF_VERSION,
  latestCheckpoint,
  readEntries,
  readHead,
} from '../ledger/index.ts';
import { retryDelayMs, GIVE_UP_MS, FAILING_AFTER_MS } from './backoff.ts';
import { clearFields, eventIdOf, eventTypeOf, passes, plainJson, type Subject, wants } from './events.ts';
import type { DeliveryOutcome, DestinationTarget, Evidence, KindSender, OutboundEvent } from './kind.ts';
import { clearUrl, open, seal } from './secret-box.ts';
import {
  type Attempt,
  type DestinationRow,
  findDestination,
  pruneAttempts,
  recordAttempts,
  sealLegacyUrls,
  tenantsWithDestinations,
} from './store.ts';

// The delivery engine: a background worker on every node. For each
// destination that is due it reads the workspace's audit trail after the
// destination's cursor, makes the events the destination asked for, hands
// them to the kind's sender in log order, and moves the cursor past them only
// once the receiver took them. So delivery is at least once, in order, with
// the same event id on every retry, and survives restarts (the cursor is in
// the database). A lease on the cursor's row keeps two nodes from sending to
// one destination at once. Ingest never waits on it: the worker only reads
// what ingest committed.
//
// The bookkeeping after a send (the cursor, the delivery log, the lease let
// go) is written once per chunk, with synchronous_commit off: a commit whose
// WAL flush waits costs a shared machine's disk 5-20 ms, several times a
// pass, which bounded delivery far below ingest's batch rate. What a database
// crash can lose of those writes is the last moments' cursor moves: those
// events are sent again, with the same ids, which at-least-once allows. The
// lease is taken with a flushed commit, so two nodes never hold one
// destination at once.

/** Entries read from a destination's cursor at a time (a chunk). */
export const READ_MAX = 1_000;

/** How long one lease of a destination goes on sending chunks before it lets the others on the node have a turn. */
const PASS_MS = 5_000;

/** The bookkeeping's commits do not wait for the WAL flush (see above); the first statement of their transaction. */
const UNFLUSHED = 'SET LOCAL synchronous_commit = off';

/** Destinations one node sends to at once (one slow receiver must not hold up the others). */
const CONCURRENCY = 8;

/** What the read side shows of the invocations and rogue events that entries name (review module). */
/** An invocation an event shows: its id, and its row's time when the entry is the invocation's own. */
export interface InvocationRef {
  id: number;
  recordedAt?: string;
}

export interface EventViews {
  invocations(
    tx: Queryable,
    tenantId: string,
    refs: readonly InvocationRef[],
  ): Promise<Map<number, Record<string, unknown>>>;
  rogueAt(
    tx: Queryable,
    tenantId: string,
    indexes: readonly number[],
    from: string,
    to: string,
  ): Promise<Map<number, Record<string, unknown>>>;
}

export interface DeliveryDeps {
  db: Db;
  kek: Uint8Array;
  senders: ReadonlyMap<string, KindSender>;
  views: EventViews;
  /** The origin of a workspace's log (its checkpoints' first line). */
  origin(tenantId: string): string;
  appendInTx: AppendEntryInTx;
  now: () => Date;
  privateNetworks: 'allow' | 'deny';
  consoleUrl?: string | undefined;
  pollMs: number;
  retryBaseMs: number;
  /** How long a node holds a destination it is sending to; another may take it after. */
  leaseMs?: number;
  /**
   * Whose leases this worker's are (random when absent). A delivery thread started again after it died
   * is given its predecessor's, so it takes back what that one held instead of waiting out the leases.
   */
  owner?: string;
  onError?: (err: unknown, where?: { tenantId: string; destinationId: string }) => void;
  /** The service's mailer and who administers a workspace: a destination becoming failing e-mails its admins. */
  mailer?: Pick<Mailer, 'send'>;
  adminEmails?: (tenantId: string) => Promise<string[]>;
}

interface Due {
  tenant_id: string;
  destination_id: string;
  next_index: number;
}

/** A chunk read from the log: the destination as read (next_index: the chunk's start), the end of the entries read, their events. */
interface Chunk {
  d: DestinationRow;
  end: number;
  made: Made[];
}

/** A pass's bookkeeping, written in order behind its sends. */
interface Books {
  /** Queues a cursor write; one answering false (the lease was lost) ends the pass. */
  book(step: () => Promise<boolean>): void;
  /** Once every write queued is done: whether the lease is still held. */
  settled(): Promise<boolean>;
}

/** An event made from the entry at `index`, with what a filter needs. */
export interface Made {
  index: number;
  event: OutboundEvent;
}

/** The sender's view of a destination: its secrets opened for this send only. */
export function targetOf(deps: Pick<DeliveryDeps, 'kek' | 'privateNetworks' | 'consoleUrl'>, d: DestinationRow) {
  const url = clearUrl(deps.kek, d);
  const target: DestinationTarget = {
    destinationId: d.destination_id,
    tenantId: d.tenant_id,
    name: d.name,
    kind: d.kind,
    url,
    format: d.format,
    signing: d.signing,
    secret: open(deps.kek, d.tenant_id, d.destination_id, 'secret', url, d.secret_sealed),
    privateNetworks: deps.privateNetworks,
  };
  if (d.token_sealed !== null)
    target.token = open(deps.kek, d.tenant_id, d.destination_id, 'token', url, d.token_sealed);
  if (deps.consoleUrl) target.consoleUrl = deps.consoleUrl;
  return target;
}

/**
 * The events the entries make for one destination, in log order: the types
 * it asked for, through its filter, with their data as the read side shows it.
 */
export async function makeEvents(
  tx: Queryable,
  deps: Pick<DeliveryDeps, 'views' | 'origin'>,
  d: Pick<DestinationRow, 'tenant_id' | 'destination_id' | 'events' | 'filter'>,
  entries: readonly { index: number; leaf: string; leafHash: Uint8Array }[],
  checkpoint: { size: number; note: string } | null,
): Promise<Made[]> {
  const tenantId = d.tenant_id;
  const origin = deps.origin(tenantId);
  const picked: { index: number; leafHash: Uint8Array; leaf: Record<string, unknown>; type: string }[] = [];
  for (const e of entries) {
    const leaf = JSON.parse(e.leaf) as Record<string, unknown>;
    const type = eventTypeOf(leaf);
    if (type === null || !wants(d.events, type)) continue;
    // A destination that is failing is not told so itself.
    if (type === 'destination.failing' && leaf.destination_id === d.destination_id) continue;
    picked.push({ index: e.index, leafHash: e.leafHash, leaf, type });
  }
  // An invocation's own entry carries the time its row was recorded with (the partition key): it is read by it.
  const invocationRefs = new Map<number, InvocationRef>();
  for (const p of picked) {
    if (p.leaf.kind === 'rogue' || typeof p.leaf.invocation_id !== 'number') continue;
    const id = p.leaf.invocation_id;
    if (p.leaf.kind === 'invocation') invocationRefs.set(id, { id, recordedAt: String(p.leaf.time) });
    else if (!invocationRefs.has(id)) invocationRefs.set(id, { id });
  }
  const rogue = picked.filter((p) => p.leaf.kind === 'rogue');
  const invocations = await deps.views.invocations(tx, tenantId, [...invocationRefs.values()]);
  const rogues =
    rogue.length === 0
      ? new Map<number, Record<string, unknown>>()
      : await deps.views.rogueAt(
          tx,
          tenantId,
          rogue.map((p) => p.index),
          String(rogue[0]!.leaf.time),
          String(rogue.at(-1)!.leaf.time),
        );
  const out: Made[] = [];
  for (const p of picked) {
    let data: Record<string, unknown>;
    let subject: Subject | null = null;
    let occurredAt = String(p.leaf.time);
    if (p.leaf.kind === 'invocation') {
      const inv = invocations.get(p.leaf.invocation_id as number);
      // Erased or not visible (it cannot be: the row commits with its leaf): nothing to show but the leaf.
      data = inv ?? clearFields(p.leaf);
      if (inv) {
        subject = { agent: inv.agent_key as string, tool: inv.tool_name as string | null, mode: inv.mode as string };
        occurredAt = new Date(inv.occurred_at as Date).toISOString();
      } else subject = {};
    } else if (p.leaf.kind === 'rogue') {
      const r = rogues.get(p.index);
      data = r ?? clearFields(p.leaf);
      subject = r ? { agent: r.agent_key as string, tool: r.tool as string | null } : {};
    } else {
      data = clearFields(p.leaf);
      if (typeof p.leaf.invocation_id === 'number') {
        const inv = invocations.get(p.leaf.invocation_id);
        if (inv) data.invocation = inv;
        subject = inv
          ? { agent: inv.agent_key as string, tool: inv.tool_name as string | null, mode: inv.mode as string }
          : {};
      }
    }
    if (!passes(d.filter, subject)) continue;
    const evidence: Evidence = { log_origin: origin, index: p.index, leaf_hash: encodeBase64(p.leafHash) };
    if (checkpoint && checkpoint.size > p.index) evidence.checkpoint = checkpoint.note;
    out.push({
      index: p.index,
      event: {
        id: eventIdOf(origin, p.index),
        type: p.type,
        tenant_id: tenantId,
        occurred_at: occurredAt,
        recorded_at: String(p.leaf.time),
        data: plainJson(data) as Record<string, unknown>,
        evidence,
      },
    });
  }
  return out;
}

export class DeliveryWorker {
  readonly #deps: DeliveryDeps;
  readonly #leaseMs: number;
  readonly #owner: string;
  #poller: Poller | undefined;
  #abort = new AbortController();

  constructor(deps: DeliveryDeps) {
    this.#deps = deps;
    this.#leaseMs = deps.leaseMs ?? 120_000;
    this.#owner = deps.owner ?? randomUUID();
  }

  /**
   * Lets go every lease held under this worker's owner: only for a worker that takes over from one that
   * ended (a delivery thread that died), so none of those leases has a send behind it any more. Their
   * destinations are due again at once, their cursors where the dead one's last bookkeeping left them.
   */
  async releaseOwnLeases(): Promise<number> {
    const rows = await this.#deps.db.query(
      `UPDATE destination_cursors SET locked_until = NULL, lease_owner = NULL WHERE lease_owner = $1 RETURNING 1`,
      [this.#owner],
    );
    return rows.length;
  }

  /** Starts delivering; a worker stopped may be started again. */
  start(): void {
    // Rows written before URLs were sealed are sealed now; until then they are read as they are.
    void this.sealLegacyUrls().catch((err) => this.#deps.onError?.(err));
    this.#poller = new Poller({
      round: () => this.tick(),
      pollMs: this.#deps.pollMs,
      onError: (err) => this.#deps.onError?.(err),
    });
    this.#poller.start();
  }

  /** Seals the URLs stored in clear by rows written before migration 0170; returns how many. */
  async sealLegacyUrls(): Promise<number> {
    const { db, kek } = this.#deps;
    let n = 0;
    for (const tenantId of await tenantsWithDestinations(db)) {
      n += await db.withTenant(tenantId, (tx) =>
        sealLegacyUrls(tx, tenantId, (destinationId, url) => seal(kek, tenantId, destinationId, 'url', '', url)),
      );
    }
    return n;
  }

  async stop(): Promise<void> {
    this.#abort.abort(new Error('the delivery worker is stopping'));
    await this.#poller?.stop();
    this.#abort = new AbortController();
  }

  /** Runs passes until nothing is due; for tests. */
  async drain(): Promise<void> {
    while ((await this.tick()) > 0) {
      // keep going while some destination moved
    }
  }

  /** One pass: every due destination with entries after its cursor; returns how many were sent to. */
  async tick(): Promise<number> {
    const { db } = this.#deps;
    const due = await db.query<Due & Record<string, unknown>>(
      `SELECT tenant_id, destination_id, next_index FROM destination_cursors
       WHERE NOT paused AND state <> 'disabled' AND run_after <= now() AND (locked_until IS NULL OR locked_until < now())
       ORDER BY run_after LIMIT 1000`,
    );
    if (due.length === 0) return 0;
    // Only those with something to deliver: one read of each workspace's head, no lease taken for nothing.
    const sizes = new Map<string, number>();
    for (const t of new Set(due.map((d) => d.tenant_id))) {
      sizes.set(t, (await db.withTenant(t, (tx) => readHead(tx, t))).size);
    }
    const work = due.filter((d) => Number(d.next_index) < sizes.get(d.tenant_id)!);
    let moved = 0;
    for (let i = 0; i < work.length; i += CONCURRENCY) {
      const slice = work.slice(i, i + CONCURRENCY);
      const done = await Promise.all(
        slice.map((d) =>
          this.#deliver(d.tenant_id, d.destination_id).catch((err) => {
            this.#deps.onError?.(err, { tenantId: d.tenant_id, destinationId: d.destination_id });
            return false;
          }),
        ),
      );
      moved += done.filter(Boolean).length;
      if (this.#abort.signal.aborted) break;
    }
    return moved;
  }

  /** Takes the destination's lease; false when another node holds it or it is no longer due. */
  async #claim(tenantId: string, destinationId: string): Promise<boolean> {
    const rows = await this.#deps.db.query(
      `UPDATE destination_cursors SET locked_until = now() + ($3::int * interval '1 millisecond'), lease_owner = $4
       WHERE tenant_id = $1 AND destination_id = $2 AND NOT paused AND state <> 'disabled' AND run_after <= now()
         AND (locked_until IS NULL OR locked_until < now())
       RETURNING 1`,
      [tenantId, destinationId, this.#leaseMs, this.#owner],
    );
    return rows.length === 1;
  }

  async #release(tenantId: string, destinationId: string): Promise<void> {
    await this.#deps.db.transaction(async (tx) => {
      await tx.query(UNFLUSHED);
      await tx.query(
        `UPDATE destination_cursors SET locked_until = NULL, lease_owner = NULL
         WHERE tenant_id = $1 AND destination_id = $2 AND lease_owner = $3`,
        [tenantId, destinationId, this.#owner],
      );
    });
  }

  /** Takes the lease and sends what is after the cursor; true when the cursor moved. */
  async #deliver(tenantId: string, destinationId: string): Promise<boolean> {
    if (!(await this.#claim(tenantId, destinationId))) return false;
    try {
      return await this.#send(tenantId, destinationId);
    } finally {
      await this.#release(tenantId, destinationId);
    }
  }

  /**
   * Reads up to READ_MAX entries after the cursor (or after `from`: the end
   * of the chunk being sent, when reading ahead), up to the log's head as the
   * same transaction sees it, and makes their events.
   */
  async #read(tenantId: string, destinationId: string, from?: number): Promise<Chunk | null> {
    const deps = this.#deps;
    return deps.db.withTenant(tenantId, async (tx) => {
      const d = await findDestination(tx, tenantId, destinationId);
      if (!d) return null;
      if (from !== undefined) d.next_index = from;
      const end = Math.min((await readHead(tx, tenantId)).size, d.next_index + READ_MAX);
      const entries = await readEntries(tx, tenantId, d.next_index, end);
      const cp = await latestCheckpoint(tx, tenantId);
      const made = await makeEvents(tx, deps, d, entries, cp);
      return { d, end: entries.length > 0 ? entries.at(-1)!.index + 1 : d.next_index, made };
    });
  }

  /**
   * Sends what is after the cursor, a chunk of READ_MAX entries at a time,
   * for up to PASS_MS: the next chunk is read while one is sent, up to the
   * head as it is then (what ingest appended meanwhile goes in the same
   * pass, not after another scan and lease). True when the cursor moved.
   */
  async #send(tenantId: string, destinationId: string): Promise<boolean> {
    const first = await this.#read(tenantId, destinationId);
    if (!first) {
      // Deleted between the scan and now: its cursor row goes too (the delete removes it; this is the stray).
      await this.#deps.db.query('DELETE FROM destination_cursors WHERE tenant_id = $1 AND destination_id = $2', [
        tenantId,
        destinationId,
      ]);
      return false;
    }
    // A node died between marking it failing and the mails: they go now, before anything else.
    if (first.d.failing_mail_due) await this.#tellAdmins(first.d);
    const until = performance.now() + PASS_MS;
    let moved = false;
    let held = true;
    // Each chunk's bookkeeping runs after the one before it, while the next chunk is sent: a
    // cursor write is conditional on the cursor the one before left, and on the lease. One that
    // finds the lease gone (or fails) stops the pass before its next send.
    let booked: Promise<void> = Promise.resolve();
    const books: Books = {
      book: (step) => {
        booked = booked.then(async () => {
          if (!held) return;
          if (await step()) moved = true;
          else held = false;
        });
        booked.catch(() => {
          held = false;
        });
      },
      settled: () => booked.then(() => held),
    };
    try {
      for (let chunk: Chunk | null = first; chunk !== null && held;) {
        // A chunk that read nothing is the head: the pass ends there.
        const more: boolean =
          chunk.end > chunk.d.next_index && performance.now() < until && !this.#abort.signal.aborted;
        // A read ahead that fails is read again on the next pass, from the cursor.
        const ahead: Promise<Chunk | null> | null = more
          ? this.#read(tenantId, destinationId, chunk.end).catch(() => null)
          : null;
        const reachedEnd = await this.#sendChunk(chunk, books);
        if (!reachedEnd) {
          await ahead;
          break;
        }
        chunk = await ahead;
      }
    } finally {
      // The lease is let go after the last bookkeeping, never during it.
      await booked.catch(() => {});
    }
    await booked;
    return moved;
  }

  /**
   * Sends one chunk's events in batches, in log order, and hands its
   * bookkeeping to `books`; true when the receiver took the whole chunk.
   */
  async #sendChunk({ d, end, made }: Chunk, books: Books): Promise<boolean> {
    const deps = this.#deps;
    const start = d.next_index;
    if (made.length === 0) {
      if (start !== end) books.book(() => this.#advance(d, start, end));
      return true;
    }
    const sender = deps.senders.get(d.kind);
    if (!sender) {
      if (await books.settled())
        await this.#failed(d, made.slice(0, 1), { ok: false, error: `kind ${d.kind} is not available`, latencyMs: 0 });
      return false;
    }
    const target = targetOf(deps, d);
    const max = Math.max(1, sender.maxBatch);
    // How far the receiver took the events, and the attempts to log: written once, after the chunk's batches.
    let cursor = start;
    const attempts: Attempt[] = [];
    let failed: { batch: Made[]; outcome: DeliveryOutcome } | undefined;
    for (let i = 0; i < made.length; i += max) {
      if (this.#abort.signal.aborted) break;
      const batch = made.slice(i, i + max);
      const outcome = await sender.send(
        target,
        batch.map((m) => m.event),
        this.#abort.signal,
      );
      if (!outcome.ok) {
        if (!this.#abort.signal.aborted) failed = { batch, outcome };
        break;
      }
      // Past this batch, and past the entries that made no event up to the next batch's first.
      cursor = i + max < made.length ? made[i + max]!.index : end;
      for (const m of batch)
        attempts.push({
          eventId: m.event.id,
          eventType: m.event.type,
          logIndex: m.index,
          status: 'delivered',
          httpStatus: outcome.status ?? null,
          error: null,
          latencyMs: outcome.latencyMs,
        });
    }
    if (cursor !== start) books.book(() => this.#delivered(d, start, cursor, attempts));
    if (failed && (await books.settled())) await this.#failed(d, failed.batch, failed.outcome);
    return cursor === end;
  }

  /** Moves the cursor from `from` to `to` (no event between them for this destination). */
  async #advance(d: DestinationRow, from: number, to: number): Promise<boolean> {
    if (to === from) return false;
    const rows = await this.#deps.db.transaction(async (tx) => {
      await tx.query(UNFLUSHED);
      return tx.query(
        `UPDATE destination_cursors SET next_index = $4
         WHERE tenant_id = $1 AND destination_id = $2 AND lease_owner = $3 AND next_index = $5 RETURNING 1`,
        [d.tenant_id, d.destination_id, this.#owner, to, from],
      );
    });
    return rows.length === 1;
  }

  /** The receiver took a chunk's batches: the cursor moves, the streak of failures ends, the attempts are logged. */
  async #delivered(d: DestinationRow, from: number, to: number, attempts: Attempt[]): Promise<boolean> {
    const now = this.#deps.now();
    return this.#deps.db.withTenant(d.tenant_id, async (tx) => {
      await tx.query(UNFLUSHED);
      const rows = await tx.query(
        `UPDATE destination_cursors SET next_index = $4, failures = 0, failing_since = NULL, last_error = NULL,
           state = CASE WHEN state = 'failing' THEN 'active' ELSE state END
         WHERE tenant_id = $1 AND destination_id = $2 AND lease_owner = $3 AND next_index = $5 RETURNING 1`,
        [d.tenant_id, d.destination_id, this.#owner, to, from],
      );
      // The lease was lost (this node stalled past it): another node has the destination; log nothing, it will.
      if (rows.length !== 1) return false;
      await recordAttempts(tx, d.tenant_id, d.destination_id, attempts, now);
      await pruneAttempts(tx, d.tenant_id, d.destination_id, now);
      return true;
    });
  }

  /**
   * A send failed: the cursor stays, the next try waits (the receiver's
   * Retry-After when it gave one), 410 disables the destination, 24 h of
   * failures mark it failing (an audit-trail entry, so the workspace's other
   * destinations hear of it), 72 h disable it. Disabled, it keeps its cursor:
   * resumed, it goes on from the first event it could not deliver.
   */
  async #failed(
    d: DestinationRow,
    batch: readonly Made[],
    outcome: { ok: boolean; status?: number; retryAfterMs?: number; gone?: boolean; error?: string; latencyMs: number },
  ): Promise<void> {
    const deps = this.#deps;
    const now = deps.now();
    const since = d.failing_since ?? now;
    const failingFor = now.getTime() - new Date(since).getTime();
    const error = (outcome.error ?? (outcome.status ? `HTTP ${outcome.status}` : 'failed')).slice(0, 300);
    let disabled: string | null = null;
    if (outcome.gone) disabled = `the receiver answered 410 Gone`;
    else if (failingFor >= GIVE_UP_MS) disabled = 'failing for 72 hours';
    const delay = Math.max(retryDelayMs(d.failures + 1, deps.retryBaseMs), outcome.retryAfterMs ?? 0);
    const becomesFailing = disabled === null && d.state === 'active' && failingFor >= FAILING_AFTER_MS;
    const marked = await deps.db.withTenant(d.tenant_id, async (tx) => {
      await tx.query(UNFLUSHED);
      const rows = await tx.query(
        `UPDATE destination_cursors SET failures = failures + 1, failing_since = coalesce(failing_since, $4::timestamptz),
           last_error = $5, run_after = now() + ($6::bigint * interval '1 millisecond'),
           state = CASE WHEN $7::text IS NOT NULL THEN 'disabled' WHEN $8::boolean THEN 'failing' ELSE state END,
           failing_mail_due = failing_mail_due OR $8::boolean,
           disabled_reason = coalesce($7::text, disabled_reason)
         WHERE tenant_id = $1 AND destination_id = $2 AND lease_owner = $3 RETURNING 1`,
        [d.tenant_id, d.destination_id, this.#owner, since, error, Math.round(delay), disabled, becomesFailing],
      );
      if (rows.length !== 1) return false;
      await recordAttempts(
        tx,
        d.tenant_id,
        d.destination_id,
        batch.map((m) => ({
          eventId: m.event.id,
          eventType: m.event.type,
          logIndex: m.index,
          status: disabled === null ? 'retrying' : 'failed',
          httpStatus: outcome.status ?? null,
          error,
          latencyMs: outcome.latencyMs,
        })),
        now,
      );
      if (becomesFailing) {
        await deps.appendInTx(tx, d.tenant_id, {
          v: LEAF_VERSION,
          kind: 'destination_failing',
          destination_id: d.destination_id,
          destination_kind: d.kind,
          since: new Date(since).toISOString(),
        });
      }
      return becomesFailing;
    });
    if (marked) await this.#tellAdmins({ ...d, failing_since: new Date(since), last_error: error });
  }

  /**
   * E-mails the workspace's admins that a destination is failing, once per
   * failing episode: the flag set with the state is cleared once every mail
   * went out (a mail that fails leaves it, for the next attempt to send again).
   * The mail names the destination, never its URL or secrets.
   */
  async #tellAdmins(d: DestinationRow): Promise<void> {
    const { mailer, adminEmails } = this.#deps;
    try {
      if (mailer && adminEmails) {
        const to = await adminEmails(d.tenant_id);
        const mail = failingMail(d, this.#deps.consoleUrl);
        for (const address of to)
          await mailer.send({ to: address, ...mail, ref: `destination-failing:${d.destination_id}` });
      }
      await this.#deps.db.query(
        `UPDATE destination_cursors SET failing_mail_due = false
         WHERE tenant_id = $1 AND destination_id = $2 AND lease_owner = $3`,
        [d.tenant_id, d.destination_id, this.#owner],
      );
    } catch (err) {
      this.#deps.onError?.(err, { tenantId: d.tenant_id, destinationId: d.destination_id });
    }
  }
}

/** The mail to a workspace's admins when one of its destinations has been failing for 24 hours. */
export function failingMail(
  d: Pick<DestinationRow, 'destination_id' | 'name' | 'kind' | 'failing_since' | 'last_error'>,
  consoleUrl?: string,
): { subject: string; text: string } {
  const name = d.name.replace(/\s+/g, ' ').trim();
  const since = d.failing_since ? new Date(d.failing_since).toISOString() : 'unknown';
  const lines = [
    `The ${d.kind} destination "${name}" of your agent-ledger workspace has failed every delivery since ${since}.`,
    '',
    `Last error: ${d.last_error ?? 'unknown'}`,
    '',
    'Its events are kept: nothing is lost while it fails, and it goes on from the first event it could not deliver',
    'once the receiver takes events again. After 72 hours of failures it is disabled; resume it then in the console',
    '(Settings, Destinations) or with PATCH /api/v1/destinations/{id} {"paused": false}.',
    '',
    `Destination id: ${d.destination_id}`,
  ];
  if (consoleUrl) lines.push(`Open in agent-ledger: ${consoleUrl}/settings`);
  return { subject: `agent-ledger: destination "${name.slice(0, 80)}" is failing`, text: lines.join('\n') };
}
