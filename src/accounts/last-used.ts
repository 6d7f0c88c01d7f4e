/** How stale last_used_at may get before a request refreshes it. */
export const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * Keeps a token's last_used_at within a minute without a database write on
 * every request: a request writes only when neither the stored time nor this
 * node's own last write is recent, and the write itself is conditional, so
 * nodes racing on one token write at most once a minute between them. The
 * write runs after the lookup, without delaying the request.
 */
export function lastUsedToucher(
  write: (tenantId: string, tokenId: string) => Promise<unknown>,
  onError: (err: unknown) => void,
  clock: () => number = Date.now,
) {
  const touched = new Map<string, number>();
  return (tenantId: string, tokenId: string, lastUsedAt: Date | null): void => {
    const now = clock();
    const seen = Math.max(lastUsedAt?.getTime() ?? 0, touched.get(tokenId) ?? 0);
    if (now - seen < LAST_USED_GRANULARITY_MS) return;
    if (touched.size >= 100_000) touched.clear();
    touched.set(tokenId, now);
    write(tenantId, tokenId).catch(onError);
  };
}
