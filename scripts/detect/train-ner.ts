// npm run train:ner — trains the named-entity model (src/detect/models/ner.ts) on datasets/detect/ner/
// (public annotated corpora, see its SOURCES.md) and writes src/detect/models/ner.bin.gz (int16 weights)
// and ner.json (settings, and what it was trained on: sentences and entities by source, the SHA-256 of
// each data file as datasets/detect/ner/manifest.json records it). Deterministic: a seeded shuffle, so
// the same data gives the same files. Never trained on the shared detection corpus.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadNerData, NER_DATA_DIR } from '../../src/detect/eval/ner-data.ts';
import { FEATURES_PER_TOKEN, TABLE_BITS, TAGS } from '../../src/detect/models/ner-features.ts';
import { NER_EPOCHS, NER_SEED, nerGazetteer } from '../../src/detect/models/ner-default.ts';
import { encodeNerWeights } from '../../src/detect/models/ner.ts';
import { prepare, quantize, trainNer, WEIGHT_AT_INT16_MAX } from '../../src/detect/models/ner-train.ts';
import { REPO } from './frozen.ts';

const t0 = performance.now();
// a source held out for evaluation only (manifest.json's "use") is not trained on
const data = loadNerData().filter((d) => d.train);
const g = nerGazetteer();
const examples = data.flatMap((d) => d.sentences.map((s) => prepare(s, g)));
const w = trainNer(examples, { epochs: NER_EPOCHS, seed: NER_SEED });
const q = quantize(w);
const dir = join(REPO, 'src', 'detect', 'models');
writeFileSync(join(dir, 'ner.bin.gz'), gzipSync(encodeNerWeights(q), { level: 9 }));
const dataManifest = JSON.parse(readFileSync(join(NER_DATA_DIR, 'manifest.json'), 'utf8')) as Record<
  string,
  { sentences: number; entities: Record<string, number>; licence: string; sha256: string; repo: string }
>;
const manifest = {
  model: 'averaged structured perceptron, Viterbi decoding, BIO tags',
  tags: TAGS.join(' '),
  table_bits: TABLE_BITS,
  features_per_token: FEATURES_PER_TOKEN,
  epochs: NER_EPOCHS,
  seed: NER_SEED,
  weights: 'int16 little-endian, rows x tags, gzipped',
  weight_at_int16_max: WEIGHT_AT_INT16_MAX,
  data: 'datasets/detect/ner (see SOURCES.md)',
  sources: Object.fromEntries(
    data.map((d) => {
      const m = dataManifest[d.id];
      return [d.id, { repo: m?.repo, licence: m?.licence, sentences: d.sentences.length, sha256: m?.sha256 }];
    }),
  ),
};
writeFileSync(join(dir, 'ner.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(
  `trained on ${examples.length} sentences from ${data.length} sources in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
