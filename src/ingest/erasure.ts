import type { Queryable } from '../db/index.ts';

/** Which invocations: every given condition must hold. `from`/`to` bound created_at, [from, to). */
export interface ContentSelector {
  principalId?: string;
  agentKey?: string;
  from?: Date;
  to?: Date;
}

/**
 * The erasure selector (ingest_read.selected_invocations, migration 0130) as
 * SQL: the invocations a ContentSelector names, with the workspace as $1 and
 * the selector as $2-$5 (selectorParams). Every module that deletes content
 * written from an invocation selects through it, so an erasure reaches the
 * same invocations everywhere:
 *
 *   `… AND x.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})`
 */
export const SELECTED_INVOCATIONS = 'ingest_read.selected_invocations($1, $2, $3, $4, $5)';

/** The parameters $1-$5 of SELECTED_INVOCATIONS; a caller's own parameters follow from $6. */
export function selectorParams(
  tenantId: string,
  sel: ContentSelector,
): [string, string | null, string | null, string | null, string | null] {
  return [
    tenantId,
    sel.principalId ?? null,
    sel.agentKey ?? null,
    sel.from?.toISOString() ?? null,
    sel.to?.toISOString() ?? null,
  ];
}

/**
 * Erases at most `limit` fields, in the order of their invocations' ids from
 * `after` on (pass the greatest id of the previous chunk to go on from there);
 * returns how many, and the invocations they belong to.
 *
 * A chunk reads from where the previous one stopped, not from the start of the
 * period past the texts already erased (each chunk re-read those, so erasing
 * the half million texts a year brings in took hours), and the UPDATE reads
 * only the months between the chunk's first and last text. A selector of a
 * period alone bounds the texts' own created_at (a text has its invocation's),
 * so the invocations are read only for a principal or an agent.
 */
export async function eraseInvocationContent(
  tx: Queryable,
  tenantId: string,
  sel: ContentSelector,
  now: Date,
  limit = 10_000,
  after = 0,
): Promise<{ fields: number; invocationIds: number[] }> {
  const byInvocation = sel.principalId !== undefined || sel.agentKey !== undefined;
  const rows = await tx.query<{ invocation_id: string }>(
    `WITH due AS MATERIALIZED (
       SELECT x.invocation_id, x.field, x.created_at FROM invocation_content x
       WHERE x.tenant_id = $1 AND x.erased_at IS NULL
         -- A text is in its invocation's month: a period reads only its months' partitions.
         AND ($4::timestamptz IS NULL OR x.created_at >= $4::timestamptz)
         AND ($5::timestamptz IS NULL OR x.created_at < $5::timestamptz)
         AND x.invocation_id >= $8
         AND ${
           byInvocation
             ? `x.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})`
             : // No principal, no agent: the period alone, on the text's own time.
               '$2::text IS NULL AND $3::text IS NULL'
         }
       ORDER BY x.invocation_id
       LIMIT $6)
     UPDATE invocation_content c
     SET body = NULL, salt = NULL, sealed = NULL, sealed_key = NULL, erased_at = $7,
         findings = (SELECT COALESCE(jsonb_agg(jsonb_build_object('type', f->>'type')), '[]'::jsonb)
                     FROM jsonb_array_elements(COALESCE(c.findings, '[]'::jsonb)) AS f)
     FROM due d
     WHERE c.tenant_id = $1 AND c.invocation_id = d.invocation_id AND c.field = d.field AND c.created_at = d.created_at
       -- The period's months (pruned when planned), of them the chunk's only (pruned as the statement runs).
       AND ($4::timestamptz IS NULL OR c.created_at >= $4::timestamptz)
       AND ($5::timestamptz IS NULL OR c.created_at < $5::timestamptz)
       AND c.created_at >= (SELECT min(created_at) FROM due) AND c.created_at <= (SELECT max(created_at) FROM due)
     RETURNING c.invocation_id`,
    [...selectorParams(tenantId, sel), limit, now.toISOString(), after],
  );
  return { fields: rows.length, invocationIds: [...new Set(rows.map((r) => Number(r.invocation_id)))] };
}

/**
 * For an erasure (not retention): forgets the salts of the selected
 * invocations' metadata commitments (leaf format v2, `meta`), so no one can
 * confirm a guess of who acted from the log. Returns how many rows had one.
 */
export async function forgetMetadataSalts(tx: Queryable, tenantId: string, sel: ContentSelector): Promise<number> {
  const rows = await tx.query(
    `UPDATE invocations i SET meta_salt = NULL
     WHERE i.tenant_id = $1 AND i.meta_salt IS NOT NULL
       AND i.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})
     RETURNING 1`,
    selectorParams(tenantId, sel),
  );
  return rows.length;
}

/**
 * A text kept about invocations besides their content (a review's note, a
 * judge's rationale, an approval's note): which rows hold one and what
 * deleting it sets, for eraseText. The table is `t` in `set` and `x` in
 * `pending`.
 */
export interface ErasableText {
  table: string;
  /** The columns that name a row. */
  key: readonly string[];
  /** The SET list: the text and its salt gone, the row marked erased at `at` (the statement's parameter). */
  set(at: string): string;
  /** A row whose text is not erased yet. */
  pending: string;
  /** Its own time, by which retention erases it (`before`), rather than by the invocation's. */
  timeColumn: string;
}

/**
 * Erases `text` from at most `limit` rows of the selected invocations
 * (`from`/`to` bound the invocation's time), or — with `before` — of rows
 * whose own time is before then, and not before `since` if given (retention:
 * `since` is where the previous sweep got to, every row before it erased).
 * Returns how many rows.
 *
 * Retention names no invocations (`before` alone): the rows are found by
 * their own time alone, through the table's index of pending texts by time
 * (review migration 0217, judges 0218, ingest 0219), without reading the
 * invocations — a selector of every invocation joined them across every
 * month kept, so a sweep with nothing due read the workspace's whole history
 * of invocations. Every row of these tables is about an invocation of its
 * workspace, so the rows are the same. `since` keeps the index's range to the
 * time that came due since the last sweep: the entries of the rows it erased
 * stay in the index until a vacuum and were read again by every sweep.
 */
export async function eraseText(
  tx: Queryable,
  tenantId: string,
  text: ErasableText,
  sel: ContentSelector & { before?: Date; since?: Date },
  now: Date,
  limit = 10_000,
): Promise<number> {
  const key = (alias: string) => text.key.map((c) => `${alias}.${c}`).join(', ');
  const bySelector =
    sel.principalId !== undefined ||
    sel.agentKey !== undefined ||
    sel.from !== undefined ||
    sel.to !== undefined ||
    sel.before === undefined;
  if (!bySelector) {
    const rows = await tx.query(
      `UPDATE ${text.table} t SET ${text.set('$4')}
       WHERE t.tenant_id = $1 AND (${key('t')}) IN (
         SELECT ${key('x')} FROM ${text.table} x
         WHERE x.tenant_id = $1 AND ${text.pending} AND x.${text.timeColumn} < $2
           AND ($5::timestamptz IS NULL OR x.${text.timeColumn} >= $5::timestamptz)
         LIMIT $3)
       RETURNING 1`,
      [tenantId, sel.before!.toISOString(), limit, now.toISOString(), sel.since?.toISOString() ?? null],
    );
    return rows.length;
  }
  const rows = await tx.query(
    `UPDATE ${text.table} t SET ${text.set('$8')}
     WHERE t.tenant_id = $1 AND (${key('t')}) IN (
       SELECT ${key('x')} FROM ${text.table} x
       WHERE x.tenant_id = $1 AND ${text.pending}
         AND x.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})
         AND ($6::timestamptz IS NULL OR x.${text.timeColumn} < $6)
       LIMIT $7)
     RETURNING 1`,
    [...selectorParams(tenantId, sel), sel.before?.toISOString() ?? null, limit, now.toISOString()],
  );
  return rows.length;
}

/**
 * The notes of the selected invocations' decided approvals and their salts
 * (what a person wrote about a held call may name the customer it concerns);
 * the decision, who made it and when stay, and the approval_decided leaf's
 * commitment can no longer be opened. Retention erases them by the decision's
 * time.
 */
export const APPROVAL_NOTES: ErasableText = {
  table: 'approvals',
  key: ['approval_id'],
  set: (at) => `note = NULL, note_salt = NULL, note_erased_at = ${at}`,
  pending: 'x.note_erased_at IS NULL AND (x.note IS NOT NULL OR x.note_salt IS NOT NULL)',
  timeColumn: 'decided_at',
};
