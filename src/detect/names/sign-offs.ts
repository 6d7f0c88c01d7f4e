// The lines that follow a sign-off ("Best regards,", "Mit freundlichen Grüßen", "Cordialement,",
// "Met vriendelijke groet,"): where a letter or an e-mail puts its writer's name. Read at the newlines the
// candidate scan marked (a line ending in a letter): the last word of the line (at most 20 letters back) is
// looked up in a set.

import * as namesCharClasses from './char-classes.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { letterAt } = namesCharClasses;

/** Last words of sign-offs in the development set's languages. */
const SIGN_OFF_LAST_WORDS = new Set([
  'regards',
  'sincerely',
  'cheers',
  'thanks',
  'best',
  'grüßen',
  'grüssen',
  'gruß',
  'cordialement',
  'salutations',
  'saludos',
  'atentamente',
  'atenciosamente',
  'abraços',
  'saluti',
  'groet',
  'groeten',
]);

/** Starts of the lines that follow a sign-off line (at most 64). */
export function signOffNextLines(text: string, newlines: readonly number[]): number[] {
  const out: number[] = [];
  // the candidate scan's newlines after a line that ends in a letter (a superset of the sign-off lines' ends)
  for (const nl of newlines) {
    if (out.length >= 64) break;
    let e = nl;
    if (text.charCodeAt(e - 1) === 13) e--;
    while (e > 0 && (text[e - 1] === ' ' || text[e - 1] === '\t' || text[e - 1] === ',' || text[e - 1] === '!')) e--;
    // a sign-off word ends in a lower-case letter: lines of upper-case, digits or base64 stop here
    const last = e > 0 ? text.charCodeAt(e - 1) : 0;
    if (last < 128 ? !(last >= 97 && last <= 122) : !letterAt(text, e - 1)) continue;
    let s = e;
    while (s > 0 && e - s <= 20 && letterAt(text, s - 1)) s--;
    if (e - s < 4 || e - s > 20 || (s > 0 && letterAt(text, s - 1))) continue;
    if (!SIGN_OFF_LAST_WORDS.has(text.slice(s, e).toLowerCase())) continue;
    let q = nl + 1;
    while (q < text.length && (text[q] === ' ' || text[q] === '\t')) q++;
    if (q < text.length && text[q] !== '\n') out.push(q);
  }
  return out;
}
