// One thread of the parallel leave-one-source-out run (loso-ner-parallel.ts): scores the families it is
// given and posts their results (structured clone keeps the count maps).

import { parentPort, workerData } from 'node:worker_threads';
import { losoNer } from './loso-ner.ts';

const { families, cacheDir } = workerData as { families: string[]; cacheDir?: string };
for (const r of losoNer({ families, cacheDir })) parentPort!.postMessage(r);
