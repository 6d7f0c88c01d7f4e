// Phone numbers, other structured PII and secrets on public test data labelled by other people
// (datasets/detect/structured/, built by scripts/detect/build-structured-data.ts; SOURCES.md there). No
// detector rule was written from these families before they were first measured; since, the misses of
// READ_FAMILIES were read to change the rules, and the macro-average over the others is the figure "on
// sources the detectors never saw".
//
// Span cases are scored as the shared corpus is (score.ts: overlap matching, false positives only for the
// types the case checks). Secret cases carry no offsets, so they are scored per case: a credential is found
// when the scan reports any secret in its text (what redaction needs), and found as its type when that
// secret has the type the rule's vendor maps to; GENERIC_SECRET precision counts its findings in texts
// holding a credential against those in texts the source says must not match.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO } from '../../../scripts/detect/frozen.ts';
import type { StructuredCase } from '../../../scripts/detect/build-structured-data.ts';
import { isInjectionType, isSecretType, scan } from '../index.ts';
import { macro } from './loso-injection.ts';
import type { MacroRate } from './loso-injection.ts';
import { matchCase, wilson } from './score.ts';
import type { TypeCounts } from './score.ts';

/**
 * The families whose misses were read to change the detectors (docs/detection.md says which changes); the
 * others are held out, and their macro-average is printed apart.
 */
export const READ_FAMILIES: ReadonlySet<string> = new Set(['recognizers-text', 'noseyparker', 'duckling']);

export const STRUCTURED_FILE = join(REPO, 'datasets', 'detect', 'structured', 'cases.jsonl.gz');

export function structuredCases(file = STRUCTURED_FILE): StructuredCase[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StructuredCase);
}

interface Rate {
  hit: number;
  n: number;
}

export interface SecretCounts {
  /** credentials found as any secret / all credentials */
  found: Rate;
  /** credentials of a type we name, found as that type */
  typed: Rate;
  /** GENERIC_SECRET findings: texts with a credential (tp) and texts that must not match (fp) */
  genericTp: number;
  genericFp: number;
  /** texts that must not match where any secret is reported */
  negativeHit: Rate;
}

export interface FamilyResult {
  family: string;
  cases: number;
  pii: Map<string, TypeCounts>;
  secrets?: SecretCounts;
  /** the cases missed or wrongly flagged, for the record (never used to tune a held-out family) */
  errors: string[];
}

export type Predict = (text: string) => Array<{ type: string; start: number; end: number }>;

const scanAll: Predict = (t) => scan(t).findings.filter((f) => !isInjectionType(f.type));

export function scoreStructured(cases: readonly StructuredCase[], predict: Predict = scanAll): FamilyResult[] {
  const byFamily = new Map<string, FamilyResult>();
  for (const c of cases) {
    let r = byFamily.get(c.family);
    if (!r) byFamily.set(c.family, (r = { family: c.family, cases: 0, pii: new Map(), errors: [] }));
    r.cases++;
    const found = predict(c.text);
    if (c.entities) {
      const labels = c.entities.map(([start, end, type]) => ({ type, start, end }));
      const preds = found.filter((f) => !isSecretType(f.type));
      for (const [t, k] of matchCase(labels, preds, c.checked ?? [])) {
        const x = r.pii.get(t) ?? { tp: 0, fp: 0, fn: 0 };
        x.tp += k.tp;
        x.fp += k.fp;
        x.fn += k.fn;
        r.pii.set(t, x);
        if (k.fn || k.fp)
          r.errors.push(
            `${t} ${k.fn ? 'fn' : 'fp'} ${c.id}: ${JSON.stringify(c.text.slice(0, 200))} -> ${JSON.stringify(preds.filter((p) => p.type === t).map((p) => c.text.slice(p.start, p.end)))}`,
          );
      }
    }
    if (c.secret !== undefined) {
      const s = (r.secrets ??= {
        found: { hit: 0, n: 0 },
        typed: { hit: 0, n: 0 },
        genericTp: 0,
        genericFp: 0,
        negativeHit: { hit: 0, n: 0 },
      });
      const secrets = found.filter((f) => isSecretType(f.type));
      const generic = secrets.some((f) => f.type === 'GENERIC_SECRET');
      if (c.secret === null) {
        s.negativeHit.n++;
        if (secrets.length) s.negativeHit.hit++;
        if (generic) s.genericFp++;
        if (secrets.length)
          r.errors.push(
            `secret fp ${c.id}: ${JSON.stringify(c.text.slice(0, 200))} -> ${secrets.map((f) => f.type).join(',')}`,
          );
      } else {
        s.found.n++;
        if (secrets.length) s.found.hit++;
        else r.errors.push(`secret fn ${c.id}: ${JSON.stringify(c.text.slice(0, 200))}`);
        if (c.secret !== 'ANY') {
          s.typed.n++;
          if (secrets.some((f) => f.type === c.secret)) s.typed.hit++;
        }
        if (generic) s.genericTp++;
      }
    }
  }
  return [...byFamily.values()].sort((a, b) => a.family.localeCompare(b.family));
}

const pct = (r: Rate) => (r.n === 0 ? '     -' : ((100 * r.hit) / r.n).toFixed(1).padStart(6));
const ci = (r: Rate) => {
  const w = wilson(r.hit, r.n);
  return (w ? `[${(w[0] * 100).toFixed(1)}-${(w[1] * 100).toFixed(1)}]` : '').padEnd(12);
};
const label = (family: string) => (READ_FAMILIES.has(family) ? `${family} (read)` : family).padEnd(23);
const both = (r: Rate) => `${pct(r)} ${ci(r)} ${`(${r.hit}/${r.n})`.padEnd(11)}`;
const mac = (m: MacroRate | null) =>
  m
    ? `${(m.mean * 100).toFixed(1).padStart(6)} [${(m.ci[0] * 100).toFixed(1)}-${(m.ci[1] * 100).toFixed(1)}] over ${m.families}`
    : '     -';

export interface StructuredMacro {
  pii: Record<string, { precision: MacroRate | null; recall: MacroRate | null }>;
  secretRecall: MacroRate | null;
  secretTyped: MacroRate | null;
  genericPrecision: MacroRate | null;
  negativeHit: MacroRate | null;
}

export function structuredMacro(results: readonly FamilyResult[]): StructuredMacro {
  const types = [...new Set(results.flatMap((r) => [...r.pii.keys()]))].sort();
  const pii: StructuredMacro['pii'] = {};
  for (const t of types) {
    const cs = results.map((r) => r.pii.get(t)).filter((c): c is TypeCounts => !!c);
    pii[t] = {
      precision: macro(cs.map((c) => ({ hit: c.tp, n: c.tp + c.fp }))),
      recall: macro(cs.map((c) => ({ hit: c.tp, n: c.tp + c.fn }))),
    };
  }
  const sec = results.map((r) => r.secrets).filter((s): s is SecretCounts => !!s);
  return {
    pii,
    secretRecall: macro(sec.map((s) => s.found)),
    secretTyped: macro(sec.map((s) => s.typed)),
    genericPrecision: macro(sec.map((s) => ({ hit: s.genericTp, n: s.genericTp + s.genericFp }))),
    negativeHit: macro(sec.map((s) => s.negativeHit)),
  };
}

/** The per-family tables and their macro-averages, as `npm run eval` prints them. */
export function structuredLines(results: readonly FamilyResult[]): string[] {
  const out = [
    "==== structured PII and secrets on other people's labelled test data (datasets/detect/structured, see SOURCES.md); (read): the changes were written from its misses, the other families are held out",
    `  ${'family'.padEnd(23)} ${'type'.padEnd(14)} ${'precision'.padEnd(32)} ${'recall'.padEnd(32)}`,
  ];
  for (const r of results)
    for (const [t, c] of [...r.pii].sort(([a], [b]) => a.localeCompare(b)))
      out.push(
        `  ${label(r.family)} ${t.padEnd(14)} ${both({ hit: c.tp, n: c.tp + c.fp })} ${both({ hit: c.tp, n: c.tp + c.fn })}`,
      );
  const m = structuredMacro(results);
  const h = structuredMacro(results.filter((r) => !READ_FAMILIES.has(r.family)));
  out.push('  macro-average over families (95 % interval):');
  for (const [t, x] of Object.entries(m.pii))
    out.push(`    ${t.padEnd(14)} precision ${mac(x.precision)}   recall ${mac(x.recall)}`);
  out.push('  the same over the held-out families only:');
  for (const [t, x] of Object.entries(h.pii))
    out.push(`    ${t.padEnd(14)} precision ${mac(x.precision)}   recall ${mac(x.recall)}`);
  out.push(
    '',
    `  ${'family'.padEnd(23)} ${'secrets found (any type)'.padEnd(32)} ${'found as their type'.padEnd(32)} ${'GENERIC_SECRET precision'.padEnd(32)} must-not-match texts flagged`,
  );
  for (const r of results) {
    const s = r.secrets;
    if (!s) continue;
    out.push(
      `  ${label(r.family)} ${both(s.found)} ${both(s.typed)} ${both({ hit: s.genericTp, n: s.genericTp + s.genericFp })} ${both(s.negativeHit)}`,
    );
  }
  out.push(
    '  macro-average over families (95 % interval):',
    `    secrets found ${mac(m.secretRecall)}   found as their type ${mac(m.secretTyped)}`,
    `    GENERIC_SECRET precision ${mac(m.genericPrecision)}   must-not-match texts flagged ${mac(m.negativeHit)}`,
    '  the same over the held-out families only:',
    `    secrets found ${mac(h.secretRecall)}   found as their type ${mac(h.secretTyped)}`,
    `    GENERIC_SECRET precision ${mac(h.genericPrecision)}   must-not-match texts flagged ${mac(h.negativeHit)}`,
    '',
  );
  return out;
}
