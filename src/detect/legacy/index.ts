// Frozen copy of the detectors before the performance rewrite: the oracle of the equivalence tests
// (equivalence.test.ts). Not used at run time.
// Public entry points of the detect module: pure functions, no I/O.

import { detectInjection } from "./injection.ts";
import type { Field, InjectionResult } from "./injection.ts";
import { detectNames } from "./names.ts";
import { detectNumeric } from "./numeric.ts";
import { detectBareDomain, detectCrypto, detectEmail, detectIban, detectIp, detectMac, detectPatterns, detectUrl } from "./pii.ts";
import { redact } from "../redact.ts";
import { detectSecrets } from "./secrets.ts";
import { TextContext } from "./context.ts";
import { isInjectionType, isSecretType } from "../types.ts";
import type { Detector, Finding } from "../types.ts";

export type { Detector, Field, Finding, InjectionResult };
export { detectInjection, redact };
export { mergeSpans } from "../redact.ts";
export { INJECTION_TYPE, isInjectionType, isPiiType, isSecretType, SECRET_TYPES } from "../types.ts";
export { isValidSvcToken, svcTokenChecksum } from "./secrets.ts";

/** Minimum score for a PII / secret finding to be reported by scan(). */
export const DEFAULT_MIN_SCORE = 0.5;

/** Every detector by name (each is pure and linear in its input). */
export const DETECTORS: Record<string, Detector> = {
  email: detectEmail,
  url: (t) => {
    const u = detectUrl(t);
    const taken = [...u, ...detectEmail(t)];
    return [...u, ...detectBareDomain(t, taken)];
  },
  ip: detectIp,
  mac: detectMac,
  crypto: detectCrypto,
  iban: detectIban,
  numeric: (t) => detectNumeric(t, undefined, undefined, DEFAULT_MIN_SCORE),
  national_ids: (t) => detectPatterns(t, undefined, undefined, DEFAULT_MIN_SCORE),
  names: detectNames,
  secrets: detectSecrets,
  injection: (t) => detectInjection(t).findings,
};

/**
 * All PII findings (overlaps kept). With `minScore`, detectors may skip work that cannot produce a
 * finding scoring at least that much (scan() passes its threshold); the default keeps everything.
 */
export function detectPii(text: string, minScore = 0, shared?: TextContext): Finding[] {
  const tc = shared && shared.text === text ? shared : new TextContext(text);
  const email = detectEmail(text);
  const url = detectUrl(text);
  const bare = detectBareDomain(text, [...url, ...email]);
  const ip = detectIp(text);
  const structured = [...email, ...url, ...bare, ...ip, ...detectMac(text, tc), ...detectCrypto(text, tc), ...detectIban(text, tc)];
  const numeric = detectNumeric(text, undefined, tc, minScore).filter((f) => !insideAny(f, structured));
  const patterns = detectPatterns(text, undefined, tc, minScore).filter((f) => !insideAny(f, structured));
  const names = detectNames(text, tc).filter((f) => !overlapsAny(f, [...email, ...url, ...bare]));
  return [...structured, ...numeric, ...patterns, ...names];
}

function insideAny(f: Finding, list: readonly Finding[]): boolean {
  for (const g of list) if (g.start < f.end && f.start < g.end && g.type !== f.type) return true;
  return false;
}

function overlapsAny(f: Finding, list: readonly Finding[]): boolean {
  for (const g of list) if (g.start < f.end && f.start < g.end) return true;
  return false;
}

/**
 * Types whose detectors verify a checksum or a strict structure (and usually a context keyword): on the
 * same digits they are stronger evidence than a generic guess such as PHONE_NUMBER, which only says
 * that the digits could be dialled somewhere.
 */
export const VALIDATED_TYPES: ReadonlySet<string> = new Set([
  "CREDIT_CARD", "IBAN_CODE", "US_SSN", "US_ITIN", "UK_NHS", "CA_SIN", "US_NPI", "IN_AADHAAR", "DE_TAX_ID", "KR_RRN", "KR_FRN", "KR_BRN",
  "IT_VAT_CODE", "TR_NATIONAL_ID", "PL_PESEL", "TH_TNIN", "ZA_ID_NUMBER", "SE_PERSONNUMMER", "SE_ORGANISATIONSNUMMER", "BR_CPF", "AU_ABN",
  "AU_ACN", "AU_TFN", "AU_MEDICARE", "ABA_ROUTING_NUMBER", "DE_LANR", "ES_NIF", "ES_NIE", "FI_PERSONAL_IDENTITY_CODE", "IT_FISCAL_CODE",
  "SG_NRIC_FIN", "DE_HEALTH_INSURANCE", "DE_SOCIAL_SECURITY", "DE_PASSPORT", "MEDICAL_LICENSE", "CRYPTO",
]);

/** Margin a validated type gets over other types when overlapping findings are compared. */
const VALIDATED_BONUS = 0.25;

/** Rank used to resolve overlaps between different types: the score, plus a margin for validated types. */
export function overlapRank(f: Finding): number {
  return f.score + (VALIDATED_TYPES.has(f.type) ? VALIDATED_BONUS : 0);
}

/**
 * Among overlapping findings of different types, drops those ranked strictly lower than an overlapping
 * one (rank = score, plus a margin for checksum-validated types, so that a validated national id with a
 * context keyword wins over a PHONE_NUMBER guess on the same digits while a phone number with its own
 * context or a '+' prefix still wins over an id without context). Linear after sorting.
 */
export function resolveOverlaps(findings: readonly Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const drop = new Set<Finding>();
  const open: Finding[] = [];
  for (const f of sorted) {
    for (let i = open.length - 1; i >= 0; i--) if (open[i]!.end <= f.start) open.splice(i, 1);
    const rf = overlapRank(f);
    for (const g of open) {
      if (g.type === f.type) continue;
      const rg = overlapRank(g);
      if (rg > rf + 1e-9) drop.add(f);
      else if (rf > rg + 1e-9) drop.add(g);
    }
    open.push(f);
    if (open.length > 64) open.shift();
  }
  return sorted.filter((f) => !drop.has(f));
}

export interface ScanOptions {
  /** Which part of an agent action the text is: injection cues in `context` / `tool_output` weigh more. */
  field?: Field;
  /** Minimum score for PII / secret findings (default 0.5). */
  minScore?: number;
  /** Injection decision threshold (default 0.5). */
  injectionThreshold?: number;
}

export interface ScanResult {
  findings: Finding[];
  pii_count: number;
  secret_count: number;
  injection: { detected: boolean; score: number };
}

export function scan(text: string, opts: ScanOptions = {}): ScanResult {
  const minScore = opts.minScore ?? DEFAULT_MIN_SCORE;
  const secrets = detectSecrets(text).filter((f) => f.score >= minScore);
  const tc = new TextContext(text);
  const pii = resolveOverlaps(detectPii(text, minScore, tc).filter((f) => f.score >= minScore));
  const inj = detectInjection(text, { field: opts.field, threshold: opts.injectionThreshold });
  const findings = [...pii, ...secrets, ...inj.findings].sort((a, b) => a.start - b.start || a.end - b.end);
  return {
    findings,
    pii_count: pii.length,
    secret_count: secrets.length,
    injection: { detected: inj.detected, score: inj.score },
  };
}

export interface ScanAndRedactResult extends ScanResult {
  redacted: string;
}

export function scanAndRedact(text: string, opts: ScanOptions = {}): ScanAndRedactResult {
  const r = scan(text, opts);
  return { ...r, redacted: redact(text, r.findings) };
}

export function countByCategory(findings: readonly Finding[]): { pii: number; secrets: number; injection: number } {
  let pii = 0;
  let secrets = 0;
  let injection = 0;
  for (const f of findings) {
    if (isInjectionType(f.type)) injection++;
    else if (isSecretType(f.type)) secrets++;
    else pii++;
  }
  return { pii, secrets, injection };
}
