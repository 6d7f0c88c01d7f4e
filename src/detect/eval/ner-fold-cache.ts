// Held-out models of the names leave-one-source-out run kept on disk (`--cache DIR`), so that a change to
// what reads the model — the merge with the rules, a margin — is measured by scoring again, without
// training 10+ models. A fold's file is named by a hash of everything its weights depend on: the training
// files (their SHA-256 in the data manifest), the epochs and seed, and the source of the model's code and
// of the dictionaries its features read. A change to any of them names another file; nothing stale is read.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { encodeNerWeights, loadNerWeights } from '../models/ner.ts';
import { NER_EPOCHS, NER_SEED } from '../models/ner-default.ts';
import { readNerManifest } from './ner-data.ts';

// the files whose text decides a trained model's weights
const MODEL_CODE = [
  '../models/ner-features.ts',
  '../models/ner-tokens.ts',
  '../models/ner-concepts.ts',
  '../models/ner-decode.ts',
  '../models/ner-train.ts',
  '../models/ner-default.ts',
  '../names/lexicon.ts',
].map((f) => new URL(f, import.meta.url));

/** The cache file of the model trained on these sources with the current code and recipe. */
export function foldFile(dir: string, sourceIds: readonly string[]): string {
  const manifest = readNerManifest();
  const h = createHash('sha256').update(`epochs ${NER_EPOCHS} seed ${NER_SEED}\n`);
  for (const id of [...sourceIds].sort()) h.update(`${id} ${manifest[id]?.sha256 ?? '?'}\n`);
  for (const f of MODEL_CODE) h.update(readFileSync(f));
  return join(dir, `ner-fold-${h.digest('hex').slice(0, 32)}.bin.gz`);
}

/** The cached weights, or those `train` makes (then written to the cache). */
export function cachedFold(dir: string, sourceIds: readonly string[], train: () => Int16Array): Int16Array {
  const file = foldFile(dir, sourceIds);
  if (existsSync(file)) return loadNerWeights(file);
  const w = train();
  mkdirSync(dir, { recursive: true });
  // written whole under another name first: a run stopped midway leaves no half file
  writeFileSync(`${file}.tmp`, gzipSync(encodeNerWeights(w), { level: 1 }));
  renameSync(`${file}.tmp`, file);
  return w;
}
