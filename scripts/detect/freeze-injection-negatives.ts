// Writes the development set's PII and secret texts (dev split) to data/injection-negatives.jsonl.gz, the
// frozen copy the injection model trains on as negatives (scripts/detect/injection-training-data.ts).
//
// Why frozen: read live from the development set, every new PII template would retrain the injection
// model and move its figures — and each such move would cost a look at the untouched split. Frozen, PII
// work leaves the model alone; run this script only when you mean to retrain on the newer texts (then
// `npm run train:injection`).

import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { devSet } from './devset/index.ts';

export const FROZEN_NEGATIVES = new URL('./data/injection-negatives.jsonl.gz', import.meta.url);

if (import.meta.main) {
  const ds = devSet();
  const lines: string[] = [];
  for (const c of [...ds.pii, ...ds.secrets]) {
    if (c.split === 'dev') lines.push(JSON.stringify({ text: c.text, licence: c.licence, group: c.source }));
  }
  // gzip: 1.3 MB of JSON lines, most of it the same licence and source strings again and again
  writeFileSync(FROZEN_NEGATIVES, gzipSync(lines.join('\n') + '\n', { level: 9 }));
  console.log(`wrote ${lines.length} texts to ${FROZEN_NEGATIVES.pathname}`);
}
