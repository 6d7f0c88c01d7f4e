// npm run eval -- --corpus DIR [--json]
// Scores the detectors on a folder holding pii.json, secrets.json.gz and injection.json (corpus format).

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { isInjectionType, isSecretType, scan } from "../index.ts";
import { scoreInjection, scoreSpans } from "./score.ts";
import type { InjectionCase, SpanCase, SpanReport, TypeMetrics } from "./score.ts";

function parseArgs(argv: string[]): { corpus: string; json: boolean } {
  const here = dirname(fileURLToPath(import.meta.url));
  let corpus = resolve(here, "../../..", "../shared/corpus");
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--json") json = true;
    else if (a === "--corpus") corpus = resolve(argv[++i] ?? corpus);
    else if (a.startsWith("--corpus=")) corpus = resolve(a.slice(9));
  }
  return { corpus, json };
}

function pct(x: number | null): string {
  return x === null ? "   -  " : (x * 100).toFixed(1).padStart(5) + "%";
}

function table(title: string, m: Record<string, TypeMetrics>): string {
  const rows = Object.entries(m);
  const lines = [`${title}`, `  ${"type".padEnd(28)} ${"prec".padStart(6)} ${"recall".padStart(6)} ${"supp".padStart(5)} ${"tp".padStart(4)} ${"fp".padStart(4)} ${"fn".padStart(4)}`];
  for (const [t, v] of rows) {
    lines.push(`  ${t.padEnd(28)} ${pct(v.precision)} ${pct(v.recall)} ${String(v.support).padStart(5)} ${String(v.tp).padStart(4)} ${String(v.fp).padStart(4)} ${String(v.fn).padStart(4)}`);
  }
  return lines.join("\n");
}

function round(x: number | null): number | null {
  return x === null ? null : Math.round(x * 10000) / 10000;
}

function compact(r: SpanReport): Record<string, { precision: number | null; recall: number | null; support: number }> {
  return Object.fromEntries(Object.entries(r.headline).map(([t, v]) => [t, { precision: round(v.precision), recall: round(v.recall), support: v.support }]));
}

function main(): void {
  const { corpus, json } = parseArgs(process.argv.slice(2));
  const pii = JSON.parse(readFileSync(resolve(corpus, "pii.json"), "utf8")) as SpanCase[];
  const secrets = JSON.parse(gunzipSync(readFileSync(resolve(corpus, "secrets.json.gz"))).toString("utf8")) as SpanCase[];
  const injection = JSON.parse(readFileSync(resolve(corpus, "injection.json"), "utf8")) as InjectionCase[];

  const piiReport = scoreSpans(pii, (t) => scan(t).findings.filter((f) => !isSecretType(f.type) && !isInjectionType(f.type)));
  const secReport = scoreSpans(secrets, (t) => scan(t).findings.filter((f) => isSecretType(f.type)));
  const injReport = scoreInjection(injection, (t) => scan(t).injection.detected);

  if (json) {
    const h = injReport.headline;
    process.stdout.write(
      JSON.stringify({
        pii: compact(piiReport),
        secrets: compact(secReport),
        injection: { precision: round(h.precision), recall: round(h.recall), false_positive_rate: round(h.false_positive_rate), support: h.support },
      }) + "\n",
    );
    return;
  }
  const out: string[] = [];
  out.push(`corpus: ${corpus}`, "");
  out.push(table("PII (headline)", piiReport.headline), "");
  if (Object.keys(piiReport.ambiguous).length) out.push(table("PII (ambiguous cases, reported apart)", piiReport.ambiguous), "");
  out.push(table("Secrets (headline)", secReport.headline), "");
  if (Object.keys(secReport.ambiguous).length) out.push(table("Secrets (ambiguous cases, reported apart)", secReport.ambiguous), "");
  const h = injReport.headline;
  out.push("Prompt injection (headline)");
  out.push(`  precision ${pct(h.precision)}  recall ${pct(h.recall)}  F1 ${pct(h.f1)}  FPR on benign ${pct(h.false_positive_rate)}  FPR on hard negatives ${pct(injReport.hard_negative_false_positive_rate)}  (tp ${h.tp} fp ${h.fp} tn ${h.tn} fn ${h.fn})`);
  for (const [k, v] of Object.entries(injReport.recall_by_kind)) out.push(`  recall ${k.padEnd(10)} ${pct(v.recall)}  (${v.detected}/${v.total})`);
  const a = injReport.ambiguous;
  if (a.tp + a.fp + a.tn + a.fn > 0) out.push(`  ambiguous cases: tp ${a.tp} fp ${a.fp} tn ${a.tn} fn ${a.fn}`);
  process.stdout.write(out.join("\n") + "\n");
}

main();
