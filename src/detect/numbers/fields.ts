// Where a value's context words stand when they are not in the few chars before it: the label of the
// value's line when the label is long ("Social Security Number of the primary account holder: 265818802"),
// and the header of the value's column in a table (CSV, TSV, semicolon- or pipe-separated rows: "id,ssn"
// over rows whose cells hold the numbers, however many rows down). A field says what its value is, and
// so does a column's header; the scan (numbers/scan.ts) reads them when the window before a value holds
// no context word.
//
// Bounded: the tables are found once per text (the text's first line and the lines after a blank line or a
// code fence may head one; every line after a header is read once), and a value's column is counted in at
// most MAX_LINE chars back from it.

import * as charsModule from '../text/chars.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { APOSTROPHE, COLON, CR, EQUALS, LF, QUOTE, SPACE, TAB } = charsModule;

/** A label longer than this, or a row longer than this, is not read. */
const MAX_LINE = 400;
/** At most this many header lines are tried per text. */
const MAX_HEADERS = 64;
const PIPE = 124;

/** One table: its rows [rowsStart, rowsEnd), its separator and the [start, end) of each header cell. */
interface Table {
  rowsStart: number;
  rowsEnd: number;
  sep: number;
  cells: Int32Array;
}

/** A label longer than this is not read. */
const MAX_LABEL = 120;
/** A header cell longer than this names no column. */
const MAX_HEADER_CELL = 48;

/**
 * The label of a value at `start` ("Label of any length: value", "label = value") as [line start, colon):
 * when a colon or "=" ends it (after at most three spaces or quotes), it is the line's only label (no
 * digit, colon or "=" in it) and at most MAX_LABEL chars. Reading back stops at the first digit, so the
 * labels of the values of one line are read once in all.
 */
export function labelBefore(units: Uint16Array, start: number): [number, number] | undefined {
  let p = start - 1;
  for (let k = 0; k < 3 && p >= 0 && (units[p] === SPACE || units[p] === QUOTE || units[p] === APOSTROPHE); k++) p--;
  if (p < 0 || (units[p] !== COLON && units[p] !== EQUALS)) return undefined;
  const min = Math.max(0, p - MAX_LABEL);
  let ls = p;
  for (; ls > min; ls--) {
    const c = units[ls - 1]!;
    if (c === LF) break;
    if ((c >= 48 && c <= 57) || c === COLON || c === EQUALS) return undefined;
  }
  if (ls > 0 && units[ls - 1] !== LF) return undefined;
  return [ls, p];
}

/** The tables of one text, found on first use. */
export class Tables {
  private readonly text: string;
  private readonly units: Uint16Array;
  private tables: Table[] | undefined;

  constructor(text: string, units: Uint16Array) {
    this.text = text;
    this.units = units;
  }

  /** The [start, end) of the header cell over the table cell that holds `pos`, if `pos` is in a table's row. */
  headerOf(pos: number): [number, number] | undefined {
    // the rules of one window ask for the same position in turn
    if (pos !== this.lastPos) {
      this.lastPos = pos;
      this.lastHeader = this.header(pos);
    }
    return this.lastHeader;
  }

  private lastPos = -1;
  private lastHeader: [number, number] | undefined;

  private header(pos: number): [number, number] | undefined {
    const tables = (this.tables ??= this.find());
    if (tables.length === 0) return undefined;
    // the last table starting at or before pos (few tables: a linear walk from the end is bounded by 64)
    let t: Table | undefined;
    for (let i = tables.length - 1; i >= 0; i--)
      if (tables[i]!.rowsStart <= pos) {
        t = tables[i];
        break;
      }
    if (!t || pos >= t.rowsEnd) return undefined;
    const units = this.units;
    let col = 0;
    let p = pos - 1;
    const min = Math.max(t.rowsStart, pos - MAX_LINE);
    for (; p >= min && units[p] !== LF; p--) if (units[p] === t.sep) col++;
    // the line is longer than MAX_LINE before pos: not read
    if (p < min && min > t.rowsStart) return undefined;
    // a pipe table's rows start with "|": its first cell is the one after it
    if (t.sep === PIPE && this.startsWithPipe(p + 1)) col--;
    if (col < 0 || 2 * col + 1 >= t.cells.length) return undefined;
    const a = t.cells[2 * col]!;
    const b = t.cells[2 * col + 1]!;
    return b > a && b - a <= MAX_HEADER_CELL ? [a, b] : undefined;
  }

  private startsWithPipe(ls: number): boolean {
    let q = ls;
    while (q < this.units.length && (this.units[q] === SPACE || this.units[q] === TAB)) q++;
    return this.units[q] === PIPE;
  }

  private find(): Table[] {
    const { text, units } = this;
    const out: Table[] = [];
    if (text.indexOf('\n') < 0) return out;
    let done = 0;
    for (const at of headerLines(text)) {
      if (at < done) continue;
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      if (end - at > MAX_LINE) continue;
      const sep = separatorOf(units, at, end);
      if (sep < 0) continue;
      const cells = cellsOf(units, at, end, sep);
      if (cells.length < 4) continue;
      const seps = countOf(units, at, end, sep);
      // the rows: while they have the header's number of separators (a Markdown rule line is one of them)
      let pos = end + 1;
      let rowsEnd = pos;
      while (pos < text.length) {
        let le = text.indexOf('\n', pos);
        if (le < 0) le = text.length;
        if (le === pos || le - pos > MAX_LINE || countOf(units, pos, le, sep) !== seps) break;
        rowsEnd = le;
        pos = le + 1;
      }
      if (rowsEnd > end + 1) out.push({ rowsStart: end + 1, rowsEnd, sep, cells: Int32Array.from(cells) });
      done = pos;
    }
    return out;
  }
}

/** Starts of the lines that may head a table: the first, and those after a blank line or a code fence. */
function headerLines(text: string): number[] {
  const out = [0];
  for (let p = text.indexOf('\n\n'); p >= 0 && out.length < MAX_HEADERS; p = text.indexOf('\n\n', p + 2))
    out.push(p + 2);
  for (let p = text.indexOf('```'); p >= 0 && out.length < 2 * MAX_HEADERS; p = text.indexOf('```', p + 3)) {
    const nl = text.indexOf('\n', p);
    if (nl < 0) break;
    out.push(nl + 1);
    p = nl - 2;
  }
  return out.sort((a, b) => a - b);
}

function countOf(units: Uint16Array, a: number, b: number, c: number): number {
  let k = 0;
  for (let i = a; i < b; i++) if (units[i] === c) k++;
  return k;
}

/** The separator of a header line: the one of tab, "|", ";", "," it has most of (at least one); -1 if none. */
function separatorOf(units: Uint16Array, a: number, b: number): number {
  let best = -1;
  let n = 0;
  for (const sep of [TAB, PIPE, 59 /* ; */, 44 /* , */]) {
    const k = countOf(units, a, b, sep);
    if (k > n) {
      n = k;
      best = sep;
    }
  }
  return best;
}

/** The [start, end) of each cell of [a, b), spaces and quotes trimmed; a pipe row's leading "|" opens no cell. */
function cellsOf(units: Uint16Array, a: number, b: number, sep: number): number[] {
  const out: number[] = [];
  let s = a;
  if (sep === PIPE) {
    while (s < b && (units[s] === SPACE || units[s] === TAB)) s++;
    if (units[s] === PIPE) s++;
  }
  for (let i = s; i <= b; i++) {
    if (i < b && units[i] !== sep) continue;
    let x = s;
    let y = i;
    while (x < y && isTrim(units[x]!)) x++;
    while (y > x && isTrim(units[y - 1]!)) y--;
    out.push(x, y);
    s = i + 1;
  }
  return out;
}

function isTrim(c: number): boolean {
  return c === SPACE || c === TAB || c === QUOTE || c === APOSTROPHE || c === CR;
}
