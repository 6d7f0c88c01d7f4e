// Per type, the best non-overlapping numeric findings.

import type { Finding } from '../types.ts';

/** Per type: keep the best (highest score, then longest) non-overlapping spans. O(k log k + total span length). */
export function bestPerType(fs: Finding[], textLength: number): Finding[] {
  if (fs.length <= 1) return fs.slice();
  const byType = new Map<string, Finding[]>();
  for (const f of fs) {
    const arr = byType.get(f.type);
    if (arr) arr.push(f);
    else byType.set(f.type, [f]);
  }
  const out: Finding[] = [];
  let occ: Uint8Array | undefined;
  for (const arr of byType.values()) {
    arr.sort((a, b) => b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
    // few spans: compare with the kept ones; many: mark the kept positions (linear in their total length)
    const kept = arr.length <= 16 ? keepDisjointFew(arr) : keepDisjoint(arr, (occ ??= new Uint8Array(textLength + 1)));
    out.push(...kept);
  }
  return out.sort((a, b) => a.start - b.start);
}

function keepDisjointFew(arr: readonly Finding[]): Finding[] {
  const kept: Finding[] = [];
  for (const f of arr) if (!kept.some((k) => k.start < f.end && f.start < k.end)) kept.push(f);
  return kept;
}

/** `occ` is all zero on entry and on return. */
function keepDisjoint(arr: readonly Finding[], occ: Uint8Array): Finding[] {
  const kept: Finding[] = [];
  for (const f of arr) {
    let free = true;
    for (let i = f.start; i < f.end; i++)
      if (occ[i]) {
        free = false;
        break;
      }
    if (!free) continue;
    occ.fill(1, f.start, f.end);
    kept.push(f);
  }
  for (const k of kept) occ.fill(0, k.start, k.end);
  return kept;
}
