// The numeric rules' validators: check digits and structure of each national number (the check-digit
// algorithms themselves are in text/checksums.ts), and the shape helpers the rule table uses.

import * as checksumsModule from '../text/checksums.ts';
import type { Candidate } from './rule.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { iso7064Mod11_10, luhn, validDate, verhoeff, weightedSum } = checksumsModule;

export function uniformSeps(c: Candidate, allowed: string): boolean {
  if (c.seps.length === 0) return true;
  const s0 = c.seps[0]!;
  if (s0.length !== 1 || !allowed.includes(s0)) return false;
  return c.seps.every((s) => s === s0);
}

export function groupsAre(c: Candidate, ...patterns: number[][]): boolean {
  if (c.groups.length === 1) return true;
  return patterns.some((p) => p.length === c.groups.length && p.every((v, i) => v === c.groups[i]));
}

export function allSame(s: string): boolean {
  for (let i = 1; i < s.length; i++) if (s[i] !== s[0]) return false;
  return true;
}
export function ssnParts(digits: string): boolean {
  const area = Number(digits.slice(0, 3));
  const group = Number(digits.slice(3, 5));
  const serial = Number(digits.slice(5));
  if (area === 0 || area === 666 || area >= 900) return false;
  if (group === 0 || serial === 0) return false;
  if (allSame(digits)) return false;
  if (digits === '123456789') return false;
  return true;
}

export function itinOk(digits: string): boolean {
  if (digits[0] !== '9') return false;
  const g = Number(digits.slice(3, 5));
  return (g >= 50 && g <= 65) || (g >= 70 && g <= 88) || (g >= 90 && g <= 92) || (g >= 94 && g <= 99);
}

export function cardPrefixOk(d: string): boolean {
  const c = d[0];
  return c === '1' || c === '2' || c === '3' || c === '4' || c === '5' || c === '6';
}

export function nhsOk(d: string): boolean {
  if (d.length !== 10 || allSame(d)) return false;
  const r = 11 - (weightedSum(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  const check = r === 11 ? 0 : r;
  return check !== 10 && check === Number(d[9]);
}

export function abaOk(d: string): boolean {
  if (d.length !== 9 || allSame(d)) return false;
  const p = Number(d.slice(0, 2));
  if (!((p >= 0 && p <= 12) || (p >= 21 && p <= 32) || (p >= 61 && p <= 72) || p === 80)) return false;
  return weightedSum(d, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0;
}

export function abnOk(d: string): boolean {
  if (d.length !== 11 || d[0] === '0') return false;
  const w = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  let sum = (Number(d[0]) - 1) * 10;
  for (let i = 1; i < 11; i++) sum += Number(d[i]) * w[i]!;
  return sum % 89 === 0;
}

export function acnOk(d: string): boolean {
  if (d.length !== 9) return false;
  const s = weightedSum(d, [8, 7, 6, 5, 4, 3, 2, 1]);
  return (10 - (s % 10)) % 10 === Number(d[8]);
}

export function tfnOk(d: string): boolean {
  if (d.length !== 9 || allSame(d)) return false;
  return weightedSum(d, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 === 0;
}

export function medicareOk(d: string): boolean {
  if (d.length !== 10 && d.length !== 11) return false;
  if (!'23456'.includes(d[0]!)) return false;
  return weightedSum(d, [1, 3, 7, 9, 1, 3, 7, 9]) % 10 === Number(d[8]);
}

export function sinOk(d: string): boolean {
  return d.length === 9 && d[0] !== '0' && d[0] !== '8' && !allSame(d) && luhn(d);
}

export function npiOk(d: string): boolean {
  return d.length === 10 && (d[0] === '1' || d[0] === '2') && luhn('80840' + d);
}

export function aadhaarOk(d: string): boolean {
  return d.length === 12 && d[0] !== '0' && d[0] !== '1' && !allSame(d) && verhoeff(d);
}

export function trIdOk(d: string): boolean {
  if (d.length !== 11 || d[0] === '0') return false;
  const n = [...d].map(Number);
  const odd = n[0]! + n[2]! + n[4]! + n[6]! + n[8]!;
  const even = n[1]! + n[3]! + n[5]! + n[7]!;
  const c10 = (((odd * 7 - even) % 10) + 10) % 10;
  if (c10 !== n[9]) return false;
  return n.slice(0, 10).reduce((a, b) => a + b, 0) % 10 === n[10];
}

export function peselOk(d: string): boolean {
  if (d.length !== 11) return false;
  const s = weightedSum(d, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]);
  if ((10 - (s % 10)) % 10 !== Number(d[10])) return false;
  let month = Number(d.slice(2, 4));
  const yy = Number(d.slice(0, 2));
  let century = 1900;
  if (month > 80) {
    century = 1800;
    month -= 80;
  } else if (month > 60) {
    century = 2200;
    month -= 60;
  } else if (month > 40) {
    century = 2100;
    month -= 40;
  } else if (month > 20) {
    century = 2000;
    month -= 20;
  }
  return validDate(century + yy, month, Number(d.slice(4, 6)));
}

export function krRrnOk(d: string, foreigner: boolean): boolean {
  if (d.length !== 13) return false;
  const g = Number(d[6]);
  if (foreigner ? !(g >= 5 && g <= 8) : !(g >= 1 && g <= 4) && g !== 9 && g !== 0) return false;
  const yy = Number(d.slice(0, 2));
  const century = g === 1 || g === 2 || g === 5 || g === 6 ? 1900 : g === 9 || g === 0 ? 1800 : 2000;
  if (!validDate(century + yy, Number(d.slice(2, 4)), Number(d.slice(4, 6)))) return false;
  const s = weightedSum(d, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]);
  // a foreigner registration number's check digit is offset by 2 from a resident's
  return ((foreigner ? 13 : 11) - (s % 11)) % 10 === Number(d[12]);
}

export function thTninOk(d: string): boolean {
  if (d.length !== 13 || d[0] === '0') return false;
  const s = weightedSum(d, [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return (11 - (s % 11)) % 10 === Number(d[12]);
}

export function zaIdOk(d: string): boolean {
  if (d.length !== 13) return false;
  const yy = Number(d.slice(0, 2));
  if (!validDate(2000 + yy, Number(d.slice(2, 4)), Number(d.slice(4, 6)))) return false;
  if (d[10] !== '0' && d[10] !== '1' && d[10] !== '2') return false; // citizen, permanent resident, refugee
  return luhn(d);
}

export function sePnrOk(d: string): boolean {
  let ten = d;
  if (d.length === 12) {
    const cc = Number(d.slice(0, 2));
    if (cc < 18 || cc > 20) return false;
    ten = d.slice(2);
  }
  if (ten.length !== 10) return false;
  const yy = Number(ten.slice(0, 2));
  let day = Number(ten.slice(4, 6));
  if (day > 60) day -= 60; // samordningsnummer
  if (!validDate(2000 + yy, Number(ten.slice(2, 4)), day)) return false;
  return luhn(ten);
}

export function seOrgOk(d: string): boolean {
  let ten = d;
  if (d.length === 12) {
    if (!d.startsWith('16')) return false;
    ten = d.slice(2);
  }
  if (ten.length !== 10) return false;
  if (Number(ten[2]) < 2) return false;
  return luhn(ten);
}

export function itVatOk(d: string): boolean {
  if (d.length !== 11 || allSame(d)) return false;
  if (d.slice(0, 7) === '0000000') return false;
  return luhn(d);
}

export function deTaxIdOk(d: string): boolean {
  if (d.length !== 11 || d[0] === '0') return false;
  const counts = new Map<string, number>();
  for (const ch of d.slice(0, 10)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const multi = [...counts.values()].filter((v) => v > 1);
  // issued ids repeat exactly one digit (2 or 3 times); all-distinct digits still pass the checksum in
  // Presidio's recognizer and in test data, so they are accepted too
  if (multi.length > 1 || (multi[0] ?? 0) > 3) return false;
  return iso7064Mod11_10(d);
}

export function krBrnOk(d: string): boolean {
  if (d.length !== 10) return false;
  const w = [1, 3, 7, 1, 3, 7, 1, 3, 5];
  let s = weightedSum(d, w);
  s += Math.floor((Number(d[8]) * 5) / 10);
  return (10 - (s % 10)) % 10 === Number(d[9]);
}

export function lanrOk(d: string): boolean {
  if (d.length !== 9) return false;
  const s = weightedSum(d, [4, 9, 4, 9, 4, 9]);
  return (10 - (s % 10)) % 10 === Number(d[6]);
}

export function cpfOk(d: string): boolean {
  if (d.length !== 11 || allSame(d)) return false;
  let s = 0;
  for (let i = 0; i < 9; i++) s += Number(d[i]) * (10 - i);
  let c1 = (s * 10) % 11;
  if (c1 === 10) c1 = 0;
  if (c1 !== Number(d[9])) return false;
  s = 0;
  for (let i = 0; i < 10; i++) s += Number(d[i]) * (11 - i);
  let c2 = (s * 10) % 11;
  if (c2 === 10) c2 = 0;
  return c2 === Number(d[10]);
}
