// The log's last statement and COMMIT go in one round trip on PostgreSQL
// (queryThenCommit, committing-query.ts), and the commit must be all or
// nothing. The opening statements (postgres.ts) go in one simple query with
// their parameters written into the text as literals (sqlLiteral), so every
// value must reach the server exactly as the same value sent as a parameter —
// whatever it holds.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { createTestDb, type TestDb } from '../testing/test-db.ts';
import { CommittingQuery } from './committing-query.ts';
import { sqlLiteral } from './sql-literal.ts';

describe('on PostgreSQL', { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL' }, () => {
  let t: TestDb;
  let client: pg.Client;
  before(async () => {
    t = await createTestDb('postgres');
    client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
  });
  after(async () => {
    await client?.end();
    await t?.dispose();
  });

  // The server's view of a value: the text of `$1::<type>` sent as a parameter against the literal's.
  async function same(value: unknown, type: string): Promise<void> {
    const literal = sqlLiteral(value);
    assert.ok(literal !== undefined);
    const viaParam = await client.query({ text: `SELECT $1::${type}::text AS v`, values: [value] });
    const viaText = await client.query(`SELECT ${literal}::${type}::text AS v`);
    assert.deepEqual(viaText.rows[0], viaParam.rows[0], `${JSON.stringify(value)} as ${type}`);
  }

  test('any text (quotes, backslashes, E-string escapes, comment and statement syntax, any Unicode) is the same as a literal', async () => {
    for (const s of [
      "'",
      "''",
      '\\',
      "\\'",
      "'); DROP TABLE log_heads; --",
      '\\x41',
      '\\n',
      "E'\\\\'",
      '$$',
      '$a$ $a$',
      '/* */',
      '\u{1F600}',
      'ü\r\n\t',
    ])
      await same(s, 'text');
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 60 }).filter((s) => !s.includes('\0') && s.isWellFormed()),
        (s) => same(s, 'text'),
      ),
      { numRuns: 300 },
    );
  });

  test('arrays of text with quotes, backslashes, braces, commas and NULL; numbers, bytes, times and NULL', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.string({ unit: 'grapheme-ascii', maxLength: 12 }), { nil: null }), { maxLength: 8 }),
        (a) => same(a, 'text[]'),
      ),
      { numRuns: 200 },
    );
    await same(['{"a":"b\\"c"}', 'x,y', '{}', 'NULL', null, ''], 'text[]');
    await same([1, 2, 9_007_199_254_740_991], 'bigint[]');
    await same(Buffer.from([0, 39, 92, 255]), 'bytea');
    await same(new Date('2026-11-27T23:59:59.999Z'), 'timestamptz');
    await same(null, 'text');
    await same(42, 'int');
  });

  test('a text holding NUL has no literal: it goes as a parameter', () => {
    assert.equal(sqlLiteral('a\0b'), undefined);
    assert.equal(sqlLiteral(['a', 'b\0']), undefined);
  });

  test('queryThenCommit commits what its statement wrote, in one transaction, and nothing may run after it', async () => {
    await t.db.exec('CREATE TABLE IF NOT EXISTS qtc (id text PRIMARY KEY, v text)');
    const id = randomUUID();
    // Three runs: the text is then prepared by name and sent with COMMIT (the first runs go the plain way).
    for (let i = 0; i < 4; i++) {
      await t.db.transaction(async (tx) => {
        assert.ok(tx.queryThenCommit, 'PostgreSQL offers queryThenCommit');
        await tx.query('INSERT INTO qtc (id, v) VALUES ($1, $2)', [`${id}-${i}-a`, 'before']);
        await tx.queryThenCommit!('INSERT INTO qtc (id, v) VALUES ($1, $2)', [`${id}-${i}`, `it's \\ "${i}"`]);
        await assert.rejects(tx.query('SELECT 1'), /has committed/);
      });
    }
    const rows = await t.db.query<{ id: string; v: string }>('SELECT id, v FROM qtc WHERE id LIKE $1 ORDER BY id', [
      `${id}%`,
    ]);
    assert.equal(rows.length, 8);
    assert.deepEqual(
      rows.filter((r) => !r.id.endsWith('-a')).map((r) => r.v),
      [0, 1, 2, 3].map((i) => `it's \\ "${i}"`),
    );
  });

  test('the statement and COMMIT go in one round trip: one Sync, one ReadyForQuery, and the transaction is over', async () => {
    await t.db.exec('CREATE TABLE IF NOT EXISTS qtc (id text PRIMARY KEY, v text)');
    const raw = new pg.Client({ connectionString: t.url });
    await raw.connect();
    try {
      const id = randomUUID();
      await raw.query('BEGIN');
      const connection = (raw as unknown as { connection: NodeJS.EventEmitter }).connection;
      let ready = 0;
      connection.on('readyForQuery', () => ready++);
      const results = await new Promise<unknown>((resolve, reject) => {
        raw.query(
          new CommittingQuery({
            text: 'INSERT INTO qtc (id, v) SELECT * FROM unnest($1::text[], $2::text[])',
            values: [
              [`${id}-a`, `${id}-b`],
              ["it's", '\\x'],
            ],
            callback: (err: Error | null, res: unknown) => (err ? reject(err) : resolve(res)),
          } as pg.QueryConfig),
        );
      });
      // One Sync answered: the client sent everything at once and waited once.
      assert.equal(ready, 1, 'one ReadyForQuery');
      assert.deepEqual(
        (results as pg.QueryResult[]).map((r) => r.command),
        ['INSERT', 'COMMIT'],
      );
      // Committed: no transaction is open on this connection, and another one sees the rows.
      const [{ state }] = (
        await raw.query<{ state: string }>(
          "SELECT CASE WHEN txid_current_if_assigned() IS NULL THEN 'none' ELSE 'open' END AS state",
        )
      ).rows as [{ state: string }];
      assert.equal(state, 'none');
      const rows = await t.db.query<{ v: string }>('SELECT v FROM qtc WHERE id LIKE $1 ORDER BY id', [`${id}%`]);
      assert.deepEqual(
        rows.map((r) => r.v),
        ["it's", '\\x'],
      );
    } finally {
      await raw.end();
    }
  });

  test('a COMMIT that fails (a deferred constraint) commits nothing and says so; the pool still answers', async () => {
    await t.db.exec(
      'CREATE TABLE IF NOT EXISTS qtc_deferred (id text, CONSTRAINT qtc_deferred_id UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const id = randomUUID();
    for (let i = 0; i < 4; i++) {
      await assert.rejects(
        t.db.transaction(async (tx) => {
          await tx.query('INSERT INTO qtc_deferred (id) VALUES ($1)', [`${id}-${i}-first`]);
          // Both rows go in; the duplicate is found only at COMMIT.
          await tx.queryThenCommit!('INSERT INTO qtc_deferred (id) SELECT unnest($1::text[])', [
            [`${id}-${i}`, `${id}-${i}`],
          ]);
        }),
        (err: unknown) => err instanceof pg.DatabaseError && err.code === '23505',
      );
    }
    const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM qtc_deferred WHERE id LIKE $1', [
      `${id}%`,
    ]);
    assert.equal(row!.n, 0);
    assert.deepEqual(await t.db.query('SELECT 1 AS one'), [{ one: 1 }]);
  });

  test('a failing statement commits nothing, not even what ran before it in the transaction', async () => {
    const id = randomUUID();
    for (let i = 0; i < 4; i++) {
      await assert.rejects(
        t.db.transaction(async (tx) => {
          await tx.query('INSERT INTO qtc (id, v) VALUES ($1, $2)', [`${id}-${i}-first`, 'x']);
          // the same key twice: a unique violation inside the committing statement
          await tx.queryThenCommit!('INSERT INTO qtc (id, v) VALUES ($1, $2), ($1, $2)', [`${id}-${i}`, 'y']);
        }),
        (err: unknown) => err instanceof pg.DatabaseError && err.code === '23505',
      );
    }
    const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM qtc WHERE id LIKE $1', [`${id}%`]);
    assert.equal(row!.n, 0);
    // the pool still answers (a connection that failed is replaced, not reused)
    assert.deepEqual(await t.db.query('SELECT 1 AS one'), [{ one: 1 }]);
  });
});

describe('on PGlite', () => {
  test('there is no round trip to save: no queryThenCommit', async () => {
    const t = await createTestDb('pglite');
    try {
      await t.db.transaction(async (tx) => assert.equal(tx.queryThenCommit, undefined));
    } finally {
      await t.dispose();
    }
  });
});
