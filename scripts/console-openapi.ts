// Regenerates the console's typed API client types (console/src/api/schema.d.ts)
// from the service's own OpenAPI document. Run after changing a route's schema:
//   node scripts/console-openapi.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentOpenApi, repoRoot } from '../src/service/openapi-doc.ts';

const tmp = mkdtempSync(join(tmpdir(), 'console-openapi-'));
try {
  writeFileSync(join(tmp, 'openapi.json'), JSON.stringify(await currentOpenApi()));
  const out = join(repoRoot, 'console', 'src', 'api', 'schema.d.ts');
  execFileSync(join(repoRoot, 'node_modules', '.bin', 'openapi-typescript'), [join(tmp, 'openapi.json'), '-o', out], { stdio: 'inherit' });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
