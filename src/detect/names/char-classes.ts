// Classes of code units for the candidate scan: ASCII by a 128-entry table, the BMP's \p{L}, \p{Lu}, \p{Ll}
// by a table filled from the regex classes a block at a time.

// classes of ASCII code units
export const C_LOWER = 1;
export const C_UPPER = 2;
export const C_DIGIT = 3;
export const C_SPACE = 4;
export const C_COMMA = 5;
export const C_KEY = 6; // ':' '='
const C_PIPE = 7;
export const ASCII_CLASS = (() => {
  const t = new Uint8Array(128);
  for (let c = 97; c <= 122; c++) t[c] = C_LOWER;
  for (let c = 65; c <= 90; c++) t[c] = C_UPPER;
  for (let c = 48; c <= 57; c++) t[c] = C_DIGIT;
  for (const c of [9, 10, 11, 12, 13, 32]) t[c] = C_SPACE;
  t[44] = C_COMMA;
  t[58] = C_KEY;
  t[61] = C_KEY;
  t[124] = C_PIPE;
  return t;
})();
// \p{L}, \p{Lu}, \p{Ll} of the BMP, each block of 256 code units classified by the regex classes when a
// code unit of it is first looked up: the whole table cost ~65 ms on first use (the astral planes' upper-case
// letters, one 2,048-unit string per lead surrogate, most of it), and a text reads a few blocks
const U_L = 1;
export const U_LU = 2;
export const U_LL = 4;
export const U_ASTRAL_LU = 8; // a lead surrogate of astral upper-case letters
const UNCLASSIFIED = 0x80;
const BLOCK = 256;
const classes = new Uint8Array(65536).fill(UNCLASSIFIED);
const LETTER_CLASSES = [
  [/\p{L}/gu, U_L],
  [/\p{Lu}/gu, U_LU],
  [/\p{Ll}/gu, U_LL],
] as const;

/** Classifies the block of u (a lead surrogate alone: its 1,024 code points); returns u's classes. */
function classify(u: number): number {
  if (u >= 0xd800 && u <= 0xdbff) {
    // a lead surrogate is marked when a code point it leads is an upper-case letter
    let plane = '';
    for (let trail = 0xdc00; trail <= 0xdfff; trail++) plane += String.fromCharCode(u, trail);
    classes[u] = /\p{Lu}/u.test(plane) ? U_ASTRAL_LU : 0;
    return classes[u]!;
  }
  const from = u & ~(BLOCK - 1);
  if (from >= 0xdc00 && from <= 0xdfff) {
    classes.fill(0, from, from + BLOCK); // a trail surrogate is no letter (see Candidates.countries)
    return 0;
  }
  let block = '';
  for (let c = from; c < from + BLOCK; c++) block += String.fromCharCode(c);
  classes.fill(0, from, from + BLOCK);
  for (const [re, bit] of LETTER_CLASSES) for (const m of block.matchAll(re)) classes[from + m.index]! |= bit;
  return classes[u]!;
}

/** \p{L} (U_L), \p{Lu} (U_LU) and \p{Ll} (U_LL) of a BMP code unit; U_ASTRAL_LU on a lead surrogate of astral upper-case letters. */
export function bmpClass(u: number): number {
  const k = classes[u]!;
  return (k & UNCLASSIFIED) === 0 ? k : classify(u);
}

/** Is the code unit a letter (\p{L}; surrogates are not, see Candidates.countries)? */
export function isLetterUnit(u: number): boolean {
  return u < 128 ? ASCII_CLASS[u] === C_LOWER || ASCII_CLASS[u] === C_UPPER : (bmpClass(u) & U_L) !== 0;
}

/** Is text[i] a letter (\p{L}; a surrogate is not)? By table, without a regex per character. */
export function letterAt(text: string, i: number): boolean {
  return isLetterUnit(text.charCodeAt(i));
}

/** Is text[i] an upper-case letter (\p{Lu} of the BMP)? */
export function upperAt(text: string, i: number): boolean {
  const u = text.charCodeAt(i);
  return u < 128 ? ASCII_CLASS[u] === C_UPPER : (bmpClass(u) & U_LU) !== 0;
}
