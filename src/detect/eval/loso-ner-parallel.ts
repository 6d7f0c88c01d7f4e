// The leave-one-source-out run of loso-ner.ts spread over worker threads: each family's model is trained
// and scored as in the single-thread run (same data, epochs and seed), so the figures are the same; only
// the wall time changes. Families are dealt to the threads largest first.

import { Worker } from 'node:worker_threads';
import { loadNerData } from './ner-data.ts';
import { losoNer, nerFamilies } from './loso-ner.ts';
import type { FamilyResult, LosoNerOptions } from './loso-ner.ts';

const WORKER = new URL('./loso-ner-worker.ts', import.meta.url);

/** The leave-one-source-out results of `opts.families` (all by default) over `jobs` threads, in table order. */
export async function losoNerParallel(opts: LosoNerOptions & { jobs: number }): Promise<FamilyResult[]> {
  const data = loadNerData();
  const order = nerFamilies(data);
  const families = opts.families ? order.filter((f) => opts.families!.includes(f)) : order;
  const jobs = Math.max(1, Math.min(opts.jobs, families.length));
  if (jobs === 1) return losoNer(opts);
  // a held-out family's cost is its own scoring; larger families first keeps the threads evenly loaded
  const size = new Map(families.map((f) => [f, 0]));
  for (const d of data) if (size.has(d.family)) size.set(d.family, size.get(d.family)! + d.sentences.length);
  const bySize = [...families].sort((a, b) => size.get(b)! - size.get(a)!);
  const shares: string[][] = Array.from({ length: jobs }, () => []);
  bySize.forEach((f, i) => shares[i % jobs]!.push(f));
  const results: FamilyResult[] = [];
  await Promise.all(
    shares.map(
      (share) =>
        new Promise<void>((resolve, reject) => {
          const w = new Worker(WORKER, { workerData: { families: share, cacheDir: opts.cacheDir } });
          w.on('message', (r: FamilyResult) => {
            results.push(r);
            opts.onFamily?.(r);
          });
          w.on('error', reject);
          w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`loso-ner worker exited ${code}`))));
        }),
    ),
  );
  return results.sort((a, b) => order.indexOf(a.family) - order.indexOf(b.family));
}
