// PERSON: names after cues, names alone on a block's first line, capitalised First [Middle] Last sequences
// of dictionary names. Each rule runs at its candidate starts (names/candidates.ts).

import * as namesCandidates from './candidates.ts';
import * as namesLexicon from './lexicon.ts';
import * as namesSignOffs from './sign-offs.ts';
import * as namesPersonRules from './person-rules.ts';
import * as namesSpans from './spans.ts';
import * as namesSticky from './sticky.ts';
import * as namesWordShape from './word-shape.ts';
import type { Finding } from '../types.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { scanCandidates } = namesCandidates;
const { COMMON_WORDS, loadDicts, norm, PARTICLES } = namesLexicon;
const { signOffNextLines } = namesSignOffs;
const {
  blockFirstLines,
  CAP_SEQ_AT,
  CUE_SCAN_AT,
  HONORIFIC_AFTER_RE,
  isNameLike,
  isNameToken,
  lineEnd,
  mayStartHonorific,
  readNameTokens,
  STRONG_CUE,
} = namesPersonRules;
const { occupied } = namesSpans;
const { execAt } = namesSticky;
const { allUpper, startsUpper } = namesWordShape;

export function detectPersons(text: string, cands = scanCandidates(text)): Finding[] {
  const d = loadDicts();
  const out: Finding[] = [];
  // (a) cue-triggered names: one pass over cue words, then read the name tokens after each cue
  let lastEnd = -1;
  execAt(CUE_SCAN_AT, text, cands.cue, (m) => {
    const pos = m.index + m[0].length;
    if (pos <= lastEnd) return;
    const keyCtx = m[1] !== undefined;
    // "country_name", "tool.name": a compound key whose first word names a thing holds no person's name
    if (keyCtx && thingNameKey(text, m.index)) return;
    const strong = m[3] !== undefined && STRONG_CUE.test(m[3]);
    // "call me Mrs. May": the honorific after a cue is part of the cue
    const honAfter = mayStartHonorific(text.charCodeAt(pos)) ? HONORIFIC_AFTER_RE.exec(text.slice(pos, pos + 8)) : null;
    const hon = m[2] !== undefined || honAfter !== null;
    // a key before "," or "|" is a table's cell ("name,count", "| Name | Role |"): the cell after it is a
    // name only as a capitalised one of two words or a known one (a person's column is read by its header)
    const cell = keyCtx && /[,|]/.test(m[1]!);
    const toks = readNameTokens(text, pos + (honAfter ? honAfter[0].length : 0), 4, keyCtx && !cell, hon);
    if (toks.length === 0) return;
    const s = toks[0]!.start;
    const e = toks[toks.length - 1]!.end;
    // a key's value that goes on as an identifier ("search_flights", "build.gradle", "v2") is none
    if (keyCtx && IDENT_GLUE.has(text.charCodeAt(e)) && e + 1 < text.length && /[\p{L}\p{N}]/u.test(text[e + 1]!))
      return;
    let known = 0;
    let allCaps = true;
    let common = false;
    for (const t of toks) {
      if (isNameToken(t, d)) known++;
      allCaps &&= allUpper(t.text);
      common ||= COMMON_WORDS.has(t.low);
    }
    const capitalised = startsUpper(toks[0]!.text);
    let score: number;
    // a key's value: a name unless it reads as something else — one unknown lower-case word ("lodash",
    // "my-app"), lower-case words among frequent ones ("my app"), or a title that goes on with a
    // capitalised frequent word ("Quarterly Report", the name cut before "Report")
    if (keyCtx)
      score =
        (!capitalised && (common || (toks.length === 1 && known === 0))) || titleGoesOn(text, e)
          ? 0
          : toks.length >= 2
            ? 0.85
            : known > 0
              ? 0.75
              : cell
                ? 0
                : 0.55;
    else if (hon) score = capitalised ? 0.85 : 0;
    else if (allCaps && toks.length < 2) score = 0;
    else if (known > 0) score = toks.length >= 2 || known === toks.length ? 0.8 : 0.5;
    else if (strong && capitalised) score = 0.6;
    else score = toks.length >= 2 && !allCaps && capitalised ? 0.55 : 0;
    if (allCaps && !keyCtx && !hon && known < toks.length) score = 0;
    if (common && !hon && !keyCtx) score -= 0.3;
    if (score >= 0.5) {
      out.push({ type: 'PERSON', start: s, end: e, score });
      lastEnd = e;
    }
  });
  // (a') a name alone on the first line of the text or of a block (signatures, contact cards)
  for (const ls of blockFirstLines(text)) {
    const le = lineEnd(text, ls);
    if (le - ls > 48 || occupied(out, ls, le)) continue;
    const line = text.slice(ls, le).trim();
    const parts = line.split(/\s+/);
    if (parts.length < 2 || parts.length > 4) continue;
    if (!parts.every((p) => /^[\p{L}][\p{L}'’-]*\.?$/u.test(p))) continue;
    const firstW = norm(parts[0]!);
    const lastW = norm(parts[parts.length - 1]!);
    if (COMMON_WORDS.has(firstW) || COMMON_WORDS.has(lastW)) continue;
    const middleOk = parts
      .slice(1, -1)
      .every((p) => p.length <= 2 || PARTICLES.has(norm(p)) || isNameLike(p, d) || /^\p{Lu}/u.test(p));
    if (d.first.has(firstW) && (d.last.has(lastW) || d.first.has(lastW)) && middleOk) {
      const s = ls + text.slice(ls, le).indexOf(parts[0]!);
      out.push({ type: 'PERSON', start: s, end: s + line.length, score: 0.7 });
    }
  }
  // (a'') the line after a sign-off ("Best regards,", "Mit freundlichen Grüßen", "Cordialement,"): a name
  // there needs no dictionary, the sign-off says what follows
  for (const ls of signOffNextLines(text, cands.lineEndsAfterWord)) {
    const le = lineEnd(text, ls);
    if (le - ls > 48 || occupied(out, ls, le)) continue;
    const line = text.slice(ls, le).trim();
    const parts = line.split(/\s+/);
    if (parts.length < 2 || parts.length > 4) continue;
    if (!parts.every((p) => /^\p{Lu}[\p{L}'’-]*\.?$/u.test(p) || PARTICLES.has(norm(p)))) continue;
    if (COMMON_WORDS.has(norm(parts[0]!)) || COMMON_WORDS.has(norm(parts[parts.length - 1]!))) continue;
    const s = ls + text.slice(ls, le).indexOf(parts[0]!);
    out.push({ type: 'PERSON', start: s, end: s + line.length, score: 0.7 });
  }
  // (b) dictionary-driven capitalised sequences: First [Middle] Last
  const cueSpans = [...out];
  execAt(CAP_SEQ_AT, text, cands.capSeq, (m) => {
    const s = m.index;
    const e = s + m[0].length;
    if (occupied(cueSpans, s, e)) return;
    const parts = m[0].split(/\s+/);
    const firstW = norm(parts[0]!);
    const lastW = norm(parts[parts.length - 1]!.replace(/\.$/, ''));
    if (COMMON_WORDS.has(firstW) || COMMON_WORDS.has(lastW)) return;
    const firstOk = d.first.has(firstW);
    const lastOk = d.last.has(lastW) || d.first.has(lastW);
    if (d.countries.has(norm(m[0])) || d.places.has(norm(m[0]))) return;
    if (firstOk && lastOk) out.push({ type: 'PERSON', start: s, end: e, score: 0.75 });
    else if (firstOk && parts.length >= 2 && parts[parts.length - 1]!.length > 2)
      out.push({ type: 'PERSON', start: s, end: e, score: 0.55 });
  });
  return out;
}

/** Does a capitalised frequent word follow the name's end (one space between): "Quarterly| Report", "Premium| Support"? */
function titleGoesOn(text: string, e: number): boolean {
  if (text.charCodeAt(e) !== 32) return false;
  const m = /\p{Lu}\p{Ll}{1,24}/uy;
  m.lastIndex = e + 1;
  const w = m.exec(text);
  return w !== null && COMMON_WORDS.has(w[0].toLowerCase());
}

/** Code units that glue an identifier's parts: "_", ".", "/", "-", digits. */
const IDENT_GLUE = new Set([95, 46, 47, 45, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57]);

/** First words of compound keys ending in "name" that name a thing, not a person ("country_name", "tool.name", "companyName"). */
const THING_NAME_KEYS = new Set(
  (
    'country city town region state province county district street place location venue site company org organization organisation business brand product item file host hostname ' +
    'tool function method event project app application service team bucket table column field model dataset repo branch package module class domain server cluster database db queue ' +
    'topic index key node pod container image device agent bot channel group role plan store shop account_type job task workflow pipeline step stage metric label tag display_country'
  ).split(' '),
);

/** Is the key cue at `at` ("name" after a quote or not) the end of a compound key whose first word names a thing? */
function thingNameKey(text: string, at: number): boolean {
  let k = at;
  if (text[k] === '"' || text[k] === "'") k++;
  if (text.slice(k, k + 4).toLowerCase() !== 'name' || k === 0) return false;
  let p = k;
  const glue = text[p - 1];
  if (glue === '_' || glue === '.' || glue === '-') p--;
  let s = p;
  while (s > 0 && p - s < 24 && /[A-Za-z]/.test(text[s - 1]!)) s--;
  if (s === p) return false;
  return THING_NAME_KEYS.has(text.slice(s, p).toLowerCase());
}
