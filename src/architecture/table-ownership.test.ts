import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type SourceFile, sourceFiles } from './source-tree.ts';
import { crossings, GRANDFATHERED_MIGRATIONS, ownershipOf, TRANSFERRED } from './table-ownership.ts';

// docs/design.md's one rule for modules: each owns its tables, and no module's SQL
// (source or migration) names another module's table. Others read through
// the owner's published views (<module>_read.*) and change through its
// functions.

const migrations = sourceFiles(undefined, /\.sql$/);
const own = ownershipOf(migrations);

test("no module names another module's table in its SQL or its migrations", () => {
  const found = crossings([...sourceFiles(), ...migrations], own).map((c) => `${c.file}: ${c.table} (${c.owner}'s)`);
  assert.deepEqual(found, []);
});

test('the ownership map: every table has a module; the transfers and grandfathered migrations still exist', () => {
  const folders = new Set(sourceFiles().map((f) => f.folder));
  for (const [table, owner] of own.owner)
    assert.ok(owner === 'db' || folders.has(owner), `${table} belongs to ${owner}, which is no folder`);
  for (const [table, owner] of Object.entries(TRANSFERRED))
    assert.equal(own.owner.get(table), owner, `${table} is no longer created anywhere`);
  const paths = new Set(migrations.map((m) => m.path));
  for (const path of Object.keys(GRANDFATHERED_MIGRATIONS))
    assert.ok(paths.has(path), `${path} is gone: remove it from GRANDFATHERED_MIGRATIONS`);
  // Spot checks of the map as the migrations build it.
  assert.equal(own.owner.get('invocations'), 'ingest');
  assert.equal(own.owner.get('jobs'), 'jobs');
  assert.equal(own.owner.get('log_entries'), 'ledger');
  assert.equal(own.owner.get('policies'), 'policy');
  assert.equal(own.owner.get('reviews'), 'review');
  assert.equal(own.readSchemas.get('ingest_read'), 'ingest');
});

test('the check finds what it must and nothing else', () => {
  const file = (path: string, text: string): SourceFile => ({ path, folder: path.slice(0, path.indexOf('/')), text });
  const found = (f: SourceFile) => crossings([f], own).map((c) => c.table);
  // Another module's table, read or written, in source and in a migration.
  assert.deepEqual(found(file('review/x.ts', "q('UPDATE invocations SET review_status = $3')")), ['invocations']);
  assert.deepEqual(
    found(
      file(
        'reports/x.ts',
        'q(`SELECT count(*) FROM invocations i JOIN invocation_content c ON c.tenant_id = i.tenant_id`)',
      ),
    ),
    ['invocations', 'invocation_content'],
  );
  assert.deepEqual(found(file('ingest/x.ts', "q('INSERT INTO jobs (tenant_id, kind) VALUES ($1, $2)')")), ['jobs']);
  assert.deepEqual(found(file('review/migrations/0999_x.sql', 'CREATE INDEX x ON rogue_events (tenant_id);')), [
    'rogue_events',
  ]);
  // Writing through another module's read views is a crossing too.
  assert.deepEqual(found(file('review/x.ts', "q('UPDATE ingest_read.invocations SET verdict = 1')")), [
    'ingest_read.invocations',
  ]);
  assert.deepEqual(found(file('review/x.ts', "q('DELETE FROM ingest_read.rogue_events')")), [
    'ingest_read.rogue_events',
  ]);
  // Not crossings: the owner itself, reads of the published views, prose, functions, tests.
  assert.deepEqual(found(file('ingest/x.ts', "q('UPDATE invocations SET review_status = $3')")), []);
  assert.deepEqual(
    found(
      file('review/x.ts', "q('SELECT 1 FROM ingest_read.invocations i JOIN reviews r ON r.tenant_id = i.tenant_id')"),
    ),
    [],
  );
  assert.deepEqual(found(file('accounts/x.ts', "throw new Error('The plan allows 3 agents from invocations')")), []);
  assert.deepEqual(found(file('review/x.test.ts', "q('UPDATE invocations SET review_status = $3')")), []);
  assert.deepEqual(found(file('testing/x.ts', "q('SELECT * FROM log_entries')")), []);
});
