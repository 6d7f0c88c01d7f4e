import { type SourceFile, isTest, isTestKit } from './source-tree.ts';

// Which module owns which table (docs/design.md: a module does not name another
// module's tables in SQL). A table or sequence belongs to the module whose
// migrations create it, unless TRANSFERRED says a later migration gave it to
// another module. What a module lets others read is a view in its schema
// <module>_read (e.g. ingest_read.invocations); what it lets them change is a
// function of its own that they call.

/** Objects an older migration created in one folder that a newer one made another module's. */
export const TRANSFERRED: Record<string, string> = {
  // Per-agent roll-ups of invocations and rogue events, kept by triggers on
  // those tables: ingest's since 0089 (0060 created them for the read side).
  agent_activity: 'ingest',
  agent_rogue_activity: 'ingest',
};

/**
 * Migrations applied before tables had owners, which named other modules'
 * tables. They cannot change (every database records their checksums); the
 * note says what took over from each.
 */
export const GRANDFATHERED_MIGRATIONS: Record<string, string> = {
  'review/migrations/0060_review.sql':
    "ingest/migrations/0089_ingest_read_contract.sql re-creates its triggers on invocations and rogue_events as ingest's; its indexes on them are ingest's",
  'ingest/migrations/0036_private_metadata.sql':
    "it backfills each workspace's rows under that workspace's row-level security, listing the workspaces from accounts' table (as 0060 did): a one-off data migration",
  'reports/migrations/0070_reports.sql':
    "its index on log_entries (log_entries_time) is the ledger's, used by ledger/log-store.ts entryRange",
};

const CREATES =
  /\bCREATE\s+(?:UNLOGGED\s+)?(?:TABLE|SEQUENCE|(?:OR\s+REPLACE\s+)?VIEW|SCHEMA)\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)(?:\.([a-z_][a-z0-9_]*))?/gi;

export interface Ownership {
  /** table or sequence → owning module */
  owner: Map<string, string>;
  /** read schema (<module>_read) → owning module */
  readSchemas: Map<string, string>;
}

export function ownershipOf(migrations: SourceFile[]): Ownership {
  const owner = new Map<string, string>();
  const readSchemas = new Map<string, string>();
  for (const m of migrations) {
    for (const c of m.text.replace(/--[^\n]*/g, '').matchAll(CREATES)) {
      const first = c[1]!.toLowerCase();
      if (c[2] !== undefined || /^CREATE\s+SCHEMA/i.test(c[0])) {
        if (first === `${m.folder}_read`) readSchemas.set(first, m.folder);
        continue;
      }
      owner.set(first, TRANSFERRED[first] ?? m.folder);
    }
  }
  owner.set('schema_migrations', 'db');
  return { owner, readSchemas };
}

// Where SQL names a relation: after these keywords, in upper case as this
// code base writes SQL, so that prose ("3 agents", "from invocations") never
// counts. A name followed by '(' is a function; one followed by '.' a schema.
const NAMED =
  /\b(DELETE\s+FROM|FROM|JOIN|INTO|UPDATE|TABLE|ON|REFERENCES|TRUNCATE)\s+(?:ONLY\s+)?([a-z_][a-z0-9_]*)(\.[a-z_][a-z0-9_]*)?\b(?!\()/g;

export interface Crossing {
  file: string;
  table: string;
  owner: string;
}

/**
 * Every place a module's SQL (source or migration) names a table another
 * module owns, or writes through another module's read views. Tests and test
 * kits are left out: they may set up and inspect any table.
 */
export function crossings(files: SourceFile[], own: Ownership): Crossing[] {
  const out: Crossing[] = [];
  for (const f of files) {
    if (isTest(f.path) || isTestKit(f.path)) continue;
    if (GRANDFATHERED_MIGRATIONS[f.path] !== undefined) continue;
    const text = f.path.endsWith('.sql') ? f.text.replace(/--[^\n]*/g, '') : sqlOf(f.text);
    for (const m of text.matchAll(NAMED)) {
      const [, keyword, first, qualified] = m as unknown as [string, string, string, string | undefined];
      if (qualified !== undefined) {
        // <module>_read.<view>: anyone may read it; only its module writes there.
        const owner = own.readSchemas.get(first);
        if (owner !== undefined && owner !== f.folder && !/^(FROM|JOIN|ON|REFERENCES)$/.test(keyword)) {
          out.push({ file: f.path, table: `${first}${qualified}`, owner });
        }
        continue;
      }
      const owner = own.owner.get(first);
      if (owner !== undefined && owner !== f.folder) out.push({ file: f.path, table: first, owner });
    }
  }
  return out;
}

/** The string and template literals of a TypeScript file (where its SQL is). */
function sqlOf(ts: string): string {
  const parts: string[] = [];
  for (const m of ts.matchAll(/`(?:[^`\\]|\\.)*`|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g)) parts.push(m[0]);
  return parts.join('\n');
}
