// Viterbi decoding of the named-entity model: the best tag sequence of a window of tokens under a
// first-order model (per-token feature weights, a weight for each pair of tags, and one for the previous
// tag with the token's shape). BIO is enforced: I-X only after B-X or I-X. O(n · tags²) per window.

import * as nerFeaturesModule from './ner-features.ts';
// Bound once (../README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { FEATURES_PER_TOKEN, N_TAGS, START, transRow, transShapeRow } = nerFeaturesModule;

/** Weights: row r, tag t at r * N_TAGS + t (float32 while training, int16 as shipped). */
export type Weights = Float32Array | Int16Array;

// allowed[p * N_TAGS + t]: may tag t follow tag p (p may be START)?
const allowed = new Uint8Array((N_TAGS + 1) * N_TAGS);
for (let p = 0; p <= N_TAGS; p++)
  for (let t = 0; t < N_TAGS; t++) {
    // odd tags are B-X, even tags > 0 are I-X; I-X follows only B-X (t - 1) or I-X (t)
    const isInside = t > 0 && t % 2 === 0;
    allowed[p * N_TAGS + t] = !isInside || p === t || p === t - 1 ? 1 : 0;
  }

const TRANS_ROWS = Int32Array.from({ length: N_TAGS + 1 }, (_, p) => transRow(p));

// The (previous tag, shape) rows of a shape, for every previous tag: shapes are few, so they are kept
// (up to a bound, then the cache starts over).
const shapeRowCache = new Map<string, Int32Array>();
export function shapeRowsOf(shape: string): Int32Array {
  let r = shapeRowCache.get(shape);
  if (!r) {
    if (shapeRowCache.size >= 8192) shapeRowCache.clear();
    r = Int32Array.from({ length: N_TAGS + 1 }, (_, p) => transShapeRow(p, shape));
    shapeRowCache.set(shape, r);
  }
  return r;
}

/**
 * Per-token scores of each tag from the token features: emit[i * N_TAGS + t]. A token masked out is
 * tagged O (its other tags score -Infinity) without reading its features.
 */
export function emissions(
  w: Weights,
  feats: Int32Array,
  n: number,
  out?: Float64Array,
  mask?: Uint8Array,
): Float64Array {
  const e = out && out.length >= n * N_TAGS ? out : new Float64Array(n * N_TAGS);
  e.fill(0, 0, n * N_TAGS);
  for (let i = 0; i < n; i++) {
    const eo = i * N_TAGS;
    if (mask && !mask[i]) {
      for (let t = 1; t < N_TAGS; t++) e[eo + t] = -Infinity;
      continue;
    }
    const fo = i * FEATURES_PER_TOKEN;
    for (let k = 0; k < FEATURES_PER_TOKEN; k++) {
      const r = feats[fo + k]!;
      if (r < 0) continue;
      const wo = r * N_TAGS;
      for (let t = 0; t < N_TAGS; t++) e[eo + t]! += w[wo + t]!;
    }
  }
  return e;
}

// Viterbi's tables, reused across calls (a scan decodes many short windows)
let delta = new Float64Array(0);
let back = new Uint8Array(0);

/**
 * The best tags of n tokens (written to `tags`), given their emissions and shapes. `first` is the tag
 * before the first token: START at a text's start, O when decoding resumes after a token tagged O.
 */
export function viterbi(
  w: Weights,
  emit: Float64Array,
  shapes: readonly string[],
  n: number,
  tags: Uint8Array,
  first: number = START,
): void {
  if (n === 0) return;
  if (delta.length < n * N_TAGS) {
    delta = new Float64Array(n * N_TAGS * 2);
    back = new Uint8Array(n * N_TAGS * 2);
  }
  for (let i = 0; i < n; i++) {
    const shapeRows = shapeRowsOf(shapes[i]!);
    for (let t = 0; t < N_TAGS; t++) {
      // a tag the emissions rule out (a masked-out token's) costs no search
      if (emit[i * N_TAGS + t] === -Infinity) {
        delta[i * N_TAGS + t] = -Infinity;
        continue;
      }
      let best = -Infinity;
      let arg = 0;
      const pFrom = i === 0 ? first : 0;
      const pTo = i === 0 ? first : N_TAGS - 1;
      for (let p = pFrom; p <= pTo; p++) {
        if (!allowed[p * N_TAGS + t]) continue;
        const prev = i === 0 ? 0 : delta[(i - 1) * N_TAGS + p]!;
        if (prev === -Infinity) continue;
        const s = prev + w[TRANS_ROWS[p]! * N_TAGS + t]! + w[shapeRows[p]! * N_TAGS + t]!;
        if (s > best) {
          best = s;
          arg = p;
        }
      }
      delta[i * N_TAGS + t] = best + emit[i * N_TAGS + t]!;
      back[i * N_TAGS + t] = arg;
    }
  }
  let best = -Infinity;
  let arg = 0;
  for (let t = 0; t < N_TAGS; t++) {
    const s = delta[(n - 1) * N_TAGS + t]!;
    if (s > best) {
      best = s;
      arg = t;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    tags[i] = arg;
    arg = back[i * N_TAGS + arg]!;
  }
}

export type NerLabel = 'PER' | 'LOC' | 'ORG';
const LABEL_OF: readonly (NerLabel | undefined)[] = [undefined, 'PER', 'PER', 'LOC', 'LOC', 'ORG', 'ORG'];

/** Entity spans (character offsets) of a tag sequence over tokens. */
export function tagSpans(
  starts: Int32Array,
  ends: Int32Array,
  tags: Uint8Array,
  n: number,
): Array<{ start: number; end: number; label: NerLabel }> {
  const out: Array<{ start: number; end: number; label: NerLabel }> = [];
  for (let i = 0; i < n; i++) {
    const label = LABEL_OF[tags[i]!];
    if (!label) continue;
    let j = i + 1;
    while (j < n && tags[j] === tags[i]! + (tags[i]! % 2) && tags[i]! % 2 === 1) j++;
    // an I-X run after B-X belongs to it; a lone I-X (not produced by viterbi) would start its own span
    if (tags[i]! % 2 === 0) while (j < n && tags[j] === tags[i]) j++;
    out.push({ start: starts[i]!, end: ends[j - 1]!, label });
    i = j - 1;
  }
  return out;
}
