import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { createService } from './service.ts';

export { repoRoot } from '../console/index.ts';

/** The OpenAPI document the service serves, from a throw-away embedded instance. */
export async function currentOpenApi(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-ledger-openapi-'));
  const service = await createService(
    loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, OPERATOR_TOKEN: 'op_openapi_doc_0123456789' }),
    {
      manualJobs: true,
    },
  );
  try {
    const res = await service.app.inject({ method: 'GET', url: '/openapi.json' });
    return res.json();
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
