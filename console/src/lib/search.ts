// URL search params as plain strings: every filter, sort and cursor lives in
// the URL so a view can be reloaded, bookmarked and shared.
export function pickStrings<K extends string>(
  search: Record<string, unknown>,
  keys: readonly K[],
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) {
    const v = search[k];
    if (typeof v === 'string' && v !== '') out[k] = v.slice(0, 512);
    else if (typeof v === 'number') out[k] = String(v);
  }
  return out;
}

/** Drops empty values so the URL stays short. */
export function clean<T extends Record<string, string | undefined>>(o: T): T {
  const out = {} as T;
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== '') (out as Record<string, string>)[k] = v;
  return out;
}
