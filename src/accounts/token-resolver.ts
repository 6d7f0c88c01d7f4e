import { parseToken, type Principal, safeEqual, TOKEN_PREFIXES, type TokenPrefix } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import { lastUsedToucher } from './last-used.ts';

/** The columns every kind's lookup returns (its id column named token_id), besides what its principal reads. */
export type LiveTokenRow = {
  tenant_id: string;
  token_id: string;
  last_used_at: Date | string | null;
};

/**
 * One kind of stored token, as data: what differs between API tokens and console sessions (accounts) and
 * ingress tokens (ingest). Each owning module writes the SQL of its own table.
 */
export interface StoredTokenKind<R extends LiveTokenRow = LiveTokenRow> {
  prefix: TokenPrefix;
  /** Named in the log when a last_used_at write fails. */
  name: string;
  /**
   * The token whose token_hash is $1, if it is live: not revoked and, for kinds that expire, not expired
   * or idle at $2 (`lookupParams` gives $2 onwards).
   */
  lookup: string;
  lookupParams?(now: Date): unknown[];
  /** Sets last_used_at = $3 of token $2 in workspace $1, unless it is already less than a minute before $3. */
  touch: string;
  principal(row: R): Principal;
}

/** A configured secret that stands for a principal (OPERATOR_TOKEN, INGRESS_FALLBACK_TOKEN). */
export interface ConfiguredToken {
  secret: string | undefined;
  principal: Principal;
}

export type TokenResolver = (token: string) => Promise<Principal | null>;

/**
 * The one way a token becomes a principal: its prefix and checksum are parsed (no database for junk), its
 * SHA-256 is looked up in the table of its kind (the lookup checks revocation, expiry and idleness, so all
 * three take effect on every node at once), last_used_at is kept within a minute in the background, and the
 * row becomes the principal. A token of no stored kind is compared in constant time with the configured ones.
 * A token with a stored prefix that fails to parse, or of a prefix this resolver does not take, is rejected.
 */
export function tokenResolver(
  db: Queryable,
  now: () => Date,
  kinds: readonly StoredTokenKind[],
  configured: readonly ConfiguredToken[] = [],
): TokenResolver {
  const stored = new Map(
    kinds.map((kind) => {
      const touch = lastUsedToucher(
        (tenantId, tokenId) => db.query(kind.touch, [tenantId, tokenId, now()]),
        (err) => console.error(`${kind.name} last_used_at update failed`, err),
        () => now().getTime(),
      );
      return [kind.prefix, { kind, touch }] as const;
    }),
  );
  return async (token) => {
    if (TOKEN_PREFIXES.some((p) => token.startsWith(p))) {
      const parsed = parseToken(token);
      const of = parsed && stored.get(parsed.prefix);
      if (!parsed || !of) return null;
      const [row] = await db.query<LiveTokenRow>(of.kind.lookup, [
        parsed.hash,
        ...(of.kind.lookupParams?.(now()) ?? []),
      ]);
      if (!row) return null;
      of.touch(row.tenant_id, row.token_id, row.last_used_at === null ? null : new Date(row.last_used_at));
      return of.kind.principal(row);
    }
    for (const c of configured) if (c.secret !== undefined && safeEqual(token, c.secret)) return c.principal;
    return null;
  };
}
