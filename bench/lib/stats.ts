// Small statistics and formatting helpers for the benchmarks.

export function median(xs: readonly number[]): number {
  return quantile(xs, 0.5);
}

export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export function fmt(n: number, digits = 0): string {
  return Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
}

/** Prints rows as an aligned table. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

export interface BenchArgs {
  stores: Array<'pglite' | 'postgres'>;
  get(name: string): string | undefined;
  int(name: string, dflt: number): number;
}

/**
 * --store pglite|postgres (default: both when a PostgreSQL URL is configured —
 * TEST_DATABASE_URL — else PGlite only) and --name value options.
 */
export function benchArgs(argv: readonly string[]): BenchArgs {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    if (eq > 0) values.set(a.slice(2, eq), a.slice(eq + 1));
    else values.set(a.slice(2), argv[++i] ?? '');
  }
  const store = values.get('store');
  let stores: BenchArgs['stores'];
  if (store === 'pglite' || store === 'postgres') stores = [store];
  else if (store === undefined) stores = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  else throw new Error('--store is pglite or postgres');
  if (stores.includes('postgres') && !process.env.TEST_DATABASE_URL) {
    throw new Error(
      '--store postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres): a fresh database is created there',
    );
  }
  return {
    stores,
    get: (name) => values.get(name),
    int(name, dflt) {
      const v = values.get(name);
      if (v === undefined) return dflt;
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
      return n;
    },
  };
}
