import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fuzzTexts } from '../../../scripts/detect/fuzz-text.ts';
import { tagSpans } from './ner-decode.ts';
import { defaultNerModel, nerGazetteer } from './ner-default.ts';
import { featurize, FEATURES_PER_TOKEN, TABLE_BITS, N_TAGS, tokenView } from './ner-features.ts';
import { tokenize } from './ner-tokens.ts';
import { prepare, quantize, trainNer } from './ner-train.ts';
import type { NerSentence } from './ner-train.ts';
import { nerSpans } from './ner.ts';
import { NER_DATA_DIR } from '../eval/ner-data.ts';
import { scan } from '../index.ts';
import { mergeModelSpans, MIN_MARGIN } from '../names/model-merge.ts';

describe('ner tokenizer', () => {
  it('tokens are ascending, non-empty, within the range, and cover every visible character', () => {
    const texts = [
      ...fuzzTexts(40, 300),
      "Maria Kowalski lives on O'Brien St. in São Paulo, U.S.A. — 司馬懿就發動 Jean-Pierre 3.5kg @bob",
      '',
      '   \n\t ',
      '\u{1F600} x\u{1D400}y',
    ];
    for (const t of texts) {
      for (const [from, to] of [
        [0, t.length],
        [Math.floor(t.length / 3), Math.floor((2 * t.length) / 3)],
      ] as const) {
        const k = tokenize(t, from, to);
        const covered = new Uint8Array(t.length);
        let last = from;
        for (let i = 0; i < k.n; i++) {
          const s = k.starts[i]!;
          const e = k.ends[i]!;
          // (messages built only on failure: the texts are up to 32,000 chars)
          if (!(s >= last && e > s && e <= to)) assert.fail(`token ${i} of ${JSON.stringify(t)}: ${s}-${e}`);
          if (/\s/u.test(t.slice(s, e))) assert.fail(`token ${JSON.stringify(t.slice(s, e))} holds white space`);
          covered.fill(1, s, e);
          last = e;
        }
        for (let i = from; i < to; i++)
          if (!covered[i] && !/\s/u.test(t[i]!) && !/[\uD800-\uDFFF]/.test(t[i]!))
            assert.fail(`char ${i} (${JSON.stringify(t[i])}) of ${JSON.stringify(t)} in no token`);
      }
    }
  });

  it('keeps names with apostrophes and hyphens whole and splits ideographs', () => {
    const t = "O'Brien met Jean-Pierre in 北京.";
    const k = tokenize(t);
    const words = Array.from({ length: k.n }, (_, i) => t.slice(k.starts[i], k.ends[i]));
    assert.deepEqual(words, ["O'Brien", 'met', 'Jean-Pierre', 'in', '北', '京', '.']);
  });
});

describe('ner model', () => {
  it('loads the shipped weights and finds persons and places without cue words', () => {
    const m = defaultNerModel();
    assert.equal(m.weights.length, (1 << TABLE_BITS) * N_TAGS);
    const text = 'Maria Kowalski lives on the corner near the station in Springfield.';
    const spans = nerSpans(m, text).map((s) => [text.slice(s.start, s.end), s.label]);
    assert.deepEqual(spans, [
      ['Maria Kowalski', 'PER'],
      ['Springfield', 'LOC'],
    ]);
    assert.deepEqual(nerSpans(m, 'the quarterly report was reviewed on tuesday; numbers look fine.'), []);
  });

  it('spans index the original text, also in windows far into a long text', () => {
    const m = defaultNerModel();
    const filler = 'lorem ipsum dolor sit amet, '.repeat(400);
    const text = `${filler}said Anna Lindqvist to Pedro Almeida.${filler}`;
    const got = nerSpans(m, text).map((s) => text.slice(s.start, s.end));
    assert.deepEqual(got, ['Anna Lindqvist', 'Pedro Almeida']);
  });

  it('a small training run on tiny data learns its names', () => {
    const g = {
      first: new Set<string>(),
      last: new Set<string>(),
      places: new Set<string>(),
      countries: new Set<string>(),
    };
    const names = ['Zorblat Quenn', 'Ulmo Varga', 'Tessa Brightwater', 'Orin Falk', 'Ysolde Marr'];
    const places = ['Krellport', 'Vantage Bay', 'Oskarvik'];
    const sents: NerSentence[] = [];
    for (const n of names)
      for (const p of places) {
        const text = `Yesterday ${n} flew to ${p} for work.`;
        const a = text.indexOf(n);
        const b = text.indexOf(p);
        sents.push({
          text,
          spans: [
            [a, a + n.length, 'PER'],
            [b, b + p.length, 'LOC'],
          ],
        });
        sents.push({ text: `We met nobody in the office today.`, spans: [] });
      }
    const w = quantize(
      trainNer(
        sents.map((s) => prepare(s, g)),
        { epochs: 5, seed: 7 },
      ),
    );
    const model = { weights: w, gazetteer: g, stopwords: new Set<string>() };
    const text = 'Yesterday Orin Falk flew to Krellport for work.';
    assert.deepEqual(
      nerSpans(model, text).map((s) => [text.slice(s.start, s.end), s.label]),
      [
        ['Orin Falk', 'PER'],
        ['Krellport', 'LOC'],
      ],
    );
    // same data, same seed: the same weights
    const w2 = quantize(
      trainNer(
        sents.map((s) => prepare(s, g)),
        { epochs: 5, seed: 7 },
      ),
    );
    assert.deepEqual(w2, w);
    assert.ok(nerGazetteer().first.size > 1000);
  });

  it('a preposition of place in any language gives the next token the same class feature', () => {
    const g = nerGazetteer();
    const featsOf = (text: string, i: number) => {
      const toks = tokenize(text);
      const f = featurize(text, toks, tokenView(text, toks, g));
      return new Set(f.subarray(i * FEATURES_PER_TOKEN, (i + 1) * FEATURES_PER_TOKEN));
    };
    const shared = (a: Set<number>, b: Set<number>) => [...a].filter((x) => x >= 0 && b.has(x)).length;
    // "Xabc" after "in", "u", "в": the class feature (and the token's own) are shared; after "and" one less
    const inEn = featsOf('lives in Xabc', 2);
    const inHr = featsOf('živi u Xabc', 2);
    const inRu = featsOf('живёт в Xabc', 2);
    const andEn = featsOf('lives and Xabc', 2);
    assert.ok(shared(inEn, inHr) > shared(andEn, inHr), 'in / u share a class feature that and / u do not');
    assert.ok(shared(inEn, inRu) > shared(andEn, inRu), 'in / в share a class feature that and / в do not');
  });

  it('tag runs become spans', () => {
    const starts = Int32Array.from([0, 6, 15, 18]);
    const ends = Int32Array.from([5, 14, 17, 24]);
    // B-PER I-PER O B-LOC
    assert.deepEqual(tagSpans(starts, ends, Uint8Array.from([1, 2, 0, 3]), 4), [
      { start: 0, end: 14, label: 'PER' },
      { start: 18, end: 24, label: 'LOC' },
    ]);
  });
});

describe('names detector with the model', () => {
  it('scan() finds a person named without any cue word, and a place', () => {
    const text = 'Maria Kowalski lives on the corner near the old mill in Springfield.';
    const got = (type: string) =>
      scan(text)
        .findings.filter((f) => f.type === type)
        .map((f) => text.slice(f.start, f.end));
    assert.deepEqual(got('PERSON'), ['Maria Kowalski']);
    assert.deepEqual(got('LOCATION'), ['Springfield']);
    const said = 'The deal is done, said Anna Lindqvist to Pedro Almeida.';
    assert.deepEqual(
      scan(said)
        .findings.filter((f) => f.type === 'PERSON')
        .map((f) => said.slice(f.start, f.end)),
      ['Anna Lindqvist', 'Pedro Almeida'],
    );
  });

  it('a model span joins the rule finding of its type it overlaps; a weak one alone is dropped', () => {
    const rule = { type: 'PERSON', start: 11, end: 16, score: 0.8 };
    const merged = mergeModelSpans([rule], [{ start: 0, end: 16, label: 'PER', margin: 100 }]);
    assert.deepEqual(merged, [{ type: 'PERSON', start: 0, end: 16, score: 0.8 }]);
    assert.deepEqual(mergeModelSpans([], [{ start: 0, end: 5, label: 'LOC', margin: MIN_MARGIN.LOC - 1 }]), []);
    assert.deepEqual(mergeModelSpans([], [{ start: 0, end: 5, label: 'PER', margin: MIN_MARGIN.PER - 1 }]), []);
    assert.deepEqual(mergeModelSpans([], [{ start: 0, end: 5, label: 'PER', margin: MIN_MARGIN.PER }]), [
      { type: 'PERSON', start: 0, end: 5, score: 0.7 },
    ]);
    // another type at the span: the rule stays alone
    const loc = { type: 'LOCATION', start: 0, end: 6, score: 0.8 };
    assert.deepEqual(mergeModelSpans([loc], [{ start: 0, end: 6, label: 'PER', margin: 99999 }]), [loc]);
  });

  it('the shipped model was trained on the data files the repository holds (npm run train:ner after a change)', () => {
    const shipped = JSON.parse(readFileSync(new URL('./ner.json', import.meta.url), 'utf8')) as {
      sources: Record<string, { sha256: string }>;
    };
    const data = JSON.parse(readFileSync(new URL('manifest.json', `file://${NER_DATA_DIR}`), 'utf8')) as Record<
      string,
      { sha256: string; use?: string }
    >;
    // every source but those held out for evaluation only
    assert.deepEqual(
      Object.fromEntries(Object.entries(shipped.sources).map(([k, v]) => [k, v.sha256])),
      Object.fromEntries(
        Object.entries(data)
          .filter(([, v]) => v.use !== 'evaluation')
          .map(([k, v]) => [k, v.sha256]),
      ),
    );
  });
});
