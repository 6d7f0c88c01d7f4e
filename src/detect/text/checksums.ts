// Check-digit algorithms used by the validators. All are O(length) and take digit strings.

function d(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

export function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Luhn (mod 10) over the whole string, last digit being the check digit. */
export function luhn(s: string): boolean {
  if (!isDigits(s)) return false;
  let sum = 0;
  let dbl = false;
  for (let i = s.length - 1; i >= 0; i--) {
    let v = d(s, i);
    if (dbl) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

/** Weighted sum of the first weights.length digits. */
export function weightedSum(s: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += d(s, i) * (weights[i] ?? 0);
  return sum;
}

/** ISO 13616 IBAN mod-97 check on a compact (no separators) upper-case IBAN. */
export function ibanMod97(iban: string): boolean {
  if (iban.length < 5 || iban.length > 34) return false;
  const re = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (let i = 0; i < re.length; i++) {
    const c = re.charCodeAt(i);
    if ((c < 48 || c > 57) && (c < 65 || c > 90)) return false;
    rem = mod97Step(rem, c);
  }
  return rem === 1;
}

/** The mod-97 remainder after one more IBAN character (char code of a digit or of A-Z: 10-35). */
export function mod97Step(rem: number, c: number): number {
  return c <= 57 ? (rem * 10 + (c - 48)) % 97 : (rem * 100 + (c - 55)) % 97;
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 7, 6, 8, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Verhoeff check (Aadhaar). */
export function verhoeff(s: string): boolean {
  if (!isDigits(s)) return false;
  let c = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const digit = d(s, n - 1 - i);
    c = VERHOEFF_D[c]![VERHOEFF_P[i % 8]![digit]!]!;
  }
  return c === 0;
}

/** ISO 7064 MOD 11,10 (German tax id); returns true when the last digit is the check digit. */
export function iso7064Mod11_10(s: string): boolean {
  if (!isDigits(s)) return false;
  let product = 10;
  for (let i = 0; i < s.length - 1; i++) {
    let sum = (d(s, i) + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  let check = 11 - product;
  if (check === 10) check = 0;
  return check === d(s, s.length - 1);
}

/** Valid calendar date (month 1-12, day within month; leap years by full rule). */
export function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const dim = [
    31,
    (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return day <= (dim[month - 1] ?? 0);
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Decode base58 into bytes; null when a character is not in the alphabet. */
export function base58Decode(s: string): Uint8Array | null {
  const bytes: number[] = [0];
  for (let i = 0; i < s.length; i++) {
    let carry = B58.indexOf(s[i]!);
    if (carry < 0) return null;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (let i = 0; i < s.length && s[i] === '1'; i++) bytes.push(0);
  return Uint8Array.from(bytes.reverse());
}

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

/** Verifies a bech32 / bech32m string (BIP-173 / BIP-350). Returns the variant or null. */
export function bech32Verify(addr: string): 'bech32' | 'bech32m' | null {
  const lower = addr.toLowerCase();
  if (lower !== addr && addr.toUpperCase() !== addr) return null;
  const pos = lower.lastIndexOf('1');
  if (pos < 1 || pos + 7 > lower.length || lower.length > 90) return null;
  const hrp = lower.slice(0, pos);
  const values: number[] = [];
  for (let i = 0; i < hrp.length; i++) values.push(hrp.charCodeAt(i) >> 5);
  values.push(0);
  for (let i = 0; i < hrp.length; i++) values.push(hrp.charCodeAt(i) & 31);
  for (let i = pos + 1; i < lower.length; i++) {
    const v = BECH32_CHARSET.indexOf(lower[i]!);
    if (v < 0) return null;
    values.push(v);
  }
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= BECH32_GEN[i]!;
  }
  chk >>>= 0;
  if (chk === 1) return 'bech32';
  if (chk === 0x2bc830a3) return 'bech32m';
  return null;
}
