// The generated development set: PII, secrets and prompt-injection cases with per-case provenance
// (source, licence) and a split. `dev` is what the detectors are tuned and the injection model trained
// on; `untouched` (a quarter of the templates, whole) is only ever scored in aggregate by `npm run eval`.
// Deterministic: the same seeds give the same cases on every machine (Faker and libphonenumber-js are
// pinned in package.json).

import { injectionCases } from './injection.ts';
import { piiCases } from './pii.ts';
import { secretCases } from './secrets.ts';
import type { InjectionCase, SpanCase, Split } from './build.ts';

export type { InjectionCase, SpanCase, Split };

export interface DevSet {
  pii: SpanCase[];
  secrets: SpanCase[];
  injection: InjectionCase[];
  /** Every text (for the equivalence harness). */
  texts(): string[];
}

let cached: DevSet | undefined;

export function devSet(): DevSet {
  if (cached) return cached;
  const pii = piiCases();
  const secrets = secretCases();
  const injection = injectionCases();
  cached = { pii, secrets, injection, texts: () => [...pii, ...secrets, ...injection].map((c) => c.text) };
  return cached;
}

export function ofSplit<T extends { split: Split }>(cases: readonly T[], split: Split): T[] {
  return cases.filter((c) => c.split === split);
}
