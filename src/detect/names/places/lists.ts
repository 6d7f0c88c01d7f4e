// Places a place key holds in structure rather than as its value on the same line: a JSON array or a YAML
// list of names (`"stops": ["Obing", "Plön"]`, "cities:\n  - Nenagh\n  - Castelnovo"), and an object or a
// YAML block whose "name" is the place (`"destination": {"name": "Kāndri"}`, "destination:\n  name: Kāndri").
// The key says what the items are, so a town that is also a first name counts.
//
// Bounded: at most 16 items of at most 80 characters, read once after the key's separator.

import * as namesPlaceCues from './cues.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { nameLooksLikePlace } = namesPlaceCues;

const JSON_ITEM_AT = /[ \t\r\n]*"([^"\n]{2,80})"[ \t\r\n]*([,\]])/y;
const YAML_ITEM_AT = /\n([ \t]*)-[ \t]+["']?([^"'\n#]{2,80}?)["']?[ \t]*(?=\r?\n|$)/y;
const NESTED_NAME_AT =
  /(?:[ \t]*\{[ \t\r\n]*"name"[ \t]*:[ \t]*"([^"\n]{2,80})"|[ \t]*\r?\n[ \t]+name[ \t]*:[ \t]*["']?([^"'\n#]{2,80}?)["']?[ \t]*(?=\r?\n|$))/y;

/** The places held after the separator of a place key that ends at `sepEnd` (after its ":" or "="): `each(start, end)`. */
export function placesInStructure(text: string, sepEnd: number, each: (s: number, e: number) => void): void {
  let p = sepEnd;
  while (p < text.length && (text.charCodeAt(p) === 32 || text.charCodeAt(p) === 9)) p++;
  const c = text.charCodeAt(p);
  if (c === 91) {
    // a JSON array of strings
    let q = p + 1;
    for (let k = 0; k < 16; k++) {
      JSON_ITEM_AT.lastIndex = q;
      const m = JSON_ITEM_AT.exec(text);
      if (!m) return;
      const v = m[1]!;
      const s = q + m[0].indexOf('"') + 1;
      if (nameLooksLikePlace(v, true) && /^\p{Lu}/u.test(v)) each(s, s + v.length);
      if (m[2] === ']') return;
      q += m[0].length;
    }
    return;
  }
  if (c === 10 || c === 13) {
    // a YAML list under the key
    let q = c === 13 ? p + 1 : p;
    for (let k = 0; k < 16; k++) {
      YAML_ITEM_AT.lastIndex = q;
      const m = YAML_ITEM_AT.exec(text);
      if (!m) break;
      const v = m[2]!;
      const s = text.lastIndexOf(v, q + m[0].length);
      if (s > q && nameLooksLikePlace(v, true) && /^\p{Lu}/u.test(v)) each(s, s + v.length);
      q += m[0].length;
    }
    if (q !== p && q !== p + 1) return;
  }
  // an object or a block whose "name" is the place
  NESTED_NAME_AT.lastIndex = p;
  const m = NESTED_NAME_AT.exec(text);
  if (!m) return;
  const v = m[1] ?? m[2]!;
  const s = text.lastIndexOf(v, p + m[0].length);
  if (s >= p && nameLooksLikePlace(v, true) && /^\p{Lu}/u.test(v)) each(s, s + v.length);
}
