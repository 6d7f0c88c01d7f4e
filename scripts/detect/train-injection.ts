// npm run train:injection — trains the prompt-injection model (src/detect/injection-model.ts) and
// writes src/detect/model/injection-lr.bin (float32 weights), injection-lr.json (bias, threshold,
// settings, validation figures) and injection-training-manifest.json (what it was trained on: counts by
// source and licence, and a SHA-256 of the training texts). Deterministic: the same repository gives the
// same files.
//
// Training data (never the untouched split, never ../shared/corpus):
// - the development set's injection cases of the dev split, plus the same dev templates drawn with three
//   more seeds (other actions, carriers and leads), with surface noise and with words swapped for
//   near-synonyms (SYNONYMS);
// - benign texts: the development set's PII and secret texts (dev split), Faker sentences and word
//   lists in en/de/fr/es/zh/ru/ja, and paragraphs of the READMEs of the npm packages in node_modules
//   (real technical prose; each package's licence recorded).
// Method: logistic regression, Adagrad, class-balanced loss, L2; the threshold is chosen on a validation
// part of the dev templates (a fifth, held out of a first training run) as the lowest probability that
// keeps validation false positives at or under 1 % on benign texts and 1.5 % on hard negatives; the final
// model is then
// trained on all of it.

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { allLocales, base, Faker } from "@faker-js/faker";
import type { LocaleDefinition } from "@faker-js/faker";
import { BLOCK, FEATURE_BITS, forEachFeature, modelScore, quantise } from "../../src/detect/injection-model.ts";
import type { InjectionModel } from "../../src/detect/injection-model.ts";
import { devSet } from "../../src/detect/eval/devset.ts";
import { injectionCases } from "../../src/detect/eval/devset/injection.ts";
import { rng } from "../../src/detect/eval/devset/build.ts";
import { REPO } from "./frozen.ts";

interface Example {
  text: string;
  y: 0 | 1;
  kind: string;
  source: string;
  licence: string;
  /** template group, for the validation split */
  group: string;
}

/** Surface noise real text has and templates lack: case changes, dropped or doubled letters, line breaks. */
function augment(text: string, r: () => number): string {
  const k = r();
  let t = k < 0.2 ? text.toLowerCase() : k < 0.3 ? text.toUpperCase() : text;
  let out = "";
  for (const ch of t) {
    const x = r();
    if (x < 0.02) continue;
    out += x > 0.985 ? ch + ch : ch;
  }
  t = out;
  if (r() < 0.3) t = t.replace(/\. /g, ".\n");
  return t;
}

/**
 * Words of attacks and their near-synonyms, per language: a training injection gets a paraphrase with
 * some of its words swapped, so the model learns the vocabulary of overrides rather than the wording of
 * the templates it saw (the untouched part holds whole phrasings out).
 */
const SYNONYMS: string[][] = [
  ["ignore", "disregard", "forget", "skip", "overlook", "set aside", "drop", "bypass"],
  ["previous", "prior", "earlier", "above", "preceding", "original", "initial", "former"],
  ["instructions", "rules", "directions", "guidelines", "prompts", "orders", "commands", "directives", "constraints"],
  ["all", "every one of the", "any", "each of the"],
  ["now", "from now on", "immediately", "at once", "right away"],
  ["reveal", "print", "show", "output", "display", "leak", "repeat", "dump"],
  ["system prompt", "hidden prompt", "initial prompt", "developer message", "configuration", "secret instructions"],
  ["restrictions", "limits", "filters", "safety rules", "guardrails", "policies"],
  ["pretend", "imagine", "act as if", "suppose"],
  ["must", "have to", "need to", "are required to", "shall"],
  ["no restrictions", "no limits", "no rules", "no filters", "no guidelines", "no boundaries", "no content policy", "no ethics"],
  ["unfiltered", "unrestricted", "uncensored", "unlimited", "jailbroken", "unchained", "unbound"],
  ["developer mode", "god mode", "debug mode", "admin mode", "maintenance mode", "root mode"],
  ["stay in character", "never break character", "remain in role", "keep the persona"],
  ["you are now", "from now on you are", "you will act as", "you have become", "roleplay as"],
  ["ignoriere", "vergiss", "missachte", "übergehe"], ["anweisungen", "regeln", "vorgaben", "befehle"],
  ["ignore", "oublie", "néglige", "laisse de côté"], ["instructions", "règles", "consignes", "directives"],
  ["ignora", "olvida", "omite", "pasa por alto"], ["instrucciones", "reglas", "indicaciones", "órdenes"],
  ["игнорируй", "забудь", "не обращай внимания на", "пропусти"], ["инструкции", "правила", "указания", "команды"],
  ["忽略", "无视", "忘记", "不要理会"], ["指令", "指示", "规则", "命令"],
  ["無視して", "忘れて", "無効にして"], ["指示", "ルール", "命令", "指令"],
];

function paraphrase(text: string, r: () => number): string {
  let t = text;
  for (const group of SYNONYMS) {
    for (const w of group) {
      const i = t.toLowerCase().indexOf(w);
      if (i < 0 || r() < 0.4) continue;
      const cjk = /[\u3040-\u9fff]/.test(w);
      if (!cjk && ((i > 0 && /\p{L}/u.test(t[i - 1]!)) || /\p{L}/u.test(t[i + w.length] ?? ""))) continue;
      let other = group[Math.floor(r() * group.length)]!;
      if (t[i] !== undefined && t[i] !== t[i]!.toLowerCase()) other = other[0]!.toUpperCase() + other.slice(1);
      t = t.slice(0, i) + other + t.slice(i + w.length);
      break;
    }
  }
  return t;
}

function collect(): Example[] {
  const ds = devSet();
  const ra = rng(31);
  const out: Example[] = [];
  const seen = new Set<string>();
  const push = (e: Example) => {
    if (seen.has(e.text)) return;
    seen.add(e.text);
    out.push(e);
  };
  for (const seed of [17, 1001, 1002, 1003]) {
    const cases = seed === 17 ? ds.injection : injectionCases(seed);
    for (const c of cases) {
      if (c.split !== "dev") continue;
      const group = c.source.replace(/ in carrier .*| with another sentence/, "");
      push({ text: c.text, y: c.label === "injection" ? 1 : 0, kind: c.kind, source: "devset injection (generated)", licence: c.licence, group });
      if (seed !== 17) push({ text: augment(c.text, ra), y: c.label === "injection" ? 1 : 0, kind: c.kind, source: "devset injection (generated), augmented", licence: c.licence, group });
      if (seed !== 17 && c.label === "injection") push({ text: paraphrase(c.text, ra), y: 1, kind: c.kind, source: "devset injection (generated), paraphrased", licence: c.licence, group });
    }
  }
  for (const c of [...ds.pii, ...ds.secrets]) if (c.split === "dev") push({ text: c.text, y: 0, kind: "data", source: "devset PII/secrets texts (generated)", licence: c.licence, group: c.source });
  const r = rng(2024);
  for (const loc of ["en", "de", "fr", "es", "zh_CN", "ru", "ja"]) {
    const f = new Faker({ locale: [(allLocales as Record<string, LocaleDefinition>)[loc]!, allLocales.en, base] });
    f.seed(7);
    for (let i = 0; i < 150; i++) {
      const t = [f.lorem.sentence(), f.word.words(int(r, 3, 12)), f.commerce.productDescription(), f.lorem.paragraph()][i % 4]!;
      push({ text: t, y: 0, kind: "lorem", source: `Faker ${loc} sentences`, licence: "MIT (@faker-js/faker locale data)", group: `faker-${loc}-${i % 4}` });
    }
  }
  const nm = join(REPO, "node_modules");
  const pkgs = readdirSync(nm).flatMap((d) => (d.startsWith("@") ? readdirSync(join(nm, d)).map((s) => `${d}/${s}`) : [d])).sort();
  let readmeParas = 0;
  for (const p of pkgs) {
    const readme = join(nm, p, "README.md");
    if (!existsSync(readme) || readmeParas >= 2500) continue;
    let licence = "unknown";
    try {
      licence = String((JSON.parse(readFileSync(join(nm, p, "package.json"), "utf8")) as { license?: string }).license ?? "unknown");
    } catch {
      // no package.json: licence stays unknown
    }
    const paras = readFileSync(readme, "utf8").split(/\n\s*\n/).filter((s) => s.length >= 80 && s.length <= 1200);
    for (const para of paras.slice(0, 15)) {
      push({ text: para, y: 0, kind: "readme", source: `README of npm package ${p}`, licence, group: `readme-${p}` });
      readmeParas++;
    }
  }
  return out;
}

function int(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

function featurize(text: string): Int32Array {
  const xs: number[] = [];
  forEachFeature(text, (i) => xs.push(i));
  return Int32Array.from(xs);
}

function train(examples: Example[], feats: Int32Array[], epochs = 6): InjectionModel & { float: Float32Array } {
  const n = 1 << FEATURE_BITS;
  const w = new Float64Array(n);
  const g2 = new Float64Array(n).fill(1e-8);
  let b = 0;
  let gb = 1e-8;
  const pos = examples.filter((e) => e.y === 1).length;
  const neg = examples.length - pos;
  const cw = [examples.length / (2 * neg), examples.length / (2 * pos)];
  const lr = 0.3;
  const l2 = 1e-4;
  const r = rng(99);
  const order = examples.map((_, i) => i);
  for (let ep = 0; ep < epochs; ep++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) {
      const x = feats[i]!;
      if (x.length === 0) continue;
      const v = 1 / Math.sqrt(x.length);
      let z = b;
      for (const k of x) z += w[k]! * v;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - examples[i]!.y) * cw[examples[i]!.y]! * (examples[i]!.kind === "hard_negative" ? 2 : 1);
      for (const k of x) {
        const gk = g * v + l2 * w[k]!;
        g2[k]! += gk * gk;
        w[k]! -= (lr * gk) / Math.sqrt(g2[k]!);
      }
      gb += g * g;
      b -= (lr * g) / Math.sqrt(gb);
    }
  }
  const float = Float32Array.from(w);
  return { ...quantise(float), float, bias: b, threshold: 0.5 };
}

function isValidation(group: string): boolean {
  return createHash("sha256").update("val:" + group).digest()[0]! % 5 === 0;
}

function main(): void {
  const t0 = performance.now();
  const all = collect();
  const trainSet = all.filter((e) => !isValidation(e.group));
  const val = all.filter((e) => isValidation(e.group));
  console.log(`examples: ${all.length} (${all.filter((e) => e.y === 1).length} injections); first run on ${trainSet.length}, validation ${val.length}`);
  const m1 = train(trainSet, trainSet.map((e) => featurize(e.text)));
  // the threshold: lowest probability keeping validation FPs on benign and hard negatives <= 1 %
  const scored = val.map((e) => ({ e, p: modelScore(m1, e.text) }));
  const negs = scored.filter((s) => s.e.y === 0).map((s) => s.p).sort((a, b) => b - a);
  const hard = scored.filter((s) => s.e.kind === "hard_negative").map((s) => s.p).sort((a, b) => b - a);
  const q = (xs: number[], rate: number) => xs[Math.floor(xs.length * rate)] ?? 0.5;
  const threshold = Math.min(0.95, Math.max(0.5, q(negs, 0.01), q(hard, 0.015)) + 1e-6);
  const posS = scored.filter((s) => s.e.y === 1);
  const valRecall = posS.filter((s) => s.p >= threshold).length / Math.max(1, posS.length);
  const valFpr = negs.filter((p) => p >= threshold).length / Math.max(1, negs.length);
  const valHard = hard.filter((p) => p >= threshold).length / Math.max(1, hard.length);
  console.log(`validation: threshold ${threshold.toFixed(3)}, recall ${(valRecall * 100).toFixed(1)}%, FPR ${(valFpr * 100).toFixed(2)}%, hard-negative FPR ${(valHard * 100).toFixed(2)}% (${posS.length} injections, ${negs.length} benign, ${hard.length} hard)`);
  const m = train(all, all.map((e) => featurize(e.text)));
  const dir = join(REPO, "src/detect/model");
  writeFileSync(join(dir, "injection-lr.bin"), Buffer.from(m.float.buffer));
  writeFileSync(
    join(dir, "injection-lr.json"),
    JSON.stringify(
      {
        model: "logistic regression over hashed features (src/detect/injection-model.ts)",
        feature_bits: FEATURE_BITS,
        block: BLOCK,
        bias: m.bias,
        threshold,
        training: { examples: all.length, epochs: 6, optimizer: "Adagrad lr 0.3, L2 1e-4, class-balanced", command: "npm run train:injection" },
        validation: { recall: valRecall, false_positive_rate: valFpr, hard_negative_false_positive_rate: valHard, injections: posS.length, benign: negs.length, hard_negatives: hard.length },
      },
      null,
      2,
    ) + "\n",
  );
  const bySource = new Map<string, { count: number; injections: number; licence: Set<string> }>();
  for (const e of all) {
    const key = e.source.startsWith("README of npm package") ? "READMEs of npm packages in node_modules" : e.source;
    const s = bySource.get(key) ?? { count: 0, injections: 0, licence: new Set<string>() };
    s.count++;
    s.injections += e.y;
    s.licence.add(e.licence);
    bySource.set(key, s);
  }
  const hash = createHash("sha256");
  for (const e of all) hash.update(e.y + "\t" + e.text + "\n");
  writeFileSync(
    join(dir, "injection-training-manifest.json"),
    JSON.stringify(
      {
        command: "npm run train:injection",
        excluded: ["the development set's untouched split", "../shared/corpus", "every source the issue reserves for independent evaluation"],
        examples: all.length,
        injections: all.filter((e) => e.y === 1).length,
        sha256_of_texts: hash.digest("hex"),
        sources: Object.fromEntries([...bySource].map(([k, v]) => [k, { count: v.count, injections: v.injections, licences: [...v.licence].sort() }])),
        readme_packages: [...new Set(all.filter((e) => e.kind === "readme").map((e) => e.source.slice("README of npm package ".length)))],
      },
      null,
      2,
    ) + "\n",
  );
  console.log(`wrote src/detect/model/ in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

main();
