// On PGlite a statement that repeats runs as a named prepared statement
// (pglite-prepared.ts), its arrays and bytea in binary: it must answer exactly
// as the first runs did through PGlite's own query(), errors included.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openPglite } from './pglite.ts';
import type { Db } from './db.ts';

describe('PGlite: a repeated statement runs named', () => {
  let db: Db;
  before(async () => {
    db = await openPglite();
    await db.exec(
      `CREATE TABLE pp (id bigint PRIMARY KEY, n int, label text, at timestamptz, day date, hash bytea, doc jsonb, flag boolean)`,
    );
  });
  after(() => db.close());

  const named = async () =>
    (await db.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements')).map(
      (r) => r.statement,
    );

  test('every run answers the same, the first two through query() and the rest named, arrays and bytea included', async () => {
    const sql = `SELECT $1::bigint[] AS ids, $2::int[] AS ns, $3::text[] AS labels, $4::timestamptz[] AS ats, $5::date[] AS days,
      $6::bytea AS hash, $7::jsonb AS doc, $8::boolean AS flag, $9::text AS nothing, cardinality($3::text[]) AS count`;
    const params = [
      [1, 2 ** 40, -3],
      [7, -(2 ** 31), 2 ** 31 - 1],
      ['plain', 'quote " and \\ backslash', 'comma, {brace}', 'NULL', '', 'é ✓ 𝄞', null],
      [new Date('2026-11-29T01:02:03.456Z'), '2026-11-29T00:00:00.000Z'],
      ['2026-11-29', '1999-12-31'],
      new Uint8Array([0, 1, 254, 255]),
      JSON.stringify({ a: [1, 'x'] }),
      true,
      null,
    ];
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await db.query(sql, params));
    for (const a of answers.slice(1)) assert.deepEqual(a, answers[0]);
    const [row] = answers[0]! as Array<Record<string, unknown>>;
    assert.deepEqual(row!.ids, [1, 2 ** 40, -3], 'int8 elements as numbers (the parsers openPglite sets)');
    assert.deepEqual(row!.labels, params[2]);
    assert.deepEqual(row!.ats, [new Date('2026-11-29T01:02:03.456Z'), new Date('2026-11-29T00:00:00.000Z')]);
    assert.deepEqual(Buffer.from(row!.hash as Uint8Array), Buffer.from([0, 1, 254, 255]));
    assert.deepEqual(row!.doc, { a: [1, 'x'] });
    assert.equal(row!.nothing, null);
    assert.equal(row!.count, 7);
    assert.ok((await named()).includes(sql), 'prepared once, under a name');
  });

  test('writes in a transaction commit, or roll back with it, as with query()', async () => {
    const insert = 'INSERT INTO pp (id, n, label, hash) SELECT i, i * 2, $2, $3 FROM unnest($1::bigint[]) AS i';
    for (let i = 0; i < 4; i++)
      await db.transaction((tx) => tx.query(insert, [[i * 10 + 1, i * 10 + 2], `batch ${i}`, new Uint8Array([i])]));
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query(insert, [[100], 'rolled back', new Uint8Array([9])]);
        throw new Error('abandoned');
      }),
      /abandoned/,
    );
    const rows = await db.query<{ id: number; label: string; hash: Uint8Array }>(
      'SELECT id, label, hash FROM pp ORDER BY id',
    );
    assert.deepEqual(
      rows.map((r) => [r.id, r.label, [...r.hash]]),
      [0, 1, 2, 3].flatMap((i) => [
        [i * 10 + 1, `batch ${i}`, [i]],
        [i * 10 + 2, `batch ${i}`, [i]],
      ]),
    );
    assert.ok((await named()).includes(insert));
  });

  test('a named statement outside a transaction waits for the open one to end, as query() does, and does not run inside it', async () => {
    const sql = 'SELECT count(*)::int AS n FROM pp WHERE id = $1';
    for (let i = 0; i < 3; i++) assert.deepEqual(await db.query(sql, [900]), [{ n: 0 }]);
    assert.ok((await named()).includes(sql));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const open = db.transaction(async (tx) => {
      await tx.query('INSERT INTO pp (id) VALUES ($1)', [900]);
      inserted();
      await held;
      throw new Error('rolled back');
    });
    await insertedYet;
    let answered = false;
    const outside = db.query<{ n: number }>(sql, [900]).then((rows) => ((answered = true), rows));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(answered, false, 'it waits while the transaction is open');
    release();
    await assert.rejects(open, /rolled back/);
    assert.deepEqual(await outside, [{ n: 0 }], 'it never saw the rolled-back row');
  });

  test('an error in a named statement is the same error, aborts its transaction, and the statement still runs afterwards', async () => {
    const sql = 'SELECT 1 / $1::int AS v';
    for (let i = 0; i < 3; i++) assert.deepEqual(await db.query(sql, [1]), [{ v: 1 }]);
    assert.ok((await named()).includes(sql));
    await assert.rejects(db.query(sql, [0]), (err: { code?: string }) => err.code === '22012');
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO pp (id) VALUES ($1)', [500]);
        await tx.query(sql, [0]);
      }),
      (err: { code?: string }) => err.code === '22012',
    );
    assert.deepEqual(await db.query('SELECT id FROM pp WHERE id = $1', [500]), [], 'the transaction rolled back');
    assert.deepEqual(await db.query(sql, [2]), [{ v: 0 }]);
  });

  test('an array that cannot go in binary goes as text, and the server answers for it', async () => {
    const sql = 'SELECT $1::int[] AS ns';
    for (let i = 0; i < 3; i++) assert.deepEqual(await db.query(sql, [[1, 2]]), [{ ns: [1, 2] }]);
    // 2^40 is no int4: as text the server refuses it as out of range, as it would through query().
    await assert.rejects(db.query(sql, [[2 ** 40]]), (err: { code?: string }) => err.code === '22003');
  });
});
