// The training examples of the prompt-injection model (scripts/detect/train-injection.ts), with the source
// and licence of each. Never the development set's untouched split, never ../shared/corpus, never a source
// the issue reserves for independent evaluation.
//
// - The development set's injection cases of the dev split (both template sets), the same dev templates
//   drawn with three more seeds, with surface noise (augment) and with words swapped for near-synonyms
//   (paraphrase).
// - Real text as negatives, from packages the repository already installs (node_modules, pinned by
//   package-lock.json): paragraphs of the npm packages' READMEs (English technical prose); TypeScript's
//   compiler messages in de, es, fr, ja, ru, zh-cn (human translations, Apache-2.0); axe-core's rule
//   descriptions in de, es, fr, ja, ru, zh_CN (MPL-2.0). Real text full of "ignore", "rule", "must",
//   "override", "instructions" said about software, in the seven languages the model scores.
// - Real text as carriers: dev-split attacks and hard negatives spliced into README paragraphs, so that
//   what decides is the payload, not whether its surroundings are generated.
// - OpenTelemetry's semantic-convention attribute names and descriptions (Apache-2.0): agent telemetry
//   ("gen_ai.request.model", "gen_ai.system_instructions") is what this service stores most.
// - The development set's PII and secret texts (dev split), as frozen in data/injection-negatives.jsonl.gz
//   by freeze-injection-negatives.ts (so PII work does not retrain this model), and Faker sentences, as
//   negatives.

import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { allLocales, base, Faker } from '@faker-js/faker';
import type { LocaleDefinition } from '@faker-js/faker';
import { devSet } from './devset/index.ts';
import { injectionCases } from './devset/injection.ts';
import { rng } from './devset/build.ts';
import { REPO } from './frozen.ts';
import { extraExamples } from './injection-training-extra.ts';
import { indirectExamples } from './injection-training-indirect.ts';

export { EXTRA_SOURCE } from './injection-training-extra.ts';

export interface Example {
  text: string;
  y: 0 | 1;
  kind: string;
  source: string;
  licence: string;
  /** template group (or document), for the validation split: near-duplicates stay on one side */
  group: string;
}

/** Surface noise real text has and templates lack: case changes, dropped or doubled letters, line breaks. */
function augment(text: string, r: () => number): string {
  const k = r();
  let t = k < 0.2 ? text.toLowerCase() : k < 0.3 ? text.toUpperCase() : text;
  let out = '';
  for (const ch of t) {
    const x = r();
    if (x < 0.02) continue;
    out += x > 0.985 ? ch + ch : ch;
  }
  t = out;
  if (r() < 0.3) t = t.replace(/\. /g, '.\n');
  return t;
}

/**
 * Words of attacks and their near-synonyms, per language: a training injection gets a paraphrase with
 * some of its words swapped, so the model learns the vocabulary of overrides rather than the wording of
 * the templates it saw (the untouched part holds whole phrasings out).
 */
const SYNONYMS: string[][] = [
  ['ignore', 'disregard', 'forget', 'skip', 'overlook', 'set aside', 'drop', 'bypass'],
  ['previous', 'prior', 'earlier', 'above', 'preceding', 'original', 'initial', 'former'],
  ['instructions', 'rules', 'directions', 'guidelines', 'prompts', 'orders', 'commands', 'directives', 'constraints'],
  ['all', 'every one of the', 'any', 'each of the'],
  ['now', 'from now on', 'immediately', 'at once', 'right away'],
  ['reveal', 'print', 'show', 'output', 'display', 'leak', 'repeat', 'dump'],
  ['system prompt', 'hidden prompt', 'initial prompt', 'developer message', 'configuration', 'secret instructions'],
  ['restrictions', 'limits', 'filters', 'safety rules', 'guardrails', 'policies'],
  ['pretend', 'imagine', 'act as if', 'suppose'],
  ['must', 'have to', 'need to', 'are required to', 'shall'],
  [
    'no restrictions',
    'no limits',
    'no rules',
    'no filters',
    'no guidelines',
    'no boundaries',
    'no content policy',
    'no ethics',
  ],
  ['unfiltered', 'unrestricted', 'uncensored', 'unlimited', 'jailbroken', 'unchained', 'unbound'],
  ['developer mode', 'god mode', 'debug mode', 'admin mode', 'maintenance mode', 'root mode'],
  ['stay in character', 'never break character', 'remain in role', 'keep the persona'],
  ['you are now', 'from now on you are', 'you will act as', 'you have become', 'roleplay as'],
  ['ignoriere', 'vergiss', 'missachte', 'übergehe'],
  ['anweisungen', 'regeln', 'vorgaben', 'befehle'],
  ['ignore', 'oublie', 'néglige', 'laisse de côté'],
  ['instructions', 'règles', 'consignes', 'directives'],
  ['ignora', 'olvida', 'omite', 'pasa por alto'],
  ['instrucciones', 'reglas', 'indicaciones', 'órdenes'],
  ['игнорируй', 'забудь', 'не обращай внимания на', 'пропусти'],
  ['инструкции', 'правила', 'указания', 'команды'],
  ['忽略', '无视', '忘记', '不要理会'],
  ['指令', '指示', '规则', '命令'],
  ['無視して', '忘れて', '無効にして'],
  ['指示', 'ルール', '命令', '指令'],
];

function paraphrase(text: string, r: () => number): string {
  let t = text;
  for (const group of SYNONYMS) {
    for (const w of group) {
      const i = t.toLowerCase().indexOf(w);
      if (i < 0 || r() < 0.4) continue;
      const cjk = /[\u3040-\u9fff]/.test(w);
      if (!cjk && ((i > 0 && /\p{L}/u.test(t[i - 1]!)) || /\p{L}/u.test(t[i + w.length] ?? ''))) continue;
      let other = group[Math.floor(r() * group.length)]!;
      if (t[i] !== undefined && t[i] !== t[i]!.toLowerCase()) other = other[0]!.toUpperCase() + other.slice(1);
      t = t.slice(0, i) + other + t.slice(i + w.length);
      break;
    }
  }
  return t;
}

function int(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

/** The licence a package declares in its package.json. */
function licenceOf(dir: string): string {
  try {
    return String(
      (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { license?: string }).license ?? 'unknown',
    );
  } catch {
    return 'unknown';
  }
}

/** Every string in a JSON value, depth first. */
function stringsIn(x: unknown, out: string[] = []): string[] {
  if (typeof x === 'string') out.push(x);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) stringsIn(v, out);
  return out;
}

/** Every k-th item, so that a sample spreads over the whole list and stays the same from run to run. */
function spread<T>(xs: readonly T[], max: number): T[] {
  if (xs.length <= max) return [...xs];
  const step = xs.length / max;
  return Array.from({ length: max }, (_, i) => xs[Math.floor(i * step)]!);
}

/** Messages of TypeScript's compiler and axe-core's rules, per language (real translated prose). */
function localisedMessages(push: (e: Example) => void): void {
  const nm = join(REPO, 'node_modules');
  const ts: Array<[string, string]> = [
    ['de', 'de'],
    ['es', 'es'],
    ['fr', 'fr'],
    ['ja', 'ja'],
    ['ru', 'ru'],
    ['zh', 'zh-cn'],
  ];
  for (const [lang, dir] of ts) {
    const file = join(nm, 'typescript/lib', dir, 'diagnosticMessages.generated.json');
    if (!existsSync(file)) continue;
    const msgs = Object.values(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).filter(
      (s) => s.length >= 30,
    );
    const r = rng(lang.charCodeAt(0) * 131 + lang.charCodeAt(1));
    // single messages, and runs of three as a paragraph
    for (const [i, m] of spread(msgs, 300).entries()) {
      const text =
        i % 3 === 0 ? [m, msgs[int(r, 0, msgs.length - 1)]!, msgs[int(r, 0, msgs.length - 1)]!].join(' ') : m;
      push({
        text,
        y: 0,
        kind: 'localised',
        source: `TypeScript compiler messages (${lang})`,
        licence: `${licenceOf(join(nm, 'typescript'))} (typescript)`,
        group: `ts-${lang}-${i % 40}`,
      });
    }
  }
  const axe: Array<[string, string]> = [
    ['de', 'de'],
    ['es', 'es'],
    ['fr', 'fr'],
    ['ja', 'ja'],
    ['ru', 'ru'],
    ['zh', 'zh_CN'],
  ];
  for (const [lang, file] of axe) {
    const path = join(nm, 'axe-core/locales', `${file}.json`);
    if (!existsSync(path)) continue;
    const msgs = stringsIn(JSON.parse(readFileSync(path, 'utf8'))).filter((s) => s.length >= 25);
    for (const [i, m] of spread(msgs, 200).entries()) {
      push({
        text: m.replace(/\$\{[^}]{0,60}\}/g, 'x'),
        y: 0,
        kind: 'localised',
        source: `axe-core rule messages (${lang})`,
        licence: `${licenceOf(join(nm, 'axe-core'))} (axe-core)`,
        group: `axe-${lang}-${i % 40}`,
      });
    }
  }
}

/**
 * What agents' telemetry is made of: OpenTelemetry's semantic-convention attribute names
 * ("gen_ai.request.model", "gen_ai.system_instructions") alone and as key=value lines, and the
 * descriptions of those attributes (their JSDoc). Short strings full of "ai", "model", "system",
 * "instructions", "agent" that a model of attack words must leave alone.
 */
function telemetryTexts(push: (e: Example) => void): void {
  const dir = join(REPO, 'node_modules/@opentelemetry/semantic-conventions');
  const dist = join(dir, 'dist');
  if (!existsSync(dist)) return;
  const licence = `${licenceOf(dir)} (@opentelemetry/semantic-conventions)`;
  const names = new Set<string>();
  const docs: string[] = [];
  for (const f of readdirSync(dist).sort()) {
    if (!f.endsWith('.mjs') && !f.endsWith('.d.mts')) continue;
    const text = readFileSync(join(dist, f), 'utf8');
    if (f.endsWith('.mjs'))
      for (const m of text.matchAll(/["']([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)["']/g)) names.add(m[1]!);
    if (f.endsWith('.d.mts')) {
      for (const m of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
        const body = m[1]!
          .split('\n')
          .map((l) => l.replace(/^\s*\* ?/, ''))
          .filter((l) => l && !l.startsWith('@'))
          .join(' ')
          .trim();
        if (body.length >= 40 && !body.startsWith('Enum value')) docs.push(body);
      }
    }
  }
  const r = rng(777);
  const sorted = [...names].sort();
  for (const [i, name] of spread(sorted, 600).entries()) {
    const text =
      i % 3 === 0
        ? name
        : i % 3 === 1
          ? `${name}=${sorted[int(r, 0, sorted.length - 1)]!.split('.').pop()!}`
          : `${name}: ${sorted[int(r, 0, sorted.length - 1)]!}`;
    push({
      text,
      y: 0,
      kind: 'telemetry',
      source: 'OpenTelemetry semantic-convention attribute names',
      licence,
      group: `semconv-name-${i % 40}`,
    });
  }
  for (const [i, doc] of spread([...new Set(docs)], 600).entries())
    push({
      text: doc,
      y: 0,
      kind: 'telemetry',
      source: 'OpenTelemetry semantic-convention descriptions',
      licence,
      group: `semconv-doc-${i % 40}`,
    });
}

/**
 * The npm packages whose README paragraphs the model reads, pinned in data/readme-packages.json: which
 * packages are installed changes with every dependency, and the model must not go stale with it. A pinned
 * package that is no longer installed changes the training texts, which model-fresh.test.ts reports.
 */
const README_PACKAGES = new URL('./data/readme-packages.json', import.meta.url);

/** The packages readmeParagraphs reads when nothing is pinned: every installed one but the workspace's own. */
export function installedReadmePackages(): string[] {
  const nm = join(REPO, 'node_modules');
  return (
    readdirSync(nm)
      .flatMap((d) => (d.startsWith('@') ? readdirSync(join(nm, d)).map((s) => `${d}/${s}`) : [d]))
      // The workspace's own packages are links to this repository: our text, not other people's.
      .filter((p) => !lstatSync(join(nm, p)).isSymbolicLink())
      .sort()
  );
}

/** README paragraphs of the pinned npm packages in node_modules, by package. */
function readmeParagraphs(): Array<{ pkg: string; licence: string; paras: string[] }> {
  const nm = join(REPO, 'node_modules');
  const pkgs = existsSync(README_PACKAGES)
    ? (JSON.parse(readFileSync(README_PACKAGES, 'utf8')) as { packages: string[] }).packages
    : installedReadmePackages();
  const out: Array<{ pkg: string; licence: string; paras: string[] }> = [];
  let total = 0;
  for (const p of pkgs) {
    const readme = join(nm, p, 'README.md');
    if (!existsSync(readme) || total >= 2500) continue;
    const paras = readFileSync(readme, 'utf8')
      .split(/\n\s*\n/)
      .filter((s) => s.length >= 80 && s.length <= 1200)
      .slice(0, 15);
    if (paras.length === 0) continue;
    out.push({ pkg: p, licence: licenceOf(join(nm, p)), paras });
    total += paras.length;
  }
  return out;
}

/** The packages whose READMEs the training texts hold now (what data/readme-packages.json pins). */
export function readmePackagesUsed(): string[] {
  return readmeParagraphs().map((r) => r.pkg);
}

/** `payload` put into a real paragraph, after one of its sentences (or at its end). */
function splice(paragraph: string, payload: string, r: () => number): string {
  const cuts = [...paragraph.matchAll(/[.!?:]\s+/g)].map((m) => m.index + m[0].length);
  const at = cuts.length > 0 && r() < 0.7 ? cuts[int(r, 0, cuts.length - 1)]! : paragraph.length;
  return paragraph.slice(0, at) + (at === paragraph.length ? '\n\n' : '') + payload + ' ' + paragraph.slice(at);
}

/** The PII and secret texts of the development set's dev split, as last frozen (see freeze-injection-negatives.ts). */
function frozenNegatives(): { text: string; licence: string; group: string }[] {
  const jsonl = gunzipSync(readFileSync(new URL('./data/injection-negatives.jsonl.gz', import.meta.url))).toString(
    'utf8',
  );
  return jsonl
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { text: string; licence: string; group: string });
}

export function collect(): Example[] {
  const ds = devSet();
  const ra = rng(31);
  const out: Example[] = [];
  const seen = new Set<string>();
  const push = (e: Example) => {
    if (seen.has(e.text)) return;
    seen.add(e.text);
    out.push(e);
  };
  const groupOf = (source: string) => source.replace(/ in carrier .*| with another sentence/, '');
  const devAttacks: Example[] = [];
  const devHard: Example[] = [];
  for (const seed of [17, 1001, 1002, 1003]) {
    const cases = seed === 17 ? ds.injection : injectionCases(seed);
    for (const c of cases) {
      if (c.split !== 'dev') continue;
      const group = groupOf(c.source);
      const e: Example = {
        text: c.text,
        y: c.label === 'injection' ? 1 : 0,
        kind: c.kind,
        source: 'devset injection (generated)',
        licence: c.licence,
        group,
      };
      push(e);
      if (e.y === 1 && c.kind !== 'indirect') devAttacks.push(e);
      if (c.kind === 'hard_negative' && !/ in carrier | with another sentence/.test(c.source)) devHard.push(e);
      if (seed !== 17) push({ ...e, text: augment(c.text, ra), source: 'devset injection (generated), augmented' });
      if (seed !== 17 && c.label === 'injection')
        push({ ...e, text: paraphrase(c.text, ra), source: 'devset injection (generated), paraphrased' });
    }
  }
  for (const c of frozenNegatives())
    push({
      text: c.text,
      y: 0,
      kind: 'data',
      source: 'devset PII/secrets texts (generated)',
      licence: c.licence,
      group: c.group,
    });
  const r = rng(2024);
  for (const loc of ['en', 'de', 'fr', 'es', 'zh_CN', 'ru', 'ja']) {
    const f = new Faker({ locale: [(allLocales as Record<string, LocaleDefinition>)[loc]!, allLocales.en, base] });
    f.seed(7);
    for (let i = 0; i < 150; i++) {
      const t = [f.lorem.sentence(), f.word.words(int(r, 3, 12)), f.commerce.productDescription(), f.lorem.paragraph()][
        i % 4
      ]!;
      push({
        text: t,
        y: 0,
        kind: 'lorem',
        source: `Faker ${loc} sentences`,
        licence: 'MIT (@faker-js/faker locale data)',
        group: `faker-${loc}-${i % 4}`,
      });
    }
  }
  const readmes = readmeParagraphs();
  for (const { pkg, licence, paras } of readmes) {
    for (const para of paras)
      push({
        text: para,
        y: 0,
        kind: 'readme',
        source: `README of npm package ${pkg}`,
        licence,
        group: `readme-${pkg}`,
      });
  }
  localisedMessages(push);
  telemetryTexts(push);
  if (process.env.INJ_EXTRA !== '0') for (const e of extraExamples()) push(e);
  // indirect attacks composed from parts in many carriers, and their hard-negative twins in the same carriers
  if (process.env.INJ_INDIRECT !== '0') for (const e of indirectExamples()) push(e);
  // dev attacks and hard negatives inside real paragraphs; the group stays the template's, so a
  // template's spliced copies are on the same side of the validation split as the template
  const rs = rng(4242);
  const allParas = readmes.flatMap(({ pkg, licence, paras }) => paras.map((p) => ({ pkg, licence, p })));
  for (const [list, y, kind] of [
    [devAttacks, 1, 'indirect'],
    [devHard, 0, 'hard_negative'],
  ] as const) {
    for (let i = 0; i < list.length; i += 3) {
      const e = list[i]!;
      const host = allParas[int(rs, 0, allParas.length - 1)]!;
      push({
        text: splice(host.p, e.text, rs),
        y,
        kind,
        source: `devset injection (generated) in a README paragraph`,
        licence: `${e.licence}; ${host.licence} (the README's package)`,
        group: e.group,
      });
    }
  }
  return out;
}

/**
 * How many generated examples join the real development data (datasets/detect/injection/) in training:
 * every k-th of collect()'s, so that the leave-one-source-out evaluation, which trains once per held-out
 * family and once per family inside it, stays a matter of a minute or two. With this share the held-out
 * families score as they do with all of collect() (within their intervals), and without any the
 * jailbreak and payload-list families lose 5-10 points.
 */
export const GENERATED_POOL_SIZE = 6000;

/** The generated examples that join every training set (the shipped model's and each LOSO fold's). */
export function generatedPool(): Example[] {
  const all = collect();
  const k = Math.max(1, Math.floor(all.length / GENERATED_POOL_SIZE));
  return all.filter((_, i) => i % k === 0);
}
