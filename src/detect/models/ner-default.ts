// The shipped named-entity model: its weights (ner.bin.gz), the name dictionaries its features read (the
// names detector's, names-lexicon.ts) and the training settings `npm run train:ner` uses. Loaded once, on
// first use.

import { COMMON_WORDS, loadDicts } from '../names-lexicon.ts';
import type { Gazetteer } from './ner-features.ts';
import { loadNerWeights } from './ner.ts';
import type { NerModel } from './ner.ts';

export const NER_EPOCHS = 6;
export const NER_SEED = 1;

export function nerGazetteer(): Gazetteer {
  const d = loadDicts();
  return { first: d.first, last: d.last, places: d.places, countries: d.countries };
}

let model: NerModel | undefined;

export function defaultNerModel(): NerModel {
  model ??= { weights: loadNerWeights(), gazetteer: nerGazetteer(), stopwords: COMMON_WORDS };
  return model;
}
