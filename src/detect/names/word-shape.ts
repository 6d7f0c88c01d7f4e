// The case and shape of a word or code unit, as the name rules' Unicode classes read it; ASCII looked at by code.

import * as chars from '../text/chars.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { COMMA, DOT, isAsciiLower, isAsciiUpper, isJsSpace: isSpace } = chars;

/** Is the first character of the token a lower-case letter (one that has an upper case)? */
export function startsLower(t: string): boolean {
  const c = t.charCodeAt(0);
  if (c < 128) return isAsciiLower(c);
  return t[0] === t[0]!.toLowerCase() && t[0] !== t[0]!.toUpperCase();
}

/** /^\p{Lu}/u, with ASCII first characters looked at by code. */
export function startsUpper(t: string): boolean {
  const c = t.charCodeAt(0);
  return c < 128 ? isAsciiUpper(c) : /^\p{Lu}/u.test(t);
}

/** /^[\p{Lu}.]+$/u, with ASCII tokens looked at by code. */
export function allUpper(t: string): boolean {
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k);
    if (c >= 128) return /^[\p{Lu}.]+$/u.test(t);
    if (!(isAsciiUpper(c) || c === DOT)) return false;
  }
  return t.length > 0;
}

/** /\p{Ll}/u, with ASCII words looked at by code. */
export function hasLowerCase(w: string): boolean {
  for (let k = 0; k < w.length; k++) {
    const c = w.charCodeAt(k);
    if (isAsciiLower(c)) return true;
    if (c >= 128) return /\p{Ll}/u.test(w);
  }
  return false;
}

/** /[\s,.]/ of one code unit. */
export function isSpaceCommaOrDot(c: number): boolean {
  return c === COMMA || c === DOT || isSpace(c);
}
