// Public entry points of the detect module: pure functions, no I/O.

import { detectInjection } from "./injection.ts";
import type { Field, InjectionResult } from "./injection.ts";
import { detectNames } from "./names.ts";
import { detectNumeric } from "./numeric.ts";
import { detectBareDomain, detectCrypto, detectEmail, detectIban, detectIp, detectMac, detectPatterns, detectUrl } from "./pii.ts";
import { redact } from "./redact.ts";
import { detectSecrets } from "./secrets.ts";
import { isInjectionType, isSecretType } from "./types.ts";
import type { Detector, Finding } from "./types.ts";

export type { Detector, Field, Finding, InjectionResult };
export { detectInjection, redact };
export { mergeSpans } from "./redact.ts";
export { INJECTION_TYPE, isInjectionType, isPiiType, isSecretType, SECRET_TYPES } from "./types.ts";
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
  numeric: (t) => detectNumeric(t),
  national_ids: (t) => detectPatterns(t),
  names: detectNames,
  secrets: detectSecrets,
  injection: (t) => detectInjection(t).findings,
};

/** All PII findings (unfiltered scores, overlaps kept). */
export function detectPii(text: string): Finding[] {
  const email = detectEmail(text);
  const url = detectUrl(text);
  const bare = detectBareDomain(text, [...url, ...email]);
  const ip = detectIp(text);
  const structured = [...email, ...url, ...bare, ...ip, ...detectMac(text), ...detectCrypto(text), ...detectIban(text)];
  const numeric = detectNumeric(text).filter((f) => !insideAny(f, structured));
  const patterns = detectPatterns(text).filter((f) => !insideAny(f, structured));
  const names = detectNames(text).filter((f) => !overlapsAny(f, [...email, ...url, ...bare]));
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
 * Among overlapping findings of different types, drops those with a strictly lower score than an
 * overlapping one. Linear after sorting: each finding is compared with the kept findings still open.
 */
export function resolveOverlaps(findings: readonly Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const drop = new Set<Finding>();
  const open: Finding[] = [];
  for (const f of sorted) {
    for (let i = open.length - 1; i >= 0; i--) if (open[i]!.end <= f.start) open.splice(i, 1);
    for (const g of open) {
      if (g.type === f.type) continue;
      if (g.score > f.score) drop.add(f);
      else if (f.score > g.score) drop.add(g);
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
  const pii = resolveOverlaps(detectPii(text).filter((f) => f.score >= minScore));
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
