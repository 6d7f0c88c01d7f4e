// Building blocks of the generated development set: a seeded PRNG, a text builder that records the
// offsets of labelled spans, and the split rule (whole templates held out for the untouched part).

import { createHash } from 'node:crypto';

export type Split = 'dev' | 'untouched';

export interface Provenance {
  /** Where the case comes from: generator, template id, locale / region. */
  source: string;
  /** Licence of the data the case is made of. */
  licence: string;
  split: Split;
}

export interface SpanCase extends Provenance {
  id: string;
  text: string;
  entities: Array<{ type: string; start: number; end: number; value: string }>;
  checked_types: string[];
  lang?: string;
}

export interface InjectionCase extends Provenance {
  id: string;
  text: string;
  label: 'injection' | 'benign';
  kind: 'direct' | 'indirect' | 'jailbreak' | 'benign' | 'hard_negative';
  lang: string;
}

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = () => number;
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
export const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/**
 * The split of a template (or any other group of near-duplicate cases): a quarter of the groups, chosen
 * by a hash of the group's name, form the untouched part. Whole groups move together, so no case of the
 * untouched part has a sibling from the same template in the dev part.
 */
export function splitOf(group: string): Split {
  const h = createHash('sha256')
    .update('devset-split-v1:' + group)
    .digest();
  return h[0]! % 4 === 0 ? 'untouched' : 'dev';
}

/**
 * Fills a template: `{TYPE}` or `{TYPE:key}` placeholders are replaced by `values(type, key)`, and each
 * filled span is labelled with TYPE unless the value function returns `label: false`.
 */
export interface Filled {
  text: string;
  label?: string | false;
  /** A value made of parts labelled apart ("<street>, <postcode> <town>": STREET_ADDRESS, none, LOCATION). */
  parts?: Array<{ text: string; label: string | false }>;
}

export function fill(
  template: string,
  value: (type: string, key: string) => Filled,
): { text: string; entities: SpanCase['entities'] } {
  let text = '';
  const entities: SpanCase['entities'] = [];
  let pos = 0;
  const re = /\{([A-Z_]+)(?::([a-z0-9_]+))?\}/g;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    text += template.slice(pos, m.index);
    const v = value(m[1]!, m[2] ?? '');
    if (v.parts) {
      for (const part of v.parts) {
        const ps = text.length;
        text += part.text;
        if (part.label !== false) entities.push({ type: part.label, start: ps, end: text.length, value: part.text });
      }
      pos = m.index + m[0].length;
      continue;
    }
    const start = text.length;
    text += v.text;
    if (v.label !== false) entities.push({ type: v.label ?? m[1]!, start, end: text.length, value: v.text });
    pos = m.index + m[0].length;
  }
  text += template.slice(pos);
  return { text, entities };
}
