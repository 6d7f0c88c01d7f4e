// Regenerates the client's API types (packages/client/src/schema.d.ts) from
// the service's own OpenAPI document. Run after changing a route's schema:
//   node scripts/client-openapi.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentOpenApi, repoRoot } from '../src/service/openapi-doc.ts';

const tmp = mkdtempSync(join(tmpdir(), 'client-openapi-'));
try {
  writeFileSync(join(tmp, 'openapi.json'), JSON.stringify(await currentOpenApi()));
  const out = join(repoRoot, 'packages', 'client', 'src', 'schema.d.ts');
  execFileSync(join(repoRoot, 'node_modules', '.bin', 'openapi-typescript'), [join(tmp, 'openapi.json'), '-o', out], { stdio: 'inherit' });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
