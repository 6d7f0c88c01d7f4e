// The named-entity model's tokenizer: words (letters, marks and digits, with inner apostrophes and
// hyphens: "O'Brien", "Jean-Pierre"; abbreviations: "U.S"), single ideographs and kana (Chinese and Japanese are
// written without spaces; the corpora label them per character run, and a character is the only unit a
// dictionary-free tokenizer can cut them into), and single other visible characters. Offsets index the
// original string, so a span of tokens is a span of the text.

// one global regex, each match one token: an ideograph or kana; an abbreviation of short parts joined by
// periods ("U.S.A", "e.g", "3.5"; a period between longer parts is a sentence end missing its space);
// an initial with its period ("M." in "Richard M. Nixon": not a sentence end); a word with inner
// apostrophes or hyphens, but for a possessive or clitic "'s" ("Anna's", "Here's"), a token of its own;
// any other visible character. Bounded backtracking only.
const W = String.raw`[[\p{L}\p{M}\p{N}]--[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]]`;
const TOKEN_RE = new RegExp(
  String.raw`[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|${W}{1,3}(?:\.${W}{1,3})+(?!${W})|\p{Lu}\.(?!${W})|${W}+(?:(?:['’](?![sS](?!${W}))|-)${W}+)*|['’][sS](?!${W})|[^\s\p{L}\p{M}\p{N}]`,
  'gv',
);

export interface Tokens {
  /** Number of tokens. */
  n: number;
  starts: Int32Array;
  ends: Int32Array;
}

/** Tokens of text[from, to), offsets into `text`. At most `max` tokens (the rest of the range is left). */
export function tokenize(text: string, from = 0, to = text.length, max = 1 << 20): Tokens {
  const slice = from === 0 && to === text.length ? text : text.slice(from, to);
  let starts = new Int32Array(Math.min(max, 64));
  let ends = new Int32Array(starts.length);
  let n = 0;
  TOKEN_RE.lastIndex = 0;
  for (let m = TOKEN_RE.exec(slice); m !== null && n < max; m = TOKEN_RE.exec(slice)) {
    if (n === starts.length) {
      const s2 = new Int32Array(Math.min(max, n * 2));
      const e2 = new Int32Array(s2.length);
      s2.set(starts);
      e2.set(ends);
      starts = s2;
      ends = e2;
    }
    starts[n] = from + m.index;
    ends[n] = from + m.index + m[0].length;
    n++;
  }
  return { n, starts, ends };
}
