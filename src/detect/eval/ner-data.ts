// Reads the named-entity data (datasets/detect/ner/, built by scripts/detect/build-ner-data.ts): one
// gzipped JSONL file per source, grouped into leave-one-source-out families (the PUD translations are
// one family: one language left out would still be seen through the others). A source the manifest marks
// for evaluation only is never trained on.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { NerSentence } from '../models/ner-train.ts';

export const NER_DATA_DIR = fileURLToPath(new URL('../../../datasets/detect/ner/', import.meta.url));

export interface NerSourceData {
  id: string;
  family: string;
  /** False for a source held out of all training (manifest.json's `"use": "evaluation"`): only scored. */
  train: boolean;
  sentences: NerSentence[];
}

/** manifest.json as build-ner-data.ts writes it (the fields read here). */
export type NerDataManifest = Record<string, { sha256: string; use?: 'evaluation' }>;

export function readNerManifest(dir = NER_DATA_DIR): NerDataManifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as NerDataManifest;
}

export function nerFamilyOf(id: string): string {
  return id.startsWith('uner-pud') ? 'uner-pud' : id;
}

export function loadNerData(dir = NER_DATA_DIR): NerSourceData[] {
  const manifest = readNerManifest(dir);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl.gz'))
    .sort()
    .map((f) => {
      const id = f.slice(0, -'.jsonl.gz'.length);
      const lines = gunzipSync(readFileSync(join(dir, f)))
        .toString('utf8')
        .split('\n');
      const sentences = lines.filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as NerSentence);
      return { id, family: nerFamilyOf(id), train: manifest[id]?.use !== 'evaluation', sentences };
    });
}
