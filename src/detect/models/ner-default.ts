// The shipped named-entity model: its weights (ner.bin.gz), the name dictionaries its features read (the
// names detector's, names/lexicon.ts) and the training settings `npm run train:ner` uses. Loaded once, on
// first use.

import * as lexiconModule from '../names/lexicon.ts';
import type { Gazetteer } from './ner-features.ts';
import * as nerModule from './ner.ts';
import type { NerModel } from './ner.ts';
// Bound once (../README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { COMMON_WORDS, loadDicts } = lexiconModule;
const { loadNerWeights } = nerModule;

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
