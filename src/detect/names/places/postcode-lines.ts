// The town of an address block's postcode line: a line that holds a postcode and a capitalised name only
// ("0610 Viktring", "33714 Mundolsheim", "1017 GC Amsterdam", "R5V 5J0 Windsor", "00-950 Warszawa"),
// under a line with a house number, is the town of the address above it: a LOCATION of its own (the set's
// and the shared corpus's convention), and the street ends on its own line.
//
// Bounded: one indexOf per line; a sticky regex on a line that starts with a digit or a capital, which reads
// that line, and at most 80 code units of the line before.

import * as namesPlaceCues from './cues.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { nameLooksLikePlace } = namesPlaceCues;

/** A newline, a postcode (many countries' shapes), and a capitalised name up to the line's end. */
const POSTCODE_LINE_AT =
  /[ \t]{0,4}(?:[A-Z]{1,2}-)?(?:\d{4,5}(?:[ \t]?[A-Z]{2}(?=[ \t]))?|\d{3}[ \t]\d{2}|\d{2}-\d{3}|\d{4}-\d{3}|[A-Z]\d[A-Z][ \t]\d[A-Z]\d)[ \t]{1,3}([\p{Lu}][\p{L}\p{M}'’.-]{1,30}(?:[ \t](?:[\p{Lu}][\p{L}\p{M}'’.-]{1,30}|de|la|del|di|du|le|les|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al|bei|ob)){0,4})[ \t]*(?=\r?\n|$)/uy;

/**
 * The town on the line after the newline at `nl`, when that line is a postcode line under a line with a house
 * number: its [start, end) pushed to `towns`, the line's start to `lineStarts`.
 */
export function postcodeLineAt(text: string, nl: number, towns: number[], lineStarts: number[]): void {
  // a postcode starts with a digit or a capital (after up to 4 spaces): "A-1234", "AB-12345", "R5V 5J0"
  let a = nl + 1;
  while (a < text.length && a - nl <= 4 && (text.charCodeAt(a) === 32 || text.charCodeAt(a) === 9)) a++;
  const c0 = text.charCodeAt(a);
  if (!(
    (c0 >= 48 && c0 <= 57) ||
    (c0 >= 65 && c0 <= 90 && mayBeLetterPostcode(text.charCodeAt(a + 1), text.charCodeAt(a + 2)))
  ))
    return;
  POSTCODE_LINE_AT.lastIndex = nl + 1;
  const m = POSTCODE_LINE_AT.exec(text);
  if (!m) return;
  // the line before: letters and a number, at most 80 code units
  let ls = nl;
  let digit = false;
  let letter = false;
  while (ls > 0 && text.charCodeAt(ls - 1) !== 10 && nl - ls <= 80) {
    const c = text.charCodeAt(--ls);
    if (c >= 48 && c <= 57) digit = true;
    else if ((c | 32) >= 97 && (c | 32) <= 122) letter = true;
  }
  if (!digit || !letter || nl - ls > 80) return;
  const v = m[1]!;
  if (!nameLooksLikePlace(v, true)) return;
  const s = m.index + m[0].length - v.length - (m[0].length - m[0].trimEnd().length);
  towns.push(s, s + v.length);
  lineStarts.push(nl + 1);
}

function mayBeLetterPostcode(c1: number, c2: number): boolean {
  return c1 === 45 || (c1 >= 48 && c1 <= 57) || (c1 >= 65 && c1 <= 90 && c2 === 45);
}
