import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/index.ts';

// Sign-in codes follow ASVS 5.0 §6.5/6.6 and the Ory Kratos pattern: random,
// 10 minutes, single use, at most 5 tries, stored only as a keyed hash.

export const CODE_DIGITS = 6;
export const CODE_TTL_MINUTES = 10;
export const MAX_ATTEMPTS = 5;

export function newCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

/**
 * HMAC keyed by a secret that lives outside the database: a dump of the
 * table alone does not let anyone brute-force the million possible codes.
 */
export function codeHash(pepper: Buffer, email: string, code: string): Buffer {
  return createHmac('sha256', pepper).update(email).update('\n').update(code).digest();
}

/** Stores a fresh code for the address, replacing any live one. */
export async function storeCode(db: Queryable, pepper: Buffer, email: string, code: string, now: Date): Promise<void> {
  const expires = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
  await db.query(
    `INSERT INTO signin_codes (email, code_hash, attempts, expires_at, created_at)
     VALUES ($1, $2, 0, $3, $4)
     ON CONFLICT (email) DO UPDATE SET code_hash = EXCLUDED.code_hash, attempts = 0,
       expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at`,
    [email, codeHash(pepper, email, code), expires, now],
  );
}

/**
 * Checks and consumes a code. The attempt is counted in its own statement
 * before the comparison, so parallel guesses cannot exceed the cap; the code
 * is consumed by a conditional delete, so two racing correct submissions
 * cannot both succeed.
 */
export async function consumeCode(
  db: Queryable,
  pepper: Buffer,
  email: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const [row] = await db.query<{ code_hash: Uint8Array }>(
    `UPDATE signin_codes SET attempts = attempts + 1
     WHERE email = $1 AND expires_at > $2 AND attempts < $3
     RETURNING code_hash`,
    [email, now, MAX_ATTEMPTS],
  );
  if (!row) return false;
  const expected = Buffer.from(row.code_hash);
  const given = codeHash(pepper, email, code);
  if (!timingSafeEqual(expected, given)) return false;
  const consumed = await db.query('DELETE FROM signin_codes WHERE email = $1 AND code_hash = $2 RETURNING email', [
    email,
    expected,
  ]);
  return consumed.length === 1;
}
