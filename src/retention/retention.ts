import type { Queryable } from '../db/index.ts';
import { type AppContext, Poller } from '../core/index.ts';
import {
  type ContentSelector,
  APPROVAL_NOTES,
  eraseText,
  eraseInvocationContent,
  forgetMetadataSalts,
} from '../ingest/index.ts';
import { commitment, encodeLeaf, type LogEntry, newSalt } from '../ledger/index.ts';
import { JUDGE_RATIONALES } from '../judges/index.ts';
import { eraseSpanTexts } from '../otlp/index.ts';
import { REVIEW_NOTES } from '../review/index.ts';

/** Six months: the least log retention the EU AI Act asks of deployers of high-risk systems (Art. 19, 26(6)). */
export const MIN_CONTENT_DAYS = 183;
export const DEFAULT_CONTENT_DAYS = 400;
const DAY_MS = 86_400_000;
/** Fields erased per transaction by the sweep: bounded transactions, however much is due. */
const SWEEP_CHUNK = 5_000;
/** Span texts redacted per transaction: each is run through the detectors (5-12 µs a text, 8 texts a span). */
const LEGACY_CHUNK = 1_000;

export interface RetentionDeps {
  ctx: AppContext;
  appendInTx(tx: Queryable, tenantId: string, entries: LogEntry[], time: Date): Promise<number[]>;
  /** Every workspace id (accounts). */
  tenants(): Promise<string[]>;
  /**
   * Redacts at most `limit` OTLP span texts stored before they were stored
   * redacted (otlp's redactLegacyTexts); the sweep runs it until none is left.
   */
  redactLegacySpanTexts?(tx: Queryable, tenantId: string, limit: number): Promise<number>;
}

export interface ErasureRequest {
  principalId?: string;
  agentKey?: string;
  from?: Date;
  to?: Date;
}

export interface ErasureRecord {
  erasure_id: string;
  requested_by: string;
  requested_at: Date;
  selects: string[];
  period: { from: Date | null; to: Date | null } | null;
  counts: { invocations: number; fields: number; review_notes: number };
  evidence_id: number;
}

/**
 * The workspace's content retention in days as an SQL expression (`tenant`: a
 * uuid SQL expression): for a statement of another module's that reads it
 * with its own rows (attaching a tool's result reads it in the round trip
 * that takes the log's lock).
 */
export function contentDaysSql(tenant: string): string {
  return `coalesce((SELECT content_days FROM retention_settings WHERE tenant_id = ${tenant}), ${DEFAULT_CONTENT_DAYS})`;
}

export async function contentDays(tx: Queryable, tenantId: string): Promise<number> {
  const [row] = await tx.query<{ content_days: number }>(`SELECT ${contentDaysSql('$1')} AS content_days`, [tenantId]);
  return row!.content_days;
}

export async function setContentDays(deps: RetentionDeps, tenantId: string, days: number, by: string): Promise<void> {
  const now = deps.ctx.now();
  await deps.ctx.db.withTenant(tenantId, async (tx) => {
    await tx.query(
      `INSERT INTO retention_settings (tenant_id, content_days) VALUES ($1, $2)
       ON CONFLICT (tenant_id) DO UPDATE SET content_days = EXCLUDED.content_days, updated_at = now()`,
      [tenantId, days],
    );
    // Auditors can see when content started to be deleted sooner.
    await deps.appendInTx(tx, tenantId, [{ kind: 'retention_change', content_days: days, by_account_id: by }], now);
  });
}

/**
 * Erases everything stored about the selected invocations — texts, their
 * salts, sealed outputs, finding positions, review notes, approval notes,
 * judges' rationales, OTLP span texts and the salts of the metadata commitments — in one transaction with its `erasure` leaf: who asked, a commitment to the selector (its salt
 * is never stored, so the leaf cannot be used to confirm a guessed person),
 * the period and the counts.
 */
export async function erase(
  deps: RetentionDeps,
  tenantId: string,
  req: ErasureRequest,
  by: string,
): Promise<ErasureRecord> {
  const now = deps.ctx.now();
  const sel: ContentSelector = req;
  const selects = [
    ...(req.principalId !== undefined ? ['principal_id'] : []),
    ...(req.agentKey !== undefined ? ['agent_key'] : []),
    ...(req.from !== undefined || req.to !== undefined ? ['period'] : []),
  ];
  const period = req.from !== undefined || req.to !== undefined ? { from: req.from ?? null, to: req.to ?? null } : null;
  const selectorText = encodeLeaf({
    principal_id: req.principalId ?? null,
    agent_key: req.agentKey ?? null,
    from: req.from?.toISOString() ?? null,
    to: req.to?.toISOString() ?? null,
  });
  return deps.ctx.db.withTenant(tenantId, async (tx) => {
    let fields = 0;
    const invocations = new Set<number>();
    for (let after = 0; ;) {
      const chunk = await eraseInvocationContent(tx, tenantId, sel, now, SWEEP_CHUNK, after);
      fields += chunk.fields;
      for (const id of chunk.invocationIds) invocations.add(id);
      if (chunk.fields < SWEEP_CHUNK) break;
      after = Math.max(...chunk.invocationIds);
    }
    await forgetMetadataSalts(tx, tenantId, sel);
    let notes = 0;
    for (;;) {
      const n = await eraseText(tx, tenantId, REVIEW_NOTES, sel, now, SWEEP_CHUNK);
      notes += n;
      if (n < SWEEP_CHUNK) break;
    }
    // The judges' rationales were written from the erased content, and OTLP span texts are content
    // (neither counted: the record's counts are fixed).
    for (;;) {
      if ((await eraseText(tx, tenantId, JUDGE_RATIONALES, sel, now, SWEEP_CHUNK)) < SWEEP_CHUNK) break;
    }
    for (;;) {
      if ((await eraseSpanTexts(tx, tenantId, sel, now, SWEEP_CHUNK)) < SWEEP_CHUNK) break;
    }
    // What a person wrote when deciding a held call (its review item's copy went with the review notes).
    for (;;) {
      if ((await eraseText(tx, tenantId, APPROVAL_NOTES, sel, now, SWEEP_CHUNK)) < SWEEP_CHUNK) break;
    }
    const counts = { invocations: invocations.size, fields, review_notes: notes };
    const [index] = await deps.appendInTx(
      tx,
      tenantId,
      [
        {
          kind: 'erasure',
          by_account_id: by,
          selector: commitment(newSalt(), selectorText),
          selects,
          period: period && { from: period.from?.toISOString() ?? null, to: period.to?.toISOString() ?? null },
          counts,
        },
      ],
      now,
    );
    const [row] = await tx.query<{ erasure_id: string }>(
      `INSERT INTO erasures (tenant_id, requested_by, requested_at, selects, period_from, period_to, invocations, fields, review_notes, log_index)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING erasure_id`,
      [tenantId, by, now, selects, period?.from ?? null, period?.to ?? null, counts.invocations, fields, notes, index],
    );
    return {
      erasure_id: row!.erasure_id,
      requested_by: by,
      requested_at: now,
      selects,
      period,
      counts,
      evidence_id: index! + 1,
    };
  });
}

export async function listErasures(tx: Queryable, tenantId: string): Promise<ErasureRecord[]> {
  const rows = await tx.query<{
    erasure_id: string;
    requested_by: string;
    requested_at: Date;
    selects: string[];
    period_from: Date | null;
    period_to: Date | null;
    invocations: number;
    fields: number;
    review_notes: number;
    log_index: string | number;
  }>('SELECT * FROM erasures WHERE tenant_id = $1 ORDER BY requested_at DESC, erasure_id LIMIT 1000', [tenantId]);
  return rows.map((r) => ({
    erasure_id: r.erasure_id,
    requested_by: r.requested_by,
    requested_at: r.requested_at,
    selects: r.selects,
    period: r.period_from === null && r.period_to === null ? null : { from: r.period_from, to: r.period_to },
    counts: { invocations: r.invocations, fields: r.fields, review_notes: r.review_notes },
    evidence_id: Number(r.log_index) + 1,
  }));
}

/**
 * Deletes each workspace's content older than its retention, in bounded
 * transactions. Idempotent and restartable: what is due is read from the
 * tables each time, so a crash or a missed run only delays the deletion to
 * the next run, and two nodes sweeping together skip each other's workspace
 * (a transaction-scoped advisory lock).
 */
export class RetentionSweeper {
  readonly #deps: RetentionDeps;
  readonly #poller: Poller;
  #stopped = false;

  constructor(deps: RetentionDeps, opts: { intervalMs?: number } = {}) {
    this.#deps = deps;
    // A sweep is one round however much it erased: the next one is an interval later.
    this.#poller = new Poller({
      round: () => this.sweepAll().then(() => 0),
      pollMs: opts.intervalMs ?? 3_600_000,
      onError: (err) => console.error('retention sweep failed', err),
    });
  }

  start(): void {
    this.#poller.start(10_000);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#poller.stop();
  }

  /** One pass over every workspace; returns what was erased. */
  async sweepAll(): Promise<{ fields: number; reviewNotes: number }> {
    let fields = 0;
    let reviewNotes = 0;
    for (const tenantId of await this.#deps.tenants()) {
      if (this.#stopped) break;
      const r = await this.sweep(tenantId);
      fields += r.fields;
      reviewNotes += r.reviewNotes;
    }
    return { fields, reviewNotes };
  }

  async sweep(tenantId: string): Promise<{ fields: number; reviewNotes: number }> {
    const now = this.#deps.ctx.now();
    let fields = 0;
    let reviewNotes = 0;
    // The texts are erased in the order of their invocations' ids: each chunk goes on from the last one's.
    let after = 0;
    for (;;) {
      const r = await this.#deps.ctx.db.withTenant(tenantId, async (tx) => {
        const [lock] = await tx.query<{ ok: boolean }>(
          `SELECT pg_try_advisory_xact_lock(hashtext('retention:' || $1)) AS ok`,
          [tenantId],
        );
        if (!lock?.ok) return null; // another node is sweeping this workspace
        const cutoff = new Date(now.getTime() - (await contentDays(tx, tenantId)) * DAY_MS);
        // Texts of invocations before the mark are erased already: only those since are read.
        const [mark] = await tx.query<{ at: Date }>(
          'SELECT content_swept_before AS at FROM retention_sweeps WHERE tenant_id = $1',
          [tenantId],
        );
        const from = mark === undefined ? undefined : new Date(mark.at);
        const due: ContentSelector = from === undefined ? { to: cutoff } : { from, to: cutoff };
        const c =
          from !== undefined && from >= cutoff
            ? { fields: 0 }
            : await eraseInvocationContent(tx, tenantId, due, now, SWEEP_CHUNK, after);
        const n =
          c.fields < SWEEP_CHUNK
            ? await eraseText(tx, tenantId, REVIEW_NOTES, { before: cutoff, since: from }, now, SWEEP_CHUNK)
            : 0;
        const j =
          c.fields < SWEEP_CHUNK && n < SWEEP_CHUNK
            ? await eraseText(tx, tenantId, JUDGE_RATIONALES, { before: cutoff, since: from }, now, SWEEP_CHUNK)
            : 0;
        // OTLP span texts expire with the invocation's content: by the invocation's time.
        const s =
          c.fields < SWEEP_CHUNK && n < SWEEP_CHUNK && j < SWEEP_CHUNK
            ? await eraseSpanTexts(tx, tenantId, due, now, SWEEP_CHUNK)
            : 0;
        // Approval notes expire like review notes: by the decision's time.
        const a =
          c.fields < SWEEP_CHUNK && n < SWEEP_CHUNK && j < SWEEP_CHUNK && s < SWEEP_CHUNK
            ? await eraseText(tx, tenantId, APPROVAL_NOTES, { before: cutoff, since: from }, now, SWEEP_CHUNK)
            : 0;
        // Then what is left of span texts stored before they were stored redacted.
        const legacy =
          c.fields < SWEEP_CHUNK && n < SWEEP_CHUNK && j < SWEEP_CHUNK && s < SWEEP_CHUNK && a < SWEEP_CHUNK
            ? ((await this.#deps.redactLegacySpanTexts?.(tx, tenantId, LEGACY_CHUNK)) ?? 0)
            : 0;
        // Every text before the cutoff is erased now: the next sweep starts there (the notes' and rationales' own
        // times too: each is written at its time, long after the mark).
        if (c.fields < SWEEP_CHUNK && s < SWEEP_CHUNK && n < SWEEP_CHUNK && j < SWEEP_CHUNK && a < SWEEP_CHUNK)
          await tx.query(
            `INSERT INTO retention_sweeps (tenant_id, content_swept_before) VALUES ($1, $2)
             ON CONFLICT (tenant_id) DO UPDATE
               SET content_swept_before = greatest(retention_sweeps.content_swept_before, EXCLUDED.content_swept_before)`,
            [tenantId, cutoff.toISOString()],
          );
        return {
          fields: c.fields,
          last: 'invocationIds' in c ? Math.max(...c.invocationIds) : 0,
          notes: n,
          rationales: j,
          spans: s,
          approvals: a,
          legacy,
        };
      });
      if (r === null) break;
      if (r.fields === SWEEP_CHUNK) after = r.last;
      fields += r.fields;
      reviewNotes += r.notes;
      const more =
        r.fields === SWEEP_CHUNK ||
        r.notes === SWEEP_CHUNK ||
        r.rationales === SWEEP_CHUNK ||
        r.spans === SWEEP_CHUNK ||
        r.approvals === SWEEP_CHUNK ||
        r.legacy === LEGACY_CHUNK;
      if (!more) break;
    }
    return { fields, reviewNotes };
  }
}
