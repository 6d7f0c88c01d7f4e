// Regenerates the API types the client and the console share
// (packages/client/src/schema.d.ts) from the service's own OpenAPI document.
// Run after changing a route's schema:
//   node scripts/write-api-types.ts
// (src/service/api-types.test.ts fails while the file is out of date.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentOpenApi, repoRoot } from '../src/service/openapi-doc.ts';
import { API_TYPES, apiTypes } from './api-types.ts';

const out = join(repoRoot, API_TYPES.path);
writeFileSync(out, await apiTypes(await currentOpenApi()));
console.log(`wrote ${out}`);
