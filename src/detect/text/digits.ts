// Decimal digits of other scripts read as ASCII digits, for the numeric
// detectors: a phone number or a card written in Arabic-Indic, Devanagari or
// full-width digits ("+١ ٦٥٠ ٧٠١ ٨٨٨٧", "९८७६५४३२१०") is the same number. Every
// such digit is one UTF-16 code unit, as its ASCII digit is, so a finding's
// offsets into the folded text are offsets into the text.

/** The zero of each script's ten decimal digits (Unicode Nd, in the BMP, contiguous 0-9). */
const ZEROS = [
  0x0660, // Arabic-Indic
  0x06f0, // Extended Arabic-Indic (Persian, Urdu)
  0x07c0, // NKo
  0x0966, // Devanagari
  0x09e6, // Bengali
  0x0a66, // Gurmukhi
  0x0ae6, // Gujarati
  0x0b66, // Oriya
  0x0be6, // Tamil
  0x0c66, // Telugu
  0x0ce6, // Kannada
  0x0d66, // Malayalam
  0x0e50, // Thai
  0x0ed0, // Lao
  0x0f20, // Tibetan
  0x1040, // Myanmar
  0x17e0, // Khmer
  0x1810, // Mongolian
  0xff10, // full-width
];

const hex = (c: number) => c.toString(16).padStart(4, '0');
/** The full-width plus sign before a full-width number is its country code's '+'. */
const FULLWIDTH_PLUS = 0xff0b;
const CLASS = ZEROS.map((z) => `\\u${hex(z)}-\\u${hex(z + 9)}`).join('') + `\\u${hex(FULLWIDTH_PLUS)}`;
const ANY = new RegExp(`[${CLASS}]`);
const EACH = new RegExp(`[${CLASS}]`, 'g');

function ascii(d: string): string {
  const c = d.charCodeAt(0);
  if (c === FULLWIDTH_PLUS) return '+';
  for (const z of ZEROS) if (c >= z && c <= z + 9) return String.fromCharCode(48 + c - z);
  return d;
}

/** The text with every decimal digit of another script as its ASCII digit, and '＋' as '+' (the text itself when it has none). */
export function foldDigits(text: string): string {
  return ANY.test(text) ? text.replace(EACH, ascii) : text;
}
