// Person names, locations and street addresses. Offline only: dictionaries shipped in npm packages
// (@faker-js/faker locale data: first names, last names, cities, countries, street suffixes, for
// ~70 locales; @cspell/dict-people-names) combined with context cues (labels such as "Name:",
// honorifics, JSON keys, "ship to …, <zip> <city>") and shape rules. All scans are bounded.
//
// This file puts the detectors together; the rules live in the files beside it and in places/ (see README.md).

import type { TextContext } from '../text/context.ts';
import * as namesCandidates from './candidates.ts';
import * as namesLocations from './places/locations.ts';
import * as namesPersons from './persons.ts';
import * as namesSpans from './spans.ts';
import type { Finding } from '../types.ts';
import * as nerModule from '../models/ner.ts';
import type { NerModel } from '../models/ner.ts';
import * as nerDefault from '../models/ner-default.ts';
import * as namesModel from './model-merge.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { scanCandidates } = namesCandidates;
const { detectLocations } = namesLocations;
const { detectPersons } = namesPersons;
const { occupied } = namesSpans;
const { nerSpans } = nerModule;
const { defaultNerModel } = nerDefault;
const { mergeModelSpans } = namesModel;

const TITLE_ONLY = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir|sr|sra|srta|mevr|dhr|herr|frau|mme|mlle|sig|dott|ing|hr|fr)\.?$/i;

/** Persons, locations and street addresses. `_shared` is accepted for a uniform detector signature. */
export function detectNames(text: string, _shared?: TextContext): Finding[] {
  return detectNamesWith(text, defaultNerModel());
}

/** detectNames with a given named-entity model (the leave-one-source-out evaluation's), or the rules alone. */
export function detectNamesWith(text: string, model: NerModel | undefined): Finding[] {
  const rules = detectNamesByRules(text);
  if (!model) return rules;
  // the model reads only what the rules left: an anchor inside their findings opens no window
  const covered = [...rules].sort((a, b) => a.start - b.start);
  return mergeModelSpans(rules, nerSpans(model, text, covered));
}

function detectNamesByRules(text: string): Finding[] {
  const cands = scanCandidates(text);
  const locs = detectLocations(text, cands);
  // the persons of a table's person column (names/places/table-columns.ts) come with the places
  const strong = locs.filter((l) => l.type !== 'PERSON' && l.score >= 0.7).sort((a, b) => a.start - b.start);
  // a title alone ("Sr", "Mevr", "Dr" before the name found beside it) is not a person
  const persons = detectPersons(text, cands).filter(
    (p) =>
      (!occupied(strong, p.start, p.end) || p.score > 0.8) &&
      !(p.end - p.start <= 6 && TITLE_ONLY.test(text.slice(p.start, p.end))),
  );
  // a place read from its cue alone ("to <Name>", names/places/cues.ts) gives way to a person found there
  const byStart = [...persons].sort((a, b) => a.start - b.start);
  return [
    ...persons,
    ...locs.filter((l) =>
      l.type === 'PERSON'
        ? !occupied(byStart, l.start, l.end)
        : l.type !== 'LOCATION' || l.score >= 0.6 || !occupied(byStart, l.start, l.end),
    ),
  ];
}

export { detectLocations, detectPersons };
