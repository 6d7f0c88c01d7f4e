// Classes of code units for the candidate scan: ASCII by a 128-entry table, the BMP's \p{L}, \p{Lu}, \p{Ll}
// by a table built once from the regex classes.

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
// \p{L}, \p{Lu}, \p{Ll} of the BMP, built once from the regex classes
const U_L = 1;
export const U_LU = 2;
export const U_LL = 4;
export const U_ASTRAL_LU = 8; // a lead surrogate of astral upper-case letters
let bmpClasses: Uint8Array | undefined;
/** \p{L}, \p{Lu} and \p{Ll} of every BMP code unit (surrogates: none, see Candidates.countries; but lead surrogates of upper-case letters are marked). */
export function bmpTable(): Uint8Array {
  if (bmpClasses) return bmpClasses;
  const t = new Uint8Array(65536);
  let all = '';
  for (let c = 0; c < 65536; c++) all += c >= 0xd800 && c <= 0xdfff ? ' ' : String.fromCharCode(c);
  for (const [re, bit] of [
    [/\p{L}/gu, U_L],
    [/\p{Lu}/gu, U_LU],
    [/\p{Ll}/gu, U_LL],
  ] as const)
    for (const m of all.matchAll(re)) t[m.index]! |= bit;
  for (let lead = 0xd800; lead <= 0xdbff; lead++) {
    let plane = '';
    for (let trail = 0xdc00; trail <= 0xdfff; trail++) plane += String.fromCharCode(lead, trail);
    if (/\p{Lu}/u.test(plane)) t[lead] = U_ASTRAL_LU;
  }
  bmpClasses = t;
  return t;
}
/** Is the code unit a letter (\p{L}; surrogates are not, see Candidates.countries)? */
export function isLetterUnit(bmp: Uint8Array, u: number): boolean {
  return u < 128 ? ASCII_CLASS[u] === C_LOWER || ASCII_CLASS[u] === C_UPPER : (bmp[u]! & U_L) !== 0;
}

/** Is text[i] a letter (\p{L}; a surrogate is not)? By table, without a regex per character. */
export function letterAt(text: string, i: number): boolean {
  return isLetterUnit(bmpTable(), text.charCodeAt(i));
}

/** Is text[i] an upper-case letter (\p{Lu} of the BMP)? */
export function upperAt(text: string, i: number): boolean {
  const u = text.charCodeAt(i);
  return u < 128 ? ASCII_CLASS[u] === C_UPPER : (bmpTable()[u]! & U_LU) !== 0;
}
