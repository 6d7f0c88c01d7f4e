import type { Db, Queryable } from '../db/index.ts';
import { decodeBase64, encodeBase64 } from './bytes.ts';
import { commitment, newSalt, SALT_SIZE } from './leaf.ts';
import { scopeToTenant } from './log-store.ts';

export type PseudonymKind = 'agent' | 'rogue_event_type' | 'email';

/**
 * The pseudonym of a value inside the caller's tenant-scoped transaction,
 * created on first use. Nothing is cached: if the transaction rolls back, the
 * salt goes with the leaves that used it.
 */
export async function pseudonymInTx(
  tx: Queryable,
  tenantId: string,
  kind: PseudonymKind,
  value: string,
): Promise<string> {
  // The caller's transaction may not be scoped yet (account-side changes): row-level security needs it.
  await scopeToTenant(tx, tenantId);
  return commitment(await saltOf(tx, tenantId, kind, value), value);
}

async function saltOf(tx: Queryable, tenantId: string, kind: PseudonymKind, value: string): Promise<Uint8Array> {
  // One statement whatever the state: the INSERT returns the new salt, or the
  // SELECT (which does not see this statement's own insert) the existing one.
  const rows = await tx.query<{ salt: Uint8Array }>(
    `WITH ins AS (
       INSERT INTO pseudonyms (tenant_id, kind, value, salt) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, kind, value) DO NOTHING RETURNING salt
     )
     SELECT salt FROM ins UNION ALL SELECT salt FROM pseudonyms WHERE tenant_id = $1 AND kind = $2 AND value = $3`,
    [tenantId, kind, value, Buffer.from(newSalt())],
  );
  if (rows.length === 0) {
    // A concurrent transaction inserted it and has not committed yet: ON
    // CONFLICT waited for it, but this statement's snapshot predates it.
    const [row] = await tx.query<{ salt: Uint8Array }>(
      'SELECT salt FROM pseudonyms WHERE tenant_id = $1 AND kind = $2 AND value = $3',
      [tenantId, kind, value],
    );
    if (!row) throw new Error('pseudonym vanished while being created');
    return new Uint8Array(row.salt);
  }
  return new Uint8Array(rows[0]!.salt);
}

/**
 * Pseudonyms for the write path, cached per process. A salt is created in a
 * transaction of its own and committed before any leaf uses it, so a cached
 * pseudonym always has its salt stored (until an erasure deletes it).
 */
export class Pseudonyms {
  readonly #db: Db;
  readonly #cache = new Map<string, string>();

  constructor(db: Db) {
    this.#db = db;
  }

  async of(tenantId: string, kind: PseudonymKind, value: string): Promise<string> {
    const key = `${tenantId}\u0000${kind}\u0000${value}`;
    const hit = this.#cache.get(key);
    if (hit !== undefined) return hit;
    const p = await this.#db.withTenant(tenantId, (tx) => pseudonymInTx(tx, tenantId, kind, value));
    if (this.#cache.size >= 100_000) this.#cache.clear();
    this.#cache.set(key, p);
    return p;
  }

  /** Forgets cached pseudonyms of a workspace (after an erasure deleted salts). */
  forget(tenantId: string): void {
    for (const k of this.#cache.keys()) if (k.startsWith(`${tenantId}\u0000`)) this.#cache.delete(k);
  }
}

/** value → base64 salt, for the values of one kind that have a pseudonym: what a report hands the verifier. */
export async function openPseudonyms(
  tx: Queryable,
  tenantId: string,
  kind: PseudonymKind,
  values: readonly string[],
): Promise<Record<string, string>> {
  if (values.length === 0) return {};
  const rows = await tx.query<{ value: string; salt: Uint8Array }>(
    'SELECT value, salt FROM pseudonyms WHERE tenant_id = $1 AND kind = $2 AND value = ANY($3::text[])',
    [tenantId, kind, [...values]],
  );
  const out: Record<string, string> = {};
  for (const r of [...rows].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))) {
    out[r.value] = encodeBase64(new Uint8Array(r.salt));
  }
  return out;
}

/**
 * pseudonym → value for the openings a verifier was given, each recomputed
 * from value and salt (a salt of the wrong size opens nothing).
 */
export function pseudonymIndex(openings: Readonly<Record<string, string>> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const [value, salt64] of Object.entries(openings ?? {})) {
    const salt = typeof salt64 === 'string' ? decodeBase64(salt64) : undefined;
    if (!salt || salt.length !== SALT_SIZE || !value.isWellFormed()) continue;
    out.set(commitment(salt, value), value);
  }
  return out;
}
