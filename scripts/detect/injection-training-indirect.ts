// Training-only indirect attacks, jailbreaks and prompt extraction, alone or in data, and as many hard
// negatives in the same carriers, in en, de, fr, es, zh, ru, ja (scripts/detect/injection-training-data.ts
// adds them to the training texts; never used by the development set). Not here, as they cost recall
// under cross-validation: frames about attacks quoting a whole composed attack (dev recall 87.6 -> 85.8 %),
// security teaching quoting short attack phrases (89.9 -> 88.8 %, and more out-of-fold false positives on
// the other hard negatives at every threshold), everyday sentences with trigger words in seven languages
// (89.3 -> 88.9 %, dev hard negatives unchanged). The untouched part showed indirect attacks as the weakest kind; the dev templates
// alone teach the model their own addresses and actions. Composed from the parts of
// injection-training-indirect-parts.ts and put into the carriers of injection-training-carriers.ts.
//
// Groups for the cross-validation: an attack's group is its address phrasing (or its authority when it
// has no address), a hard negative's its frame, so out-of-fold scores are on phrasings the model has not
// seen. Their source starts with EXTRA_SOURCE: the hard negatives join the training-only family whose
// out-of-fold false positives the threshold holds to 1 % (train-injection.ts).
// Licence: Apache-2.0, as the repository.

import { rng } from './devset/build.ts';
import { carry } from './injection-training-carriers.ts';
import { INDIRECT_PARTS, JAILBREAK_PARTS } from './injection-training-indirect-parts.ts';
import type { IndirectParts, JailbreakParts, Lang } from './injection-training-indirect-parts.ts';
import { EXTRA_SOURCE } from './injection-training-extra.ts';
import type { ExtraExample } from './injection-training-extra.ts';

const LICENCE = "Apache-2.0 (this repository's training templates, scripts/detect/injection-training-indirect*.ts)";

const pickI = (r: () => number, n: number) => Math.floor(r() * n);
const cjk = (lang: Lang) => lang === 'zh' || lang === 'ja';
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** An attack from the parts, and the group of its address (or authority). */
function attack(lang: Lang, p: IndirectParts, r: () => number): [text: string, group: string] {
  const pre: string[] = [];
  if (r() < 0.3) pre.push(p.end[pickI(r, p.end.length)]!);
  const ai = pickI(r, p.auth.length);
  const withAuth = r() < 0.35;
  if (withAuth) pre.push(p.auth[ai]!);
  const di = pickI(r, p.addr.length);
  const withAddr = r() < 0.85 || pre.length === 0;
  const swap = r() < 0.45 ? p.swap[pickI(r, p.swap.length)]! : '';
  let body =
    (withAddr ? p.addr[di]! : '') + swap + p.act[pickI(r, p.act.length)]! + p.hush[pickI(r, p.hush.length)]! + p.stop;
  if (!withAddr && !cjk(lang)) body = cap(body);
  const join = r() < 0.4 ? '\n' : p.sep;
  const group = withAddr ? `ind-addr-${lang}-${di}` : `ind-auth-${lang}-${withAuth ? ai : 'end'}`;
  return [[...pre, body].join(join), group];
}

/** A jailbreak (alter ego, stay in it, a forbidden request) or a prompt extraction, and its frame's group. */
function jailbreak(
  lang: Lang,
  p: IndirectParts,
  j: JailbreakParts,
  r: () => number,
): [text: string, group: string, kind: 'jailbreak' | 'direct'] {
  if (r() < 0.4) {
    const li = pickI(r, j.leak.length);
    return [j.leak[li]!, `ind-leak-${lang}-${li}`, 'direct'];
  }
  const fi = pickI(r, j.frame.length);
  const stay = r() < 0.6 ? p.sep + j.stay[pickI(r, j.stay.length)]! : '';
  const ask = j.ask[pickI(r, j.ask.length)]!;
  return [j.frame[fi]! + stay + p.sep + (cjk(lang) ? ask : cap(ask)) + p.stop, `ind-jb-${lang}-${fi}`, 'jailbreak'];
}

type Family = 'readers' | 'people' | 'manual' | 'aboutAi' | 'askAi' | 'ifYou' | 'persona';

/** A hard negative of a family, and the group of its frame. */
function hardNegative(lang: Lang, p: IndirectParts, fam: Family, r: () => number): [text: string, group: string] {
  const one = (xs: readonly string[]): [string, number] => {
    const i = pickI(r, xs.length);
    return [xs[i]!, i];
  };
  switch (fam) {
    case 'readers': {
      const [h, i] = one(p.human);
      return [h + p.htask[pickI(r, p.htask.length)]! + p.stop, `ind-hard-readers-${lang}-${i}`];
    }
    case 'persona': {
      const [t, i] = one(p.persona);
      return [t.replace('{ROLE}', p.roles[pickI(r, p.roles.length)]!), `ind-hard-persona-${lang}-${i}`];
    }
    default: {
      const [t, i] = one(p[fam]);
      // now and then two sentences of the family, as a paragraph
      const text = r() < 0.25 ? t + p.sep + p[fam][pickI(r, p[fam].length)]! : t;
      return [text, `ind-hard-${fam}-${lang}-${i}`];
    }
  }
}

/** Per language: attacks, and hard negatives per family (English has more parts, so more of each). */
const ATTACKS = { en: 600, other: 420 };
const JAILBREAKS = { en: 200, other: 200 };
const HARD: Record<Family, { en: number; other: number }> = {
  readers: { en: 90, other: 70 },
  people: { en: 90, other: 70 },
  manual: { en: 90, other: 70 },
  aboutAi: { en: 90, other: 70 },
  askAi: { en: 80, other: 60 },
  ifYou: { en: 80, other: 60 },
  persona: { en: 90, other: 70 },
};

/** The training-only indirect attacks and hard negatives, deterministic. */
export function indirectExamples(): ExtraExample[] {
  const out: ExtraExample[] = [];
  for (const lang of Object.keys(INDIRECT_PARTS) as Lang[]) {
    const p = INDIRECT_PARTS[lang];
    const r = rng(0x1d1 + lang.charCodeAt(0) * 31 + lang.charCodeAt(1));
    const size = (x: { en: number; other: number }) => (lang === 'en' ? x.en : x.other);
    for (let k = 0; k < size(ATTACKS); k++) {
      const [payload, group] = attack(lang, p, r);
      const alone = r() < 0.2;
      const [cid, text] = alone ? ['', payload] : carry(payload, p.filler, p.sep, r);
      out.push({
        text,
        y: 1,
        kind: alone ? 'direct' : 'indirect',
        source: `${EXTRA_SOURCE}: indirect attack ${lang}${cid ? ` in carrier ${cid}` : ''}`,
        licence: LICENCE,
        group,
      });
    }
    for (let k = 0; k < size(JAILBREAKS); k++) {
      const [payload, group, kind] = jailbreak(lang, p, JAILBREAK_PARTS[lang], r);
      const alone = r() < 0.35;
      const [cid, text] = alone ? ['', payload] : carry(payload, p.filler, p.sep, r);
      out.push({
        text,
        y: 1,
        kind: alone ? kind : 'indirect',
        source: `${EXTRA_SOURCE}: ${kind === 'direct' ? 'prompt extraction' : 'alter-ego jailbreak'} ${lang}${cid ? ` in carrier ${cid}` : ''}`,
        licence: LICENCE,
        group,
      });
    }
    for (const fam of Object.keys(HARD) as Family[]) {
      for (let k = 0; k < size(HARD[fam]); k++) {
        const [payload, group] = hardNegative(lang, p, fam, r);
        const alone = r() < 0.25;
        const [cid, text] = alone ? ['', payload] : carry(payload, p.filler, p.sep, r);
        out.push({
          text,
          y: 0,
          kind: 'hard_negative',
          source: `${EXTRA_SOURCE}: indirect-twin ${fam} ${lang}${cid ? ` in carrier ${cid}` : ''}`,
          licence: LICENCE,
          group,
        });
      }
    }
  }
  return out;
}
