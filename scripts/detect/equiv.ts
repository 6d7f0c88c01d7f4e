// npm run detect:equiv -- [--ref REF] [--seed N] [--fuzz N] [--corpus DIR] [--show N]
//
// Compares what the current src/detect finds with what the detectors of REF (default: main) find, on
// the shared corpus's texts (read in place), the bench's mixed records, the adversarial 32,000-char
// inputs, the generated development set (when present) and seeded fuzz texts. Every public entry point
// is compared: scan() per field, each detector of DETECTORS, detectPii, the injection score, and the
// storage scan (findings with categories, redacted text and re-indexed findings), and redactForStorage
// (against the storage scan's redacted text where REF has none).
// Exit 0 when nothing differs. When findings are meant to change (--report), it prints what changed
// by type (added / removed findings, injection verdicts flipped) and exits 0.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { adversarialInputs } from '../../src/detect/eval/adversarial.ts';
import { mixedRecords } from '../../bench/mixed-text.ts';
import { devSet } from './devset/index.ts';
import { commitOf, findCorpus, importFrozen } from './frozen.ts';
import { fuzzTexts } from './fuzz-text.ts';

type Finding = { type: string; start: number; end: number; score: number; category?: string };
type StorageScan = { findings: Finding[]; stored: string; storedFindings: Finding[]; pii_count: number };
interface DetectApi {
  scan(
    text: string,
    opts?: { field?: string },
  ): { findings: Finding[]; pii_count: number; secret_count: number; injection: { detected: boolean; score: number } };
  scanAndRedact(text: string): { redacted: string };
  detectPii(text: string, minScore?: number): Finding[];
  detectInjection(text: string, opts?: { field?: string }): { score: number; detected: boolean };
  DETECTORS: Record<string, (t: string) => Finding[]>;
  scanField?: (field: string, text: string) => StorageScan;
  /** The stored text without the injection detector (metadata, review notes); before it, the storage scan's `stored`. */
  redactForStorage?: (text: string) => string;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const FIELDS = ['prompt', 'response', 'context', 'tool_input', 'tool_output'];

/** Everything an entry point returns for one text, keyed by entry point. */
function observe(
  api: DetectApi,
  storage: (field: string, text: string) => StorageScan,
  text: string,
  names: readonly string[],
): Map<string, string> {
  const out = new Map<string, string>();
  out.set('scan', JSON.stringify(api.scan(text)));
  out.set('scan:tool_output', JSON.stringify(api.scan(text, { field: 'tool_output' })));
  out.set('scanAndRedact', api.scanAndRedact(text).redacted);
  out.set('detectPii', JSON.stringify(api.detectPii(text, 0)));
  out.set('detectInjection:context', JSON.stringify(api.detectInjection(text, { field: 'context' })));
  for (const n of names) out.set(`DETECTORS.${n}`, JSON.stringify(api.DETECTORS[n]!(text)));
  for (const f of FIELDS) {
    // the fields every revision's storage scan has (a newer one may add more, e.g. `hidden`, which shows in `stored`)
    const { findings, stored, storedFindings, pii_count } = storage(f, text);
    out.set(`storage:${f}`, JSON.stringify({ findings, stored, storedFindings, pii_count }));
  }
  out.set('redactForStorage', api.redactForStorage ? api.redactForStorage(text) : storage('context', text).stored);
  return out;
}

function key(f: Finding): string {
  return `${f.type}@${f.start}-${f.end}`;
}

async function main(): Promise<void> {
  const ref = arg('ref') ?? 'main';
  const seed = Number(arg('seed') ?? 1);
  const nFuzz = Number(arg('fuzz') ?? 3000);
  const show = Number(arg('show') ?? 5);
  const report = process.argv.includes('--report');
  const commit = commitOf(ref);

  const cur = (await import('../../src/detect/index.ts')) as unknown as DetectApi;
  const old = await importFrozen<DetectApi>(ref, 'src/detect/index.ts');
  if (!old) throw new Error(`${ref} has no src/detect/index.ts`);
  const storageOf = async (api: DetectApi, frozen: boolean): Promise<(field: string, text: string) => StorageScan> => {
    if (api.scanField) return api.scanField;
    // before the redaction moved into detect/, the storage scan was ingest/scanner.ts's detectScanner
    const m = frozen
      ? await importFrozen<{ detectScanner: (f: string, t: string) => StorageScan }>(ref, 'src/ingest/scanner.ts')
      : undefined;
    if (!m) throw new Error('no storage scan found');
    return m.detectScanner;
  };
  const curStore = await storageOf(cur, false);
  const oldStore = await storageOf(old, true);
  const names = Object.keys(cur.DETECTORS).filter((n) => n in old.DETECTORS);

  const sources: Array<[string, string[]]> = [];
  const corpus = findCorpus(arg('corpus'));
  if (corpus) {
    const texts: string[] = [];
    for (const c of JSON.parse(readFileSync(join(corpus, 'pii.json'), 'utf8')) as Array<{ text: string }>)
      texts.push(c.text);
    for (const c of JSON.parse(gunzipSync(readFileSync(join(corpus, 'secrets.json.gz'))).toString('utf8')) as Array<{
      text: string;
    }>)
      texts.push(c.text);
    for (const c of JSON.parse(readFileSync(join(corpus, 'injection.json'), 'utf8')) as Array<{ text: string }>)
      texts.push(c.text);
    sources.push(['corpus', texts]);
  } else console.log('(shared corpus not found: pass --corpus DIR)');
  sources.push(['bench records', mixedRecords(400_000).records]);
  sources.push(['adversarial', Object.values(adversarialInputs(32_000))]);
  sources.push(['dev set', devSet().texts()]);
  sources.push([`fuzz (seed ${seed})`, fuzzTexts(seed, nFuzz)]);

  console.log(
    `current src/detect vs ${ref} (${commit.slice(0, 12)}); entry points: scan (2 fields), scanAndRedact, detectPii, detectInjection, ${names.length} detectors, storage scan (5 fields), redactForStorage`,
  );
  let differing = 0;
  let total = 0;
  const added = new Map<string, number>();
  const removed = new Map<string, number>();
  let injFlipsUp = 0;
  let injFlipsDown = 0;
  let spanTexts = 0;
  const shown: string[] = [];
  for (const [label, texts] of sources) {
    let d = 0;
    for (const t of texts) {
      const a = observe(old, oldStore, t, names);
      const b = observe(cur, curStore, t, names);
      const diffs = [...a.keys()].filter((k) => a.get(k) !== b.get(k));
      total++;
      if (diffs.length === 0) continue;
      d++;
      if (shown.length < show)
        shown.push(
          `  [${label}] ${diffs.slice(0, 4).join(', ')}${diffs.length > 4 ? ' …' : ''}: ${JSON.stringify(t.slice(0, 160))}`,
        );
      const fa = JSON.parse(a.get('scan')!) as ReturnType<DetectApi['scan']>;
      const fb = JSON.parse(b.get('scan')!) as ReturnType<DetectApi['scan']>;
      const ka = new Set(fa.findings.map(key));
      const kb = new Set(fb.findings.map(key));
      for (const f of fb.findings) if (!ka.has(key(f))) added.set(f.type, (added.get(f.type) ?? 0) + 1);
      for (const f of fa.findings) if (!kb.has(key(f))) removed.set(f.type, (removed.get(f.type) ?? 0) + 1);
      if (ka.size !== kb.size || [...ka].some((k) => !kb.has(k))) spanTexts++;
      if (!fa.injection.detected && fb.injection.detected) injFlipsUp++;
      if (fa.injection.detected && !fb.injection.detected) injFlipsDown++;
    }
    differing += d;
    console.log(`  ${label.padEnd(22)} ${String(texts.length).padStart(6)} texts, ${d} differ`);
  }
  console.log(`total: ${total} texts, ${differing} differ`);
  if (differing > 0) {
    console.log('first differences:');
    for (const s of shown) console.log(s);
    const types = [...new Set([...added.keys(), ...removed.keys()])].sort();
    console.log('scan() findings by type (added / removed, exact span):');
    for (const t of types) console.log(`  ${t.padEnd(28)} +${added.get(t) ?? 0} -${removed.get(t) ?? 0}`);
    console.log(
      `texts whose scan() finding spans differ: ${spanTexts} (the others differ in scores or other entry points only)`,
    );
    console.log(`injection verdicts changed: ${injFlipsUp} texts now detected, ${injFlipsDown} no longer (any label)`);
  }
  if (differing > 0 && !report) process.exitCode = 1;
}

await main();
