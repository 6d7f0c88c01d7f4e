// Running the name rules at candidate starts, and keeping those starts sorted.
//
// Every rule of the name detectors is a global regex whose matches follow each other left to right. Running those
// regexes (with /u, \p{..} classes, look-behinds and long alternations) at every position of the text
// was most of the detector's time. Each rule now keeps its regex, made sticky, and tries it only at
// candidate starts: a superset of the positions where it can match, found by a cheap prefilter (a
// plain regex over a lower-cased copy, mostly an anchor character with a look-behind) plus a few
// char-code checks. `execAt` then reproduces the global scan: candidates in order, a match hides the
// candidates it covers.

/** A sticky copy of a global regex, to be tried at given positions. */
export function sticky(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.replace('g', '') + 'y');
}

/** Runs a sticky regex at the candidate starts (sorted ascending) like its global scan would run. */
export function execAt(re: RegExp, text: string, starts: readonly number[], each: (m: RegExpExecArray) => void): void {
  let from = 0;
  for (const p of starts) {
    if (p < from) continue;
    from = p + 1;
    // a global /u scan never starts inside a surrogate pair
    const c = text.charCodeAt(p);
    if (c >= 0xdc00 && c <= 0xdfff && p > 0 && (text.charCodeAt(p - 1) & 0xfc00) === 0xd800) continue;
    re.lastIndex = p;
    const m = re.exec(text);
    if (m) {
      each(m);
      from = p + m[0].length;
    }
  }
}

const ascending = (a: number, b: number) => a - b;
/** Adds a start to a list kept ascending (a key's start is found at its `:`, after later word starts). */
export function pushAscending(a: number[], v: number): void {
  let k = a.length;
  while (k > 0 && a[k - 1]! > v) k--;
  if (k === a.length) a.push(v);
  else a.splice(k, 0, v);
}

export function ascendingInPlace(a: number[]): void {
  for (let i = 1; i < a.length; i++) {
    if (a[i]! < a[i - 1]!) {
      a.sort(ascending);
      return;
    }
  }
}
