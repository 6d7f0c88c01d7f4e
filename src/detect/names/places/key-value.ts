// KEY_VALUE_RE (`"city": "Lyon"`, `street=…`) reproduced by char codes: the regex retried its lazy value at
// each of up to 80 characters.

import * as chars from '../../text/chars.ts';
import * as namesAddressRules from './address-rules.ts';
import * as namesSticky from '../sticky.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { APOSTROPHE, CLOSE_BRACE, COMMA, isJsSpace: isSpace, LF, QUOTE } = chars;
const { KEY_PREFIX_AT, KEY_VALUE_AT, WHOLE_WORD_KEYS } = namesAddressRules;
const { execAt } = namesSticky;

/**
 * KEY_VALUE_RE at the candidate starts, as execAt runs it: `each(key, value start, value end)`. Its key part is
 * matched by KEY_PREFIX_AT (no backtracking into it can help: the keys differ right after the shorter one); its
 * value, which the regex tried again after each of its up to 80 characters, by char codes. On a text with
 * surrogates (the regex counts code points), the regex itself.
 */
export function keyValuesAt(
  text: string,
  starts: readonly number[],
  astral: boolean,
  each: (key: string, vs: number, ve: number) => void,
  structured?: (key: string, sepEnd: number) => void,
): void {
  if (astral) {
    execAt(KEY_VALUE_AT, text, starts, (m) => {
      if (WHOLE_WORD_KEYS.has(m[1]!.toLowerCase()) && m.index > 0 && /\p{L}/u.test(text[m.index - 1]!)) return;
      const vs = m.index + m[0].lastIndexOf(m[2]!);
      each(m[1]!, vs, vs + m[2]!.length);
    });
    return;
  }
  let from = 0;
  for (const p of starts) {
    if (p < from) continue;
    from = p + 1;
    KEY_PREFIX_AT.lastIndex = p;
    const m = KEY_PREFIX_AT.exec(text);
    if (!m) continue;
    if (WHOLE_WORD_KEYS.has(m[1]!.toLowerCase()) && p > 0 && /\p{L}/u.test(text[p - 1]!)) continue;
    // a list, an object or a block after the key (`"stops": [`, `"destination": {`, "cities:\n  - …")
    if (structured && opensStructure(text, p + m[0].length)) structured(m[1]!, p + m[0].length);
    if (!keyValueAfter(text, p + m[0].length)) continue;
    each(m[1]!, kv.start, kv.end);
    // (a key with nothing on its line, "office:\n  city: Lyon", does not hide the keys of the lines below)
    if (!lineBreakBetween(text, p + m[0].length, kv.start)) from = kv.matchEnd;
  }
}

/** Does a "[", a "{" or a line's end follow the separator that ends at q (after spaces)? */
function opensStructure(text: string, q: number): boolean {
  while (q < text.length && (text.charCodeAt(q) === 32 || text.charCodeAt(q) === 9)) q++;
  const c = text.charCodeAt(q);
  return c === 91 || c === 123 || c === 10 || c === 13;
}

function lineBreakBetween(text: string, a: number, b: number): boolean {
  for (let q = a; q < b; q++) if (text.charCodeAt(q) === LF) return true;
  return false;
}

/** Does `name=` start at r (the next pair of "city=Bitin country=Kuwait": KEY_VALUE_RE's `[ \t]+[\w.-]{1,40}=`)? */
function keyFollows(text: string, r: number): boolean {
  let q = r;
  while (q < text.length && q - r <= 40) {
    const u = text.charCodeAt(q);
    if (u === 61) return q > r;
    if (!((u >= 48 && u <= 57) || ((u | 32) >= 97 && (u | 32) <= 122) || u === 95 || u === 46 || u === 45))
      return false;
    q++;
  }
  return false;
}

/** What closes a value besides a comma and a line's end: "}", and a call's ")", a list's "]", a ";" (`get_weather(city="Lyon")`). */
function isCloser(c: number): boolean {
  return c === CLOSE_BRACE || c === 41 || c === 93 || c === 59;
}

/** The value keyValueAfter found: [start, end), and the end of the whole match (after a closing quote). */
const kv = { start: 0, end: 0, matchEnd: 0 };

/** KEY_VALUE_RE's `\s*["']?([^"'\n,]{2,80}?)["']?(?=\s*[,}\n]|$)` at a (a text without surrogates), into kv. */
function keyValueAfter(text: string, a: number): boolean {
  const n = text.length;
  let b = a;
  while (b < n && isSpace(text.charCodeAt(b))) b++;
  // \s* gives back one space at a time; a value has no quote, so a quote after the spaces must be taken
  for (let c = b; c >= a; c--) {
    const q = text.charCodeAt(c);
    if (keyValueFrom(text, q === QUOTE || q === APOSTROPHE ? c + 1 : c)) return true;
  }
  return false;
}

/** The shortest value from vs (2 to 80 characters other than quotes, newline and comma) that an end can follow, into kv. */
function keyValueFrom(text: string, vs: number): boolean {
  const n = text.length;
  const max = Math.min(n, vs + 80);
  let dead = 0; // spaces up to here cannot end a value
  let p = vs;
  for (; p < max; p++) {
    const u = text.charCodeAt(p);
    if (u === QUOTE || u === APOSTROPHE || u === LF || u === COMMA) break;
    // inside the value's characters, only "}" or spaces (up to a newline, "," or "}") can end it
    if (p - vs < 2 || p < dead || (!isCloser(u) && !isSpace(u))) continue;
    if (!isCloser(u)) {
      let r = p;
      let c = 0;
      while (r < n && isSpace((c = text.charCodeAt(r))) && c !== LF) r++;
      if (r >= n || (c !== LF && c !== COMMA && !isCloser(c) && !(r > p && keyFollows(text, r)))) {
        dead = r;
        continue;
      }
    }
    kv.start = vs;
    kv.end = kv.matchEnd = p;
    return true;
  }
  // the first character the value cannot take (or none)
  const e = p - vs >= 2 ? keyValueEndAt(text, p) : -1;
  if (e < 0) return false;
  kv.start = vs;
  kv.end = p;
  kv.matchEnd = e;
  return true;
}

/** After a value ending at p: an optional quote, then `(?=\s*[,}\n]|$)`; the match's end, or -1. */
function keyValueEndAt(text: string, p: number): number {
  const u = text.charCodeAt(p);
  // (without a quote there, the look-ahead would fail at it)
  const e = u === QUOTE || u === APOSTROPHE ? p + 1 : p;
  const n = text.length;
  if (e === n) return e;
  for (let q = e; q < n; q++) {
    const c = text.charCodeAt(q);
    if (c === LF) return e;
    // (or the next pair of a log line after a quoted value: `city="Itapevi" country="Chile"`, as KEY_VALUE_RE's `[ \t]+[\w.-]{1,40}=`)
    if (!isSpace(c)) return c === COMMA || isCloser(c) || (q > e && keyFollows(text, q)) ? e : -1;
  }
  return -1;
}
