// Hot statements run as named prepared statements on PostgreSQL (parsed and
// analysed once per connection); a text that varies with the data is not named
// until it repeats, and the names are bounded.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createTestDb, type TestDb } from '../testing/test-db.ts';
import { StatementNames } from './statement-names.ts';

test('a text is named from its third run on, always with the same name', () => {
  const names = new StatementNames();
  assert.equal(names.nameOf('SELECT $1::int'), undefined);
  assert.equal(names.nameOf('SELECT $1::int'), undefined);
  const name = names.nameOf('SELECT $1::int');
  assert.ok(name);
  assert.equal(names.nameOf('SELECT $1::int'), name);
  assert.equal(names.nameOf('SELECT $1::text'), undefined, 'another text is counted on its own');
});

test('at most maxNamed texts are ever named; texts seen once never are', () => {
  const names = new StatementNames(2, 2);
  for (let i = 0; i < 100; i++) assert.equal(names.nameOf(`SELECT ${i} + $1`), undefined);
  const a = names.nameOf('SELECT 1 + $1');
  const b = names.nameOf('SELECT 2 + $1');
  assert.ok(a && b && a !== b);
  names.nameOf('SELECT 3 + $1');
  assert.equal(names.nameOf('SELECT 3 + $1'), undefined, 'the third text stays unnamed');
  assert.equal(names.nameOf('SELECT 1 + $1'), a);
});

describe('on PostgreSQL', { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL' }, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb('postgres');
  });
  after(() => t.dispose());

  test('a repeated statement is prepared on its connection and answers as before', async () => {
    const sql = `SELECT $1::text || '-' || $2::int AS v /* ${randomUUID()} */`;
    const prepared = await t.db.transaction(async (tx) => {
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push((await tx.query<{ v: string }>(sql, ['x', i]))[0]!.v);
      assert.deepEqual(answers, ['x-0', 'x-1', 'x-2', 'x-3', 'x-4']);
      return tx.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE statement = $1', [
        sql,
      ]);
    });
    assert.equal(prepared.length, 1, 'prepared once on the connection, not per run');
  });

  test('an error in a prepared statement is the same error, and the statement still runs afterwards', async () => {
    const sql = `SELECT 1 / $1::int AS v /* ${randomUUID()} */`;
    for (let i = 0; i < 3; i++) await t.db.query(sql, [1]);
    await assert.rejects(t.db.query(sql, [0]), (err: { code?: string }) => err.code === '22012');
    assert.deepEqual(await t.db.query(sql, [1]), [{ v: 1 }]);
  });
});
