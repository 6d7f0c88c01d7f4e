import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../index.ts';
import { Tables } from './fields.ts';
import { codeUnitReader } from '../text/code-units.ts';

const found = (text: string, type: string) =>
  scan(text)
    .findings.filter((f) => f.type === type)
    .map((f) => text.slice(f.start, f.end));

const rows = (n: number, cell: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => `${i + 1},${cell(i)},OH`).join('\n');

describe("a value's field names it when its context word is far (numbers/fields.ts)", () => {
  it("every row of a table's column is read with its header, however far down", () => {
    const ssns = ['536228726', '478509441', '431747691', '507035115', '265818802', '301224567', '412337788'];
    const csv = `id,ssn,state\n${rows(7, (i) => ssns[i]!)}\n`;
    assert.deepEqual(found(csv, 'US_SSN'), ssns);
    const md = `| id | SSN | state |\n|---|---|---|\n${ssns.map((s, i) => `| ${i} | ${s} | OH |`).join('\n')}`;
    assert.deepEqual(found(md, 'US_SSN'), ssns);
    const tsv = `id\tphone\tcity\n${['2025550143', '3125550178', '4155550123', '6175550199', '2065550111'].map((p, i) => `${i}\t${p}\tx`).join('\n')}`;
    assert.equal(found(tsv, 'PHONE_NUMBER').length, 5);
  });

  it('a column whose header names something else says nothing', () => {
    const csv = `id,amount,state\n${rows(7, (i) => String(536228726 + i * 1111))}\n`;
    assert.deepEqual(found(csv, 'US_SSN'), []);
    // a row with another number of cells ends the table
    assert.deepEqual(found('id,ssn\n1,2\nnote: the totals follow\n\n\n\n\n\nref 536228726', 'US_SSN'), []);
  });

  it('a label longer than the window before the value still names it', () => {
    assert.deepEqual(found('Social Security Number of the primary account holder: 265818802', 'US_SSN'), ['265818802']);
    assert.deepEqual(found('Order reference of the primary account holder on file: 265818802', 'US_SSN'), []);
  });

  it('S.S. No. names an SSN', () => {
    assert.deepEqual(found('S.S. No. 542036329', 'US_SSN'), ['542036329']);
    assert.deepEqual(found('S.S. No. 714-38-4100', 'US_SSN'), ['714-38-4100']);
  });

  it("the header cell over a row's cell, in CSV and pipe tables", () => {
    const text = 'id,ssn,state\n1,536228726,OH\n';
    const t = new Tables(text, codeUnitReader()(text).slice());
    const h = t.headerOf(text.indexOf('536'));
    assert.deepEqual(h && text.slice(h[0], h[1]), 'ssn');
    const md = '| id | ssn |\n|---|---|\n| 1 | 536228726 |';
    const h2 = new Tables(md, codeUnitReader()(md).slice()).headerOf(md.indexOf('536'));
    assert.deepEqual(h2 && md.slice(h2[0], h2[1]), 'ssn');
    assert.equal(t.headerOf(3), undefined);
  });
});
