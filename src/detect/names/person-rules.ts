// The person rules: cue words, honorifics and keys before a name, the name tokens after them, a name alone on
// a block's first line, and capitalised sequences.

import * as chars from '../text/chars.ts';
import type { Dicts } from './lexicon.ts';
import * as namesLexicon from './lexicon.ts';
import * as namesSticky from './sticky.ts';
import * as namesWordShape from './word-shape.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { asciiSet, DOT, EQUALS, SPACE } = chars;
const { COMMON_WORDS, norm, PARTICLES } = namesLexicon;
const { sticky } = namesSticky;
const { startsLower, startsUpper } = namesWordShape;

// honorifics, longest first (so that "mrs" is not read as "mr" + "s"), followed by "." or a space
export const HONORIFIC_WORDS = 'mrs|mr|ms|miss|mx|dr|prof|sir|madam|herr|frau|srta|sra|sr|mme|mlle|m';
/** Cues after which a single unknown capitalised word is still a name ("my name is Tadzio", "my kid Tadzio"). */
export const STRONG_CUE =
  /(?:name is|call me|me llamo|mi nombre es|ich heiße|mein name ist|je m'appelle|kid|son|daughter|wife|husband|(?:last|first|full|sur|given|family)\s?name\??:?)\s*$/iu;
const NAME_CUE_WORDS =
  "my name is|name is|names? ?:|called|call me|i am|i'm|this is|signed,?|regards,?|sincerely,?|dear|hi|hello|" +
  // reported speech and sign-offs in the set's languages: "according to X", "laut X", "selon X", "Mit freundlichen Grüßen\nX"
  "according to|laut|selon|según|segundo|secondo|volgens|grüßen,?|grüssen,?|cordialement,?|saludos,?|atenciosamente,?|cordiali saluti,?|groet,?|contact|holder|customer|patient|employee|candidate|applicant|soy|me llamo|mi nombre es|ich bin|ich heiße|mein name ist|je m'appelle|je suis|change it to|accounts with|kid|son|daughter|wife|husband|says|commenter|author|speaker|from the desk of|attn:?|c\\/o|(?:last|first|full|sur|given|family) ?name\\??:?|" +
  // an addressee: "ship the replacement unit to", "schicken Sie die Rechnung an", "envoyez le colis à"
  '(?:ship|send|deliver|mail|forward|address(?:ed)?|write|schicken|senden|liefern|envoyer|envoyez|enviar|envíe|envie|spedire)\\b[^.\\n:;]{0,40}?\\b(?:to|an|à|a)';
/**
 * Keys and column headers that name a person: the one vocabulary of a person's field in JSON, YAML,
 * key=value log lines, labels (CUE_SCAN_RE) and table headers (names/places/table-columns.ts), in the
 * seven languages the detectors read.
 */
export const CUE_KEYS = [
  'full_name',
  'fullname',
  'name',
  'first_name',
  'firstname',
  'last_name',
  'lastname',
  'surname',
  'given_name',
  'family_name',
  'contact',
  'contact_name',
  'card_holder',
  'cardholder',
  'holder',
  'customer',
  'customer_name',
  'customername',
  'client_name',
  'recipient',
  'sender',
  'owner',
  'patient',
  'employee',
  'author',
  'assignee',
  'user_name_full',
  'username_full',
  'user_namefull',
  'usernamefull',
  'display_name',
  'displayname',
  // German, French, Spanish, Italian, Portuguese, Dutch
  'kunde',
  'kundenname',
  'vorname',
  'nachname',
  'ansprechpartner',
  'kontakt',
  'nom',
  'prenom',
  'prénom',
  'nom_complet',
  'nombre',
  'apellido',
  'apellidos',
  'nombre_completo',
  'cliente',
  'nome',
  'cognome',
  'nome_completo',
  'sobrenome',
  'naam',
  'voornaam',
  'achternaam',
  'klant',
  // who receives, sends, holds, owns, is treated, employed or wrote, in the same languages
  'client',
  'empfänger',
  'absender',
  'inhaber',
  'eigentümer',
  'mitarbeiter',
  'verfasser',
  'destinataire',
  'expéditeur',
  'titulaire',
  'propriétaire',
  'employé',
  'auteur',
  'destinatario',
  'remitente',
  'titular',
  'propietario',
  'paciente',
  'empleado',
  'autor',
  'contacto',
  'mittente',
  'titolare',
  'proprietario',
  'paziente',
  'dipendente',
  'autore',
  'contatto',
  'destinatário',
  'remetente',
  'proprietário',
  'funcionário',
  'contato',
  'ontvanger',
  'afzender',
  'eigenaar',
  'patiënt',
  'medewerker',
  'contactpersoon',
  // a name's keys in the Nordic languages, Finnish, Polish, Czech and Russian
  'navn',
  'namn',
  'nimi',
  'fornavn',
  'efternavn',
  'etternavn',
  'förnamn',
  'efternamn',
  'etunimi',
  'sukunimi',
  'imię',
  'nazwisko',
  'jméno',
  'příjmení',
  'имя',
  'фамилия',
  'фио',
];
/** CUE_KEYS as CUE_SCAN_RE's alternation: "_" optional ("full_name", "fullname", "full name" as a label), longest first. */
const KEY_CUE_WORDS = [...new Set(CUE_KEYS.map((k) => k.replace(/_/g, '[_ ]?')))]
  .sort((x, y) => y.length - x.length)
  .join('|');
const CUE_SCAN_RE = new RegExp(
  `(?:(["']?(?:${KEY_CUE_WORDS})["']?\\s*[:=|,]\\s*["']?)|(?<![\\p{L}])((?:${HONORIFIC_WORDS})(?:\\.\\s*|\\s+))|(?<![\\p{L}])(${NAME_CUE_WORDS})(?![\\p{L}]))[ \\t]*`,
  'giu',
);
export const CUE_SCAN_AT = sticky(CUE_SCAN_RE);

export function lineEnd(text: string, from: number): number {
  const e = text.indexOf('\n', from);
  return e < 0 ? text.length : e;
}

/** Starts of the first line of the text and of every line that follows an empty line (at most 256). */
export function blockFirstLines(text: string): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (i < text.length && text[i] !== '\n') out.push(i);
  for (let p = text.indexOf('\n\n'); p >= 0 && out.length < 256;) {
    let q = p + 2;
    while (q < text.length && (text[q] === '\n' || text[q] === ' ' || text[q] === '\t')) q++;
    if (q < text.length) out.push(q);
    p = text.indexOf('\n\n', q);
  }
  // the line after an e-mail signature delimiter ("-- " on a line of its own)
  for (let p = text.indexOf('--'); p >= 0 && out.length < 512; p = text.indexOf('--', p + 2)) {
    if (p > 0 && text[p - 1] !== '\n') continue;
    let q = p + 2;
    if (text[q] === ' ') q++;
    if (text[q] === '\r') q++;
    if (text[q] !== '\n') continue;
    q++;
    if (q < text.length) out.push(q);
  }
  return out.sort((a, b) => a - b);
}

// a name token: capitalised word (any script) — with a capital inside after "Mc", "Mac", "O'" or a hyphen
// ("McGregor", "O'Brien", "Joliot-Curie") —, an initial "M." / "M", or a lower-case word in key-value context
const TOKEN_RE =
  /(?:Ma?c|[\p{Lu}]['’])?[\p{Lu}][\p{Ll}\p{Lm}'’-]{1,24}(?:(?<=-)[\p{Lu}][\p{Ll}\p{Lm}'’-]{1,24})?|[\p{Lu}]\.?(?=\s)|[\p{Lu}]{2,20}(?=[\s,.]|$)|[\p{Ll}][\p{Ll}'’-]{1,24}/uy;

interface Tok {
  start: number;
  end: number;
  text: string;
  /** The text in lower case. */
  low: string;
}

/** Reads up to `max` name tokens starting at `pos` (spaces only between them). */
export function readNameTokens(text: string, pos: number, max: number, allowLower: boolean, keepCommon = false): Tok[] {
  const toks: Tok[] = [];
  let i = pos;
  while (toks.length < max && i < text.length) {
    TOKEN_RE.lastIndex = i;
    const m = TOKEN_RE.exec(text);
    if (!m) break;
    const t = m[0];
    if (!allowLower && startsLower(t) && !PARTICLES.has(t)) break;
    // the next pair of a log line ("contact=Priya Raman level=info"): the value ended before its key
    if (toks.length > 0 && text.charCodeAt(i + t.length) === EQUALS) break;
    toks.push({ start: i, end: i + t.length, text: t, low: t.toLowerCase() });
    i += t.length;
    if (t.length === 1 && text.charCodeAt(i) === DOT) i++;
    // single space (or two) between tokens, no newline
    let j = i;
    while (j < text.length && j - i < 2 && text.charCodeAt(j) === SPACE) j++;
    if (j === i) break;
    i = j;
  }
  // drop trailing particles / common words
  while (toks.length > 0) {
    const last = toks[toks.length - 1]!;
    if (
      PARTICLES.has(last.low) ||
      (COMMON_WORDS.has(last.low) && !(keepCommon && toks.length === 1 && startsUpper(last.text)))
    )
      toks.pop();
    else break;
  }
  return toks;
}

export function isNameLike(t: string, d: Dicts): boolean {
  const w = norm(t.replace(/\.$/, ''));
  return d.first.has(w) || d.last.has(w);
}

/** isNameLike of a token (whose only possible "." is the one after an initial). */
export function isNameToken(t: Tok, d: Dicts): boolean {
  const w = t.low.charCodeAt(t.low.length - 1) === DOT ? t.low.slice(0, -1) : t.low;
  return d.first.has(w) || d.last.has(w);
}

/** The start of a token after a cue may be an honorific ("call me Mrs. May"): an ASCII letter of one, or non-ASCII. */
export function mayStartHonorific(c: number): boolean {
  return c >= 128 || HONORIFIC_FIRST.has(c);
}
/** First letters of HONORIFIC_AFTER_RE's words, both cases. */
const HONORIFIC_FIRST = asciiSet('mdpshfMDPSHF');
export const HONORIFIC_AFTER_RE = /^(?:mrs|mr|ms|miss|mx|dr|prof|sir|herr|frau|mme|mlle)(?:\.\s*|\s+)/iu;

const CAP_SEQ_RE =
  /(?<![\p{L}\p{N}_@.])[\p{Lu}][\p{Ll}'’-]{1,24}(?:\s{1,2}(?:[\p{Lu}]\.?|[\p{Lu}][\p{Ll}'’-]{1,24}|van|de|der|von|bin|da|di|del|la|le|dos)){1,3}(?![\p{L}\p{N}_@])/gu;
export const CAP_SEQ_AT = sticky(CAP_SEQ_RE);
