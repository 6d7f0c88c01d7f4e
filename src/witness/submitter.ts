import { Poller } from '../core/index.ts';
import type { Db, Queryable } from '../db/index.ts';
import {
  type AppendEntryInTx,
  type CheckpointWitnessing,
  LEAF_VERSION,
  type LogReader,
  type StoredCheckpoint,
} from '../ledger/index.ts';
import { verifyCosignatures, type WitnessConfig } from './cosignature.ts';
import { formatAddCheckpoint, parseSizeBody } from './protocol.ts';

const REQUEST_TIMEOUT_MS = 5_000;
/** 409 answers followed in one try: a witness ahead of our record tells its size once. */
const MAX_CONFLICTS = 3;

export interface SubmitterOptions {
  pollMs?: number;
  retryMaxSeconds: number;
  onError?: (err: unknown, context: { tenantId: string; witness?: string }) => void;
}

/** Why a witness did not cosign, as the `witness_failed` entry says it. */
export type WitnessFailure = 'unreachable' | 'refused' | 'conflict' | 'no_cosignature';

export const witnessId = (w: WitnessConfig): string => `${w.key.name}+${w.key.keyId.toString(16).padStart(8, '0')}`;

/** Also the ledger's CheckpointWitnessing port: the ledger asks it for cosignatures and tells it of new checkpoints. */
export class WitnessSubmitter implements CheckpointWitnessing {
  readonly #db: Db;
  readonly #logs: LogReader;
  readonly #witnesses: readonly WitnessConfig[];
  readonly #opts: Required<Omit<SubmitterOptions, 'onError'>> & Pick<SubmitterOptions, 'onError'>;
  readonly #poller: Poller;
  #appendInTx: AppendEntryInTx | undefined;

  constructor(db: Db, logs: LogReader, witnesses: readonly WitnessConfig[], opts: SubmitterOptions) {
    this.#db = db;
    this.#logs = logs;
    this.#witnesses = witnesses;
    this.#opts = { pollMs: 1_000, ...opts };
    this.#poller = new Poller({
      round: () => this.#tick(),
      pollMs: this.#opts.pollMs,
      pokeDelayMs: 50, // after the signing transaction has committed
      onError: (err) => this.#opts.onError?.(err, { tenantId: '' }),
    });
  }

  /**
   * Where a witness's failure is recorded: a `witness_failed` entry in the
   * workspace's log, once per failing episode of a witness (the first failure
   * after it cosigned, or its first submission), so destinations hear of it.
   * Set once the ledger exists (the ledger is built with this submitter).
   */
  recordFailuresWith(appendInTx: AppendEntryInTx): void {
    this.#appendInTx = appendInTx;
  }

  /** Queues a log inside the transaction that signed its checkpoint. */
  async queue(tx: Queryable, tenantId: string): Promise<void> {
    if (this.#witnesses.length === 0) return;
    await tx.query(
      `INSERT INTO witness_queue (tenant_id) VALUES ($1)
       ON CONFLICT (tenant_id) DO UPDATE SET seq = witness_queue.seq + 1, due_at = now(), attempts = 0`,
      [tenantId],
    );
  }

  /** A checkpoint was signed in `tx`: queue the log, and look once that transaction has committed. */
  async signed(tx: Queryable, tenantId: string): Promise<void> {
    await this.queue(tx, tenantId);
    this.poke();
  }

  start(): void {
    if (this.#witnesses.length === 0) return;
    this.#poller.start();
  }

  /** A checkpoint was just signed here: look now rather than at the next poll. */
  poke(): void {
    this.#poller.poke();
  }

  stop(): Promise<void> {
    return this.#poller.stop();
  }

  /** Runs until no queued log is due; for tests. */
  drain(): Promise<void> {
    return this.#poller.drain();
  }

  /** Takes due logs, submits their latest checkpoint; returns how many logs it took. */
  async #tick(): Promise<number> {
    // A lease: the row is pushed into the future while this node works on it.
    const due = await this.#db.query<{ tenant_id: string; seq: string; attempts: number }>(
      `UPDATE witness_queue SET due_at = now() + interval '1 minute', attempts = attempts + 1
       WHERE tenant_id IN (SELECT tenant_id FROM witness_queue WHERE due_at <= now() ORDER BY due_at LIMIT 16 FOR UPDATE SKIP LOCKED)
       RETURNING tenant_id, seq, attempts`,
    );
    await Promise.all(due.map((row) => this.#settle(row.tenant_id, row.seq, row.attempts)));
    return due.length;
  }

  async #settle(tenantId: string, seq: string, attempts: number): Promise<void> {
    let done = false;
    try {
      done = await this.submitLatest(tenantId);
    } catch (err) {
      this.#opts.onError?.(err, { tenantId });
    }
    if (done) {
      // Unless a newer checkpoint queued the log again meanwhile.
      await this.#db.query('DELETE FROM witness_queue WHERE tenant_id = $1 AND seq = $2', [tenantId, seq]);
    } else {
      const delay = Math.min(this.#opts.retryMaxSeconds, 2 ** Math.min(attempts - 1, 20));
      await this.#db.query(
        `UPDATE witness_queue SET due_at = now() + ($2::int * interval '1 second') WHERE tenant_id = $1 AND seq = $3`,
        [tenantId, delay, seq],
      );
    }
  }

  /** Brings every witness to the log's latest checkpoint; true when all of them cosigned it. */
  async submitLatest(tenantId: string): Promise<boolean> {
    const cp = await this.#logs.latest(tenantId);
    if (cp === null) return true;
    const results = await Promise.all(this.#witnesses.map((w) => this.#catchUp(tenantId, w, cp)));
    return results.every(Boolean);
  }

  /** Submits one checkpoint (a report's) to every witness; gives up waiting after the request timeout. */
  async submitNow(tenantId: string, cp: StoredCheckpoint): Promise<void> {
    if (this.#witnesses.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, REQUEST_TIMEOUT_MS);
    });
    const all = Promise.all(
      this.#witnesses.map((w) =>
        this.#catchUp(tenantId, w, cp).catch((err) => this.#opts.onError?.(err, { tenantId })),
      ),
    );
    await Promise.race([all, timeout]);
    clearTimeout(timer);
  }

  async #catchUp(tenantId: string, w: WitnessConfig, cp: StoredCheckpoint): Promise<boolean> {
    const id = witnessId(w);
    const { known, have } = await this.#db.withTenant(tenantId, async (tx) => {
      const [state] = await tx.query<{ size: string }>(
        'SELECT size FROM witness_states WHERE tenant_id = $1 AND witness = $2',
        [tenantId, id],
      );
      const [line] = await tx.query(
        'SELECT 1 FROM checkpoint_cosignatures WHERE tenant_id = $1 AND size = $2 AND witness = $3',
        [tenantId, cp.size, id],
      );
      return { known: state ? Number(state.size) : 0, have: line !== undefined };
    });
    if (have) return true;
    let old = known;
    for (let conflicts = 0; conflicts <= MAX_CONFLICTS; conflicts++) {
      if (old > cp.size) {
        // The witness holds a bigger tree of this log than we have signed: it
        // will never cosign ours. Only a rewritten log does that; say so.
        await this.#recordState(
          tenantId,
          id,
          old,
          `witness holds size ${old}, larger than the checkpoint ${cp.size} we submit`,
          { reason: 'conflict', size: cp.size },
        );
        return false;
      }
      const proof = await this.#logs.consistencyProof(tenantId, old, cp.size);
      let res: Response;
      let body: string;
      try {
        res = await fetch(`${w.url}/add-checkpoint`, {
          method: 'POST',
          body: formatAddCheckpoint({ oldSize: old, proof, checkpoint: cp.note }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        body = await res.text();
      } catch (err) {
        await this.#recordState(tenantId, id, old, `unreachable: ${(err as Error).message}`, {
          reason: 'unreachable',
          size: cp.size,
        });
        return false;
      }
      if (res.status === 409) {
        const size = parseSizeBody(body);
        if (size === undefined || size === old) {
          // Same size, different root: the witness saw another tree of that size.
          await this.#recordState(tenantId, id, old, `409 at size ${old}: the witness holds a different tree`, {
            reason: 'conflict',
            size: cp.size,
            status: 409,
          });
          return false;
        }
        old = size;
        continue;
      }
      if (res.status !== 200) {
        await this.#recordState(tenantId, id, old, `HTTP ${res.status}: ${body.slice(0, 200)}`, {
          reason: 'refused',
          size: cp.size,
          status: res.status,
        });
        return false;
      }
      const mine = verifyCosignatures(cp.note + body, [w.key]);
      if (mine.length === 0) {
        await this.#recordState(tenantId, id, old, 'the answer holds no cosignature by this witness key', {
          reason: 'no_cosignature',
          size: cp.size,
        });
        return false;
      }
      await this.#db.withTenant(tenantId, async (tx) => {
        await tx.query(
          `INSERT INTO checkpoint_cosignatures (tenant_id, size, witness, line, cosigned_at) VALUES ($1, $2, $3, $4, to_timestamp($5))
           ON CONFLICT (tenant_id, size, witness) DO NOTHING`,
          [tenantId, cp.size, id, mine[0]!.line, mine[0]!.time],
        );
        await this.#upsertState(tx, tenantId, id, cp.size, null);
      });
      return true;
    }
    await this.#recordState(tenantId, id, old, 'too many conflicts', { reason: 'conflict', size: cp.size });
    return false;
  }

  async #recordState(
    tenantId: string,
    id: string,
    size: number,
    error: string,
    failure: { reason: WitnessFailure; size: number; status?: number },
  ): Promise<void> {
    this.#opts.onError?.(new Error(error), { tenantId, witness: id });
    await this.#db.withTenant(tenantId, async (tx) => {
      // The witness was cosigning (or is new): a failing episode starts, and the log says so once.
      const [before] = await tx.query<{ last_error: string | null }>(
        'SELECT last_error FROM witness_states WHERE tenant_id = $1 AND witness = $2 FOR UPDATE',
        [tenantId, id],
      );
      await this.#upsertState(tx, tenantId, id, size, error);
      if ((before === undefined || before.last_error === null) && this.#appendInTx) {
        await this.#appendInTx(tx, tenantId, {
          v: LEAF_VERSION,
          kind: 'witness_failed',
          witness: id,
          checkpoint_size: failure.size,
          reason: failure.reason,
          ...(failure.status === undefined ? {} : { http_status: failure.status }),
        });
      }
    });
  }

  async #upsertState(tx: Queryable, tenantId: string, id: string, size: number, error: string | null): Promise<void> {
    await tx.query(
      `INSERT INTO witness_states (tenant_id, witness, size, last_error) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, witness) DO UPDATE SET size = EXCLUDED.size, last_error = EXCLUDED.last_error, updated_at = now()`,
      [tenantId, id, size, error],
    );
  }

  /**
   * Which of these sizes a witness answer is stored for: a cosignature line
   * (served with that checkpoint), or the size a witness last holds (the next
   * submission's old size). Checkpoint pruning keeps those checkpoints.
   */
  async referencedSizes(tx: Queryable, tenantId: string, sizes: readonly number[]): Promise<number[]> {
    if (sizes.length === 0) return [];
    const rows = await tx.query<{ size: number }>(
      `SELECT size FROM checkpoint_cosignatures WHERE tenant_id = $1 AND size = ANY($2::bigint[])
       UNION SELECT size FROM witness_states WHERE tenant_id = $1 AND size = ANY($2::bigint[])`,
      [tenantId, sizes],
    );
    return rows.map((r) => Number(r.size));
  }

  /** Cosignature lines for the checkpoint of this size, in witness order. */
  async cosignatures(tenantId: string, size: number): Promise<string[]> {
    if (this.#witnesses.length === 0) return [];
    const rows = await this.#db.withTenant(tenantId, (tx) =>
      tx.query<{ witness: string; line: string }>(
        'SELECT witness, line FROM checkpoint_cosignatures WHERE tenant_id = $1 AND size = $2',
        [tenantId, size],
      ),
    );
    const order = this.#witnesses.map(witnessId);
    return rows
      .filter((r) => order.includes(r.witness))
      .sort((a, b) => order.indexOf(a.witness) - order.indexOf(b.witness))
      .map((r) => r.line);
  }
}
