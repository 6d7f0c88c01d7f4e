// The town of an address block's postcode line: a line that holds a postcode and a capitalised name only
// ("0610 Viktring", "33714 Mundolsheim", "1017 GC Amsterdam", "R5V 5J0 Windsor", "00-950 Warszawa"),
// under a line with a house number, is the town of the address above it: a LOCATION of its own (the set's
// and the shared corpus's convention), and the street ends on its own line.
//
// Bounded: one regex scan for a newline before a postcode; each match reads its own line and the line before.

import * as namesPlaceCues from "./names-place-cues.ts";
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { nameLooksLikePlace } = namesPlaceCues;

/** A newline, a postcode (many countries' shapes), and a capitalised name up to the line's end. */
const POSTCODE_LINE =
  /\n[ \t]{0,4}(?:[A-Z]{1,2}-)?(?:\d{4,5}(?:[ \t]?[A-Z]{2}(?=[ \t]))?|\d{3}[ \t]\d{2}|\d{2}-\d{3}|\d{4}-\d{3}|[A-Z]\d[A-Z][ \t]\d[A-Z]\d)[ \t]{1,3}([\p{Lu}][\p{L}\p{M}'’.-]{1,30}(?:[ \t](?:[\p{Lu}][\p{L}\p{M}'’.-]{1,30}|de|la|del|di|du|le|les|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al|bei|ob)){0,4})[ \t]*(?=\r?\n|$)/gu;

/** Towns on postcode lines under a line with a house number, as [start, end) pairs (at most 64), and the start of each postcode line. */
export function postcodeLineTowns(text: string): { towns: number[]; lineStarts: number[] } {
  const towns: number[] = [];
  const lineStarts: number[] = [];
  if (text.indexOf("\n") < 0) return { towns, lineStarts };
  POSTCODE_LINE.lastIndex = 0;
  for (let m = POSTCODE_LINE.exec(text); m && towns.length < 128; m = POSTCODE_LINE.exec(text)) {
    // the line before: letters and a number, at most 80 code units
    const nl = m.index;
    let ls = nl;
    let digit = false;
    let letter = false;
    while (ls > 0 && text[ls - 1] !== "\n" && nl - ls <= 80) {
      const c = text.charCodeAt(--ls);
      if (c >= 48 && c <= 57) digit = true;
      else if ((c | 32) >= 97 && (c | 32) <= 122) letter = true;
    }
    if (!digit || !letter || nl - ls > 80) continue;
    const v = m[1]!;
    if (!nameLooksLikePlace(v, true)) continue;
    const s = m.index + m[0].length - v.length - (m[0].length - m[0].trimEnd().length);
    towns.push(s, s + v.length);
    lineStarts.push(nl + 1);
    POSTCODE_LINE.lastIndex = m.index + m[0].length;
  }
  return { towns, lineStarts };
}
