// What makes a phone number: its context words, regions to try, and libphonenumber's answers (bounded memo,
// per-text call budget).

import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import * as charsModule from '../text/chars.ts';
import * as contextModule from '../text/context.ts';
import * as numericCues from './cues.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { DIGIT_0, DIGIT_1, DIGIT_2, DIGIT_9 } = charsModule;
const { keywordList } = contextModule;
const { matcherFor } = numericCues;

// A word written "^word" counts at the start of a word only (numbers/cues.ts): short cues that other words
// contain ("tel" in "hotel" and "ravnateljica", "gsm" in "spørgsmål", "liga" in "obligatorisk", "call" in
// "recall", "cell" in "excellent", "mobil" in "Immobilien", "reach" in "breach").
const PHONE_CONTEXT: string[] = [
  'phone',
  '^mobil',
  // "tel" as a label or the start of a phone word, not "tell" or "hotel"
  ...['.', ':', ' ', ',', '/', ')', '-', '"', "'", '_', '\t', '\n', 'e', 'é', 'f', 'n'].map((c) => `^tel${c}`),
  'telefon',
  // "ph." / "ph:", the English abbreviation on cards and signatures ("ph. " with its space: not "Ph.D.")
  '^ph. ',
  '^ph:',
  // Nordic and other labels (tlf. Norwegian/Danish, tfn Swedish, puh. Finnish, GSM Belgian)
  '^tlf',
  '^tfn',
  '^puh.',
  'puhelin',
  '^gsm',
  'durchwahl',
  'festnetz',
  '^call',
  '^fax',
  '^cell',
  'contact',
  '^reach',
  'whatsapp',
  '^sms',
  'text me',
  '^desk',
  // a hotel's or an office's front desk ("reception 9212 8483")
  '^reception',
  'rezeption',
  'réception',
  '^dial',
  'answering',
  'registered',
  '^handy',
  'teléfono',
  'téléphone',
  '^cep',
  'messages to',
  // "ring" alone would be read inside "bring", "during", "rings": the call, in English and Scandinavian
  'ring me',
  'ring us',
  'ring him',
  'ring her',
  'ring them',
  'ring back',
  'a ring',
  'ring mig',
  'ring meg',
  'ring oss',
  'ring os',
  'ring til',
  'ring på',
  // calling in other languages
  'anrufen',
  'rufen sie',
  'ruf mich',
  'erreichen sie mich',
  'rückruf',
  'llámame',
  '^llamar',
  '^llame',
  'appelez',
  'appelle',
  'appeler',
  'joindre',
  '^tél',
  'chiamami',
  'chiamare',
  'bel me',
  'bellen',
  '^liga',
  '^ligar',
  '^ligue',
  // Greek, Portuguese, Spanish, French, Russian, Chinese, Japanese, Korean words for a phone
  'τηλ',
  'telemóvel',
  'celular',
  'móvil',
  '^movil',
  'portable',
  'телефон',
  'звоните',
  'позвоните',
  '电话',
  '手机',
  '電話',
  '携帯',
  '전화',
  // Hindi
  'फोन',
  'फ़ोन',
  'मोबाइल',
];
/** A phone extension glued to the number ("…-0100x565"); at most 16 chars, tried at the number's end only. */
export const PHONE_EXT = /\s?(?:x|ext\.?|extension)\s?\d{1,5}/iy;

export const PHONE_CTX = keywordList(PHONE_CONTEXT);
/**
 * "number" and its words in other languages (Polish, Czech and Slovak, Croatian / Serbian / Bosnian,
 * Turkish, Romanian, Russian among them): a phone's unless OTHER_NUMBER names another identifier.
 */
const NUMBER_WORD = keywordList([
  'number',
  'no.',
  'nr.',
  'nummer',
  'numéro',
  'número',
  'numero',
  'numer ',
  'numeru',
  'číslo',
  '^broj',
  'numara',
  'număr',
  'номер',
  'नंबर',
]);
/** "number" right after one of these names another identifier ("license number"), not a phone. */
export const OTHER_NUMBER = keywordList([
  'licen',
  'account',
  'card',
  'passport',
  'routing',
  'tax',
  'ssn',
  'social',
  'policy',
  'order',
  'invoice',
  'member',
  'customer',
  'case',
  'ticket',
  'tracking',
  'serial',
  'id ',
  'id:',
  'identi',
  'insurance',
  'nhs',
  'npi',
  'aadhaar',
  'sin ',
  'iban',
  'vat',
  'registration',
  // the same identifiers in German, French, Spanish, Portuguese, Italian, Polish, Turkish, Russian
  'bestell',
  'kunden',
  'rechnung',
  'auftrag',
  'konto',
  'artikel',
  'commande',
  'facture',
  'compte',
  'pedido',
  'factura',
  'fatura',
  'cuenta',
  '^conta ',
  'ordine',
  'fattura',
  'zamówieni',
  'faktur',
  'sipariş',
  'заказ',
  'счет',
  'счёт',
  'договор',
  'versicherung',
  'steuer',
  'ausweis',
  'seguro',
]);

/** Phone cues (bit 1) and "number" words (bit 2), looked up in one pass. */
export const PHONE_CUES = matcherFor([PHONE_CTX, NUMBER_WORD]);

/** At most this many libphonenumber questions per text (plus one per 512 chars): its calls are the costly part (bench/detect.ts). */
export const PHONE_CALL_BASE = 16;

export const NANP: CountryCode[] = ['US'];
export const TRUNK_ZERO: CountryCode[] = ['GB', 'DE', 'FR', 'IT', 'IN'];
export const TRUNK_ZERO_MORE: CountryCode[] = ['BR', 'AU', 'NL', 'BE', 'TR', 'PH', 'IL', 'ES'];
export const NO_TRUNK: CountryCode[] = ['US', 'IN', 'ES', 'IT'];

/**
 * Bounded memo of libphonenumber results (repeated numbers in logs are common), by region ("+" for an
 * international number) and then number: no key string is built per question.
 */
const PHONE_MEMO = new Map<string, Map<string, number>>();
const PHONE_MEMO_MAX = 4096;
let phoneMemoSize = 0;

export function phoneValidity(raw: string, region: CountryCode | undefined, budget: { calls: number }): number {
  // the budget counts questions, answered from the memo or not, so that a text's findings do not depend
  // on what earlier texts left in the memo (scan() must be a function of its text)
  if (budget.calls <= 0) return -1;
  budget.calls--;
  const byNumber = PHONE_MEMO.get(region ?? '+');
  const hit = byNumber?.get(raw);
  if (hit !== undefined) return hit;
  const p = parsePhoneNumberFromString(raw, { defaultCountry: region, extract: false });
  const v = !p ? 0 : p.isValid() ? 2 : p.isPossible() ? 1 : 0;
  if (phoneMemoSize >= PHONE_MEMO_MAX) {
    PHONE_MEMO.clear();
    phoneMemoSize = 0;
  }
  let memo = PHONE_MEMO.get(region ?? '+');
  if (!memo) PHONE_MEMO.set(region ?? '+', (memo = new Map()));
  memo.set(raw, v);
  phoneMemoSize++;
  return v;
}

/** "+41 (0)71 …", "(+41) 71 …", "0041 71 …", "(0041) 71 …" as libphonenumber reads them: "+41 71 …" (without the trunk "(0)"). */
export function internationalForm(raw: string): string {
  let s = raw.replace('(0)', '');
  if (s.startsWith('(+')) s = '+' + s.slice(2);
  else if (s.startsWith('(00')) s = '+' + s.slice(3);
  if (s.startsWith('00')) s = '+' + s.slice(2);
  return s.endsWith(')') ? s.slice(0, -1) : s;
}

/** Day-month-year-like group lengths ("2024-01-15", "15.01.24"). */
export function dateLengths(g0: number, g1: number, g2: number): boolean {
  return (g0 === 4 && g1 <= 2 && g2 <= 2) || (g0 <= 2 && g1 <= 2 && (g2 === 4 || g2 === 2));
}

/**
 * Three groups that read as a date by their lengths and their values: year-month-day, or a day and a
 * month in either order before a year ("2024-01-15", "15.01.24", "01/15/2024"). "70.12.23" or
 * "63-06-75" have the lengths of a date but no day-month pair: a short local number ("Tel: 63-06-75").
 */
export function dateValues(l0: number, l1: number, l2: number, v0: number, v1: number, v2: number): boolean {
  if (!dateLengths(l0, l1, l2)) return false;
  const day = (v: number) => v >= 1 && v <= 31;
  const month = (v: number) => v >= 1 && v <= 12;
  if (l0 === 4) return month(v1) && day(v2);
  return (day(v0) && month(v1)) || (month(v0) && day(v1));
}

/** Do the two digits at `p` read "19" or "20"? */
export function startsLikeYear(units: Uint16Array, p: number): boolean {
  const d0 = units[p]!;
  const d1 = units[p + 1]!;
  return (d0 === DIGIT_1 && d1 === DIGIT_9) || (d0 === DIGIT_2 && d1 === DIGIT_0);
}
