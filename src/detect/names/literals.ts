// Literal lists (cue words, honorifics, street types, place cues, keys, address cues) keyed by two code units,
// for the candidate scan's prefilter.

import * as chars from '../text/chars.ts';
import * as namesAddressRules from './places/address-rules.ts';
import * as namesPersonRules from './person-rules.ts';
import * as namesPlaceHeads from './places/heads.ts';
import * as namesSticky from './sticky.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { APOSTROPHE, isAsciiUpper, QUOTE } = chars;
const { LOCATION_KEYS, NUM_SUFFIXES, PLACE_CUES, STRONG_PLACE_CUES } = namesAddressRules;
const { CUE_KEYS, HONORIFIC_WORDS } = namesPersonRules;
const { PLACE_HEADS } = namesPlaceHeads;
const { pushAscending } = namesSticky;

/** A code unit of the folded text as a 7-bit key (code units that differ may share a key: lists are only a prefilter). */
function keyUnit(c: number): number {
  return c < 128 ? (c | 32) & 127 : c & 127;
}
/** keyUnit of the folded text at i. */
export function keyAt(t: Uint16Array, lo: string, i: number): number {
  const u = t[i]!;
  return u < 128 ? (u | 32) & 127 : lo.charCodeAt(i) & 127;
}
export const pairKey = (a: number, b: number) => (a << 7) | b;

interface Literal {
  w: string;
  kind: number;
}
/** Literals by the key of their first (or last) two code units, and a flag table of the keys' kinds. */
interface LiteralTable {
  lists: (Literal[] | undefined)[];
  kinds: Uint8Array;
}
function newTable(): LiteralTable {
  return { lists: new Array<Literal[] | undefined>(1 << 14).fill(undefined), kinds: new Uint8Array(1 << 14) };
}
function addLiteral(table: LiteralTable, key: number, w: string, kind: number): void {
  (table.lists[key] ??= []).push({ w, kind });
  table.kinds[key]! |= kind;
}

// what a word start may begin
export const W_CUE = 1; // a cue word of CUE_SCAN_RE
export const W_HONORIFIC = 2; // an honorific, then "." or a space
const W_STREET = 4; // a street type of CONT_STREET_RE or a unit of MIL_RE, then a space (not after a digit)
/** The code units of \s (keyUnit'ed): what may follow an honorific or a street type. */
const SPACE_KEYS = [
  9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
  0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
].map(keyUnit);
export const WORD_STARTS = (() => {
  const table = newTable();
  const add = (w: string, kind: number) => {
    // a one-letter honorific ("M."): keyed by what may follow it
    const seconds = w.length > 1 ? [keyUnit(w.charCodeAt(1))] : [46, ...SPACE_KEYS];
    for (const k of seconds) addLiteral(table, pairKey(keyUnit(w.charCodeAt(0)), k), w, kind);
  };
  const cues =
    "my name|name|called|call me|i am|i'm|this is|signed|regards|sincerely|dear|hi|hello|according to|laut|selon|según|segundo|secondo|volgens|grüßen|grüssen|cordialement|saludos|atenciosamente|cordiali saluti|groet|contact|holder|customer|patient|employee|candidate|applicant|soy|me llamo|mi nombre es|ich bin|ich heiße|mein name ist|je m'appelle|je suis|change it to|accounts with|kid|son|daughter|wife|husband|says|commenter|author|speaker|from the desk of|attn|c/o|last|first|full|sur|given|family|ship|send|deliver|mail|forward|address|write|schicken|senden|liefern|envoyer|envoyez|enviar|envíe|envie|spedire".split(
      '|',
    );
  // (a cue that starts with another one adds no start)
  for (const w of cues) if (!cues.some((v) => v !== w && w.startsWith(v))) add(w, W_CUE);
  for (const w of HONORIFIC_WORDS.split('|')) add(w, W_HONORIFIC);
  for (const w of [
    'rue',
    'rua',
    'via',
    'calle',
    'avenida',
    'av.',
    'chemin',
    'boulevard',
    'piazza',
    'plaza',
    'carrer',
    'viale',
    'corso',
    'praça',
    'ulica',
    'ul.',
    'strada',
    'psc',
    'unit',
    'cmr',
  ])
    add(w, W_STREET);
  return table;
})();
/**
 * By the first three code units of a word start (keyUnit'ed, the first one a-z, the others folded to 5 bits so
 * that the table stays small: a prefilter): what the fourth may be for a literal of WORD_STARTS to start there.
 * 0: nothing starts there; ANY_FOURTH: any code unit; else its 5 bits + 1.
 */
export const ANY_FOURTH = 255;
export const WORD_START4 = (() => {
  const table = new Uint8Array(26 << 10);
  const any = Array.from({ length: 128 }, (_, k) => k);
  WORD_STARTS.lists.forEach((list, key) => {
    for (const { w, kind } of list ?? []) {
      // after a short literal, any code unit; after an honorific, "." or a space
      const after = kind === W_HONORIFIC ? [46, ...SPACE_KEYS] : any;
      const thirds = w.length > 2 ? [keyUnit(w.charCodeAt(2))] : w.length === 2 ? after : any;
      const fourths = w.length > 3 ? [keyUnit(w.charCodeAt(3))] : w.length === 3 ? after : any;
      const v = fourths.length === 1 ? (fourths[0]! & 31) + 1 : ANY_FOURTH;
      for (const k2 of thirds) {
        const at = start3(key >> 7, key & 127, k2);
        table[at] = table[at] === 0 || table[at] === v ? v : ANY_FOURTH;
      }
    }
  });
  return table;
})();
export function start3(k0: number, k1: number, k2: number): number {
  return ((k0 - 97) << 10) | ((k1 & 31) << 5) | (k2 & 31);
}

// what may end before a space, or before a key's `:`/`=`/`|`/`,` (and spaces and a quote)
export const E_SUFFIX = 1; // SUFFIX_NUM_RE's street types (before a digit)
export const E_PLACE = 2; // PLACE_CUE_RE's cues (before a letter)
export const E_STRONG_PLACE = 4; // STRONG_PLACE_RE's cues (before a letter)
export const E_CUE_KEY = 8; // CUE_SCAN_RE's keys
export const E_LOCATION_KEY = 16; // KEY_VALUE_RE's keys
export const E_PLACE_HEAD = 32; // names/places/heads.ts's nouns of a place (before a letter)
export const WORD_ENDS = (() => {
  const table = newTable();
  const add = (words: readonly string[], kind: number) => {
    for (const w of words)
      addLiteral(table, pairKey(keyUnit(w.charCodeAt(w.length - 1)), keyUnit(w.charCodeAt(w.length - 2))), w, kind);
  };
  add(NUM_SUFFIXES, E_SUFFIX);
  add(PLACE_CUES, E_PLACE);
  add(STRONG_PLACE_CUES, E_STRONG_PLACE);
  add(CUE_KEYS, E_CUE_KEY);
  add(LOCATION_KEYS, E_LOCATION_KEY);
  add(PLACE_HEADS, E_PLACE_HEAD);
  return table;
})();

/** ADDRESS_CUE_RE's cues (they may start inside a word), with the letters of their first word (1 << (code & 31)). */
export const ADDRESS_CUES = [
  'address',
  'adresse',
  'adres',
  'dirección',
  'direccion',
  'indirizzo',
  'endereço',
  'anschrift',
  'vivo en',
  'wohne in',
  'live at',
  'lives at',
  'located at',
  'moved to',
].map((w) => {
  let letters = 0;
  for (const ch of w) {
    if (ch < 'a' || ch > 'z') break;
    letters |= 1 << (ch.charCodeAt(0) & 31);
  }
  return { w, letters };
});
export const ADDRESS_CUE_LETTERS = Int32Array.from(ADDRESS_CUES, (c) => c.letters);
/** By a word's letters l to w (bits 12 to 23 of its mask): the address cues (bit k: ADDRESS_CUES[k]) whose letters there it has. */
export const ADDRESS_CUES_BY_LW = (() => {
  const table = new Uint16Array(4096);
  for (let m = 0; m < 4096; m++) {
    for (let k = 0; k < ADDRESS_CUES.length; k++) {
      const need = (ADDRESS_CUE_LETTERS[k]! >>> 12) & 0xfff;
      if ((m & need) === need) table[m]! |= 1 << k;
    }
  }
  return table;
})();
/** Each address cue has one of the letters d, f, v, w. */
export const ADDRESS_LETTERS = (1 << (100 & 31)) | (1 << (102 & 31)) | (1 << (118 & 31)) | (1 << (119 & 31));

/** Does the folded text hold the literal (lower case) at i? */
export function foldedHas(t: Uint16Array, lo: string, i: number, w: string): boolean {
  if (i < 0 || i + w.length > t.length) return false;
  for (let j = 0; j < w.length; j++) {
    let u = t[i + j]!;
    if (u >= 128) u = lo.charCodeAt(i + j);
    else if (isAsciiUpper(u)) u |= 32;
    if (u !== w.charCodeAt(j)) return false;
  }
  return true;
}

/** Starts of the literals of the given kinds that end at `end` in the folded text, each also one further back after a quote when `quoted`. */
export function endingAt(t: Uint16Array, lo: string, end: number, kinds: number, quoted: boolean, out: number[]): void {
  if (end < 2) return;
  const key = pairKey(keyAt(t, lo, end - 1), keyAt(t, lo, end - 2));
  if ((WORD_ENDS.kinds[key]! & kinds) === 0) return;
  for (const { w, kind } of WORD_ENDS.lists[key]!) {
    if ((kind & kinds) === 0) continue;
    const s = end - w.length;
    if (!foldedHas(t, lo, s, w)) continue;
    if (quoted && s > 0 && (t[s - 1] === QUOTE || t[s - 1] === APOSTROPHE)) pushAscending(out, s - 1);
    pushAscending(out, s);
  }
}
