// Pins the npm packages whose README paragraphs the injection model reads (data/readme-packages.json), so
// that adding or removing a dependency leaves the training texts as they are. Run it only when those texts
// should change, then `npm run train:injection`.
//   node scripts/detect/pin-readme-packages.ts

import { rmSync, writeFileSync } from 'node:fs';
import { readmePackagesUsed } from './injection-training-data.ts';

const file = new URL('./data/readme-packages.json', import.meta.url);
rmSync(file, { force: true });
const packages = readmePackagesUsed();
writeFileSync(file, JSON.stringify({ packages }, null, 2) + '\n');
console.log(`pinned ${packages.length} packages in ${file.pathname}`);
