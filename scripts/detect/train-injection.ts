// npm run train:injection — trains the prompt-injection model (src/detect/injection/model.ts) and writes
// src/detect/injection/model/injection-lr.bin (float32 weights), injection-lr.json (bias, threshold, settings) and
// injection-training-manifest.json (what it was trained on: counts by family and source, licences, and a
// SHA-256 of the training texts). Deterministic: the same repository gives the same files.
//
// Training data: the development data written by other people (datasets/detect/injection/, every family but
// the evaluation-only ones (EVALUATION_ONLY in loso-injection.ts),
// ambiguous cases left out) and a fixed share of generated text (injection-training-data.ts,
// generatedPool). Never ../shared/corpus, never a reserved source.
// Method: src/detect/eval/injection-trainer.ts, the same recipe the leave-one-source-out evaluation
// (src/detect/eval/loso-injection.ts) applies once per held-out family, so that its figures are this
// model's on sources it never saw. The threshold is tuned by leaving each family out in turn: every
// family's negatives are scored by a model that did not see the family, and the threshold keeps the
// model's false positives (beyond the cue rules') within 1 % of all benign texts and 1 % of all hard
// negatives.

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BLOCK, FEATURE_BITS } from '../../src/detect/injection/model.ts';
import { DEFAULT_SETTINGS } from '../../src/detect/eval/injection-trainer.ts';
import type { TrainingExample } from '../../src/detect/eval/injection-trainer.ts';
import {
  loadInjectionData,
  modelFor,
  prepare,
  trainingCases,
  TUNING_FPR,
} from '../../src/detect/eval/loso-injection.ts';
import { generatedPool, GENERATED_POOL_SIZE } from './injection-training-data.ts';
import { REPO } from './frozen.ts';

function main(): void {
  const t0 = performance.now();
  const real = trainingCases(loadInjectionData());
  const generated = generatedPool();
  const { model, threshold } = modelFor(prepare(real), { extra: asTraining(generated) });
  const dir = join(REPO, 'src/detect/injection/model');
  writeFileSync(join(dir, 'injection-lr.bin'), Buffer.from(model.float.buffer));
  writeFileSync(
    join(dir, 'injection-lr.json'),
    JSON.stringify(
      {
        model: 'logistic regression over hashed features (src/detect/injection/model.ts)',
        feature_bits: FEATURE_BITS,
        block: BLOCK,
        bias: model.bias,
        threshold,
        training: {
          examples: real.length + generated.length,
          settings: DEFAULT_SETTINGS,
          optimizer: 'Adagrad, class-balanced, hard negatives weighted more, one epoch',
          threshold: `leave-one-family-out over the real families: the model adds at most ${TUNING_FPR * 100} % false positives on benign texts and on hard negatives`,
          command: 'npm run train:injection',
        },
      },
      null,
      2,
    ) + '\n',
  );
  const sources = new Map<string, { count: number; injections: number; licences: Set<string> }>();
  const count = (key: string, y: number, licence: string) => {
    const s = sources.get(key) ?? { count: 0, injections: 0, licences: new Set<string>() };
    s.count++;
    s.injections += y;
    s.licences.add(licence);
    sources.set(key, s);
  };
  for (const c of real)
    count(`datasets/detect/injection family ${c.family}`, c.label === 'injection' ? 1 : 0, c.licence);
  for (const e of generated)
    count(
      e.source.startsWith('README of npm package')
        ? 'READMEs of npm packages in node_modules'
        : e.source.replace(/ in carrier .*/, ''),
      e.y,
      e.licence,
    );
  writeFileSync(
    join(dir, 'injection-training-manifest.json'),
    JSON.stringify(
      {
        command: 'npm run train:injection',
        excluded: [
          '../shared/corpus',
          'every source the issue reserves for independent evaluation',
          'ambiguous cases',
          'the evaluation-only families of datasets/detect/injection (EVALUATION_ONLY in src/detect/eval/loso-injection.ts)',
          "the development set's untouched split",
        ],
        examples: real.length + generated.length,
        real_cases: real.length,
        generated_examples: `${generated.length} (every k-th of injection-training-data.ts's collect(), about ${GENERATED_POOL_SIZE})`,
        sha256_of_texts: trainingTextsHash(real, generated),
        sources: Object.fromEntries(
          [...sources].map(([k, v]) => [
            k,
            { count: v.count, injections: v.injections, licences: [...v.licences].sort() },
          ]),
        ),
      },
      null,
      2,
    ) + '\n',
  );
  console.log(
    `trained on ${real.length} real cases and ${generated.length} generated examples; threshold ${threshold.toFixed(3)}; wrote src/detect/injection/model/ in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

/** The generated examples as the trainer takes them. */
export function asTraining(generated: ReadonlyArray<{ text: string; y: 0 | 1; kind: string }>): TrainingExample[] {
  return generated.map((e) => ({ text: e.text, y: e.y, hard: e.kind === 'hard_negative' }));
}

/** SHA-256 of the training texts with their labels (injection-model-fresh.test.ts recomputes it). */
export function trainingTextsHash(
  real: ReadonlyArray<{ text: string; label: string }>,
  generated: ReadonlyArray<{ text: string; y: number }>,
): string {
  const hash = createHash('sha256');
  for (const c of real) hash.update((c.label === 'injection' ? 1 : 0) + '\t' + c.text + '\n');
  for (const e of generated) hash.update(e.y + '\t' + e.text + '\n');
  return hash.digest('hex');
}

if (import.meta.url === `file://${process.argv[1]}`) main();
