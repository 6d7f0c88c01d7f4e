// Array parameters go in PostgreSQL's binary format where the statement casts
// them (binary-arrays.ts): the server must read exactly the array the same
// values sent as text give, for every element type, nulls, empties and edges,
// and anything the binary form cannot carry must still go as text.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { createTestDb, type TestDb } from '../testing/test-db.ts';
import { binaryArrayParams, encodeBinaryArray } from './binary-arrays.ts';

describe('which parameters go in binary', () => {
  test('a parameter cast to a known array type, every mention the same type', () => {
    const sql = `SELECT * FROM unnest($2::bigint[], $3::text[], $10::timestamptz[], $11::int[], $12::date[]::text[]) WHERE $1 = 'x' AND $2::int8[] IS NOT NULL`;
    assert.deepEqual(
      [...binaryArrayParams(sql)].sort((a, b) => a[0] - b[0]),
      [
        [1, 'int8'],
        [2, 'text'],
        [9, 'timestamptz'],
        [10, 'int'],
        [11, 'date'],
      ],
    );
  });

  test('not one cast to two types, nor one also used without an array cast, nor an unknown type', () => {
    const sql = `SELECT $1::bigint[], $1::text[], $2::text[], $2::text, $3::text[], $3, $4::uuid[], $5::numeric[]`;
    assert.deepEqual([...binaryArrayParams(sql)], []);
  });
});

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

  type ElementType = Parameters<typeof encodeBinaryArray>[0];

  // The server's text of the array sent in binary against the same values sent as text (node-postgres's own form).
  async function same(type: ElementType, values: unknown[]): Promise<void> {
    const binary = encodeBinaryArray(type, values);
    assert.ok(binary, `${JSON.stringify(values)} encodes as ${type}[]`);
    const text = `SELECT $1::${type}[]::text AS v, cardinality($1::${type}[]) AS n`;
    const viaBinary = await client.query({ text, values: [binary] });
    const viaText = await client.query({ text, values: [values] });
    assert.deepEqual(viaBinary.rows[0], viaText.rows[0], `${JSON.stringify(values)} as ${type}[]`);
  }

  const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 5 });

  test('bigint: any safe integer, nulls and the empty array', async () => {
    await same('bigint', []);
    await same('bigint', [null]);
    await same('bigint', [
      0,
      -1,
      1,
      2 ** 32,
      -(2 ** 32),
      2 ** 32 - 1,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ]);
    await fc.assert(
      fc.asyncProperty(fc.array(nullable(fc.maxSafeInteger()), { maxLength: 20 }), (v) => same('bigint', v)),
      { numRuns: 200 },
    );
  });

  test('int: the whole int4 range', async () => {
    await same('int', [0, -1, 2 ** 31 - 1, -(2 ** 31), null]);
    await fc.assert(
      fc.asyncProperty(fc.array(nullable(fc.integer()), { maxLength: 20 }), (v) => same('int', v)),
      { numRuns: 200 },
    );
  });

  test('text: any Unicode, quotes, backslashes, braces, commas and the word NULL', async () => {
    await same('text', ['', 'NULL', 'null', '"', '\\', '{a,b}', ' lead', 'trail ', 'ü\r\n\t', '\u{1F600}', null]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          nullable(fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0') && s.isWellFormed())),
          { maxLength: 10 },
        ),
        (v) => same('text', v),
      ),
      { numRuns: 200 },
    );
  });

  test('timestamptz: Dates and ISO texts with a zone, before and after 2000, to the millisecond', async () => {
    await same('timestamptz', [
      '2000-01-01T00:00:00.000Z',
      '1999-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00Z',
      '2026-11-28T07:00:00.123+05:30',
      null,
    ]);
    await same('timestamptz', [new Date('2100-02-28T12:34:56.789Z'), new Date(0)]);
    const dates = fc.date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(nullable(dates.map((d) => d.toISOString())), { maxLength: 10 }), (v) =>
        same('timestamptz', v),
      ),
      { numRuns: 200 },
    );
  });

  test('date: YYYY-MM-DD before and after 2000', async () => {
    await same('date', ['2000-01-01', '1999-12-31', '2026-11-28', '2024-02-29', '1900-03-01', null]);
    const days = fc.date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          days.map((d) => d.toISOString().slice(0, 10)),
          { maxLength: 10 },
        ),
        (v) => same('date', v),
      ),
      { numRuns: 100 },
    );
  });

  test('bytea: any bytes, the empty string of bytes, nulls', async () => {
    await same('bytea', [Buffer.alloc(0), Buffer.from([0, 1, 255]), null, Buffer.from('\\"{,}NULL')]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(nullable(fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a))), { maxLength: 10 }),
        (v) => same('bytea', v),
      ),
      { numRuns: 200 },
    );
    // A Uint8Array that is not a Buffer goes as its bytes too.
    const rows = await client.query({
      text: 'SELECT encode(b, $2) AS h FROM unnest($1::bytea[]) AS b',
      values: [encodeBinaryArray('bytea', [new Uint8Array([7, 8])]), 'hex'],
    });
    assert.deepEqual(rows.rows, [{ h: '0708' }]);
  });

  test('what binary cannot carry stays text: the server reads it, or refuses it by name', async () => {
    for (const [type, values] of [
      ['bigint', [1.5]],
      ['bigint', ['12']],
      ['bigint', [2 ** 53]],
      ['int', [2 ** 31]],
      ['timestamptz', ['2026-11-28 07:00:00']],
      ['timestamptz', ['2026-11-28T07:00:00.123456Z']],
      ['timestamptz', ['not a time']],
      ['date', ['2026-02-30']],
      ['timestamptz', ['2026-02-30T00:00:00Z']],
      ['timestamptz', ['2026-11-28T24:00:00Z']],
      ['timestamptz', ['2026-11-28T07:00:00+24:00']],
      ['date', ['28/11/2026']],
      ['text', [1]],
      ['bytea', ['0708']],
    ] as [ElementType, unknown[]][]) {
      assert.equal(encodeBinaryArray(type, values), undefined, `${JSON.stringify(values)} as ${type}[]`);
    }
    // Days are judged one at a time, whatever was judged just before (the judging remembers its last day).
    assert.ok(encodeBinaryArray('date', ['2026-02-28']));
    assert.equal(encodeBinaryArray('date', ['2026-02-28', '2026-02-30']), undefined);
    assert.equal(
      encodeBinaryArray('timestamptz', ['2026-02-28T00:00:00Z', '2026-02-30T00:00:00Z', '2026-02-28T00:00:00Z']),
      undefined,
    );
    assert.ok(encodeBinaryArray('timestamptz', ['2026-02-28T00:00:00Z', '2026-02-28T00:00:00Z']));
    // Through the store: a zone-less time and microseconds reach the server as the text they are.
    const rows = await t.db.query<{ v: string }>(`SELECT v::text FROM unnest($1::timestamptz[]) AS v`, [
      ['2026-11-28T07:00:00.123456Z'],
    ]);
    assert.equal(rows[0]!.v, '2026-11-28 07:00:00.123456+00');
    await assert.rejects(
      t.db.query(`SELECT unnest($1::bigint[])`, [['twelve']]),
      /invalid input syntax for type bigint/,
    );
  });

  test('through the store: a set write of every type reads back as sent', async () => {
    const sql = `SELECT a.i, a.n, a.s, a.t::text AS t, a.d::text AS d
                 FROM unnest($1::bigint[], $2::int[], $3::text[], $4::timestamptz[], $5::date[]) AS a(i, n, s, t, d) ORDER BY a.i`;
    const rows = await t.db.query(sql, [
      [1, 2],
      [7, null],
      ['ü "x"', null],
      ['2026-11-28T07:00:00.000Z', null],
      ['2026-11-28', '1999-01-01'],
    ]);
    assert.deepEqual(rows, [
      { i: 1, n: 7, s: 'ü "x"', t: '2026-11-28 07:00:00+00', d: '2026-11-28' },
      { i: 2, n: null, s: null, t: null, d: '1999-01-01' },
    ]);
  });
});
