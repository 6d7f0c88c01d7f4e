import type { Queryable } from '../db/index.ts';
import { openKey } from './secret-box.ts';

// The stored panel of a workspace (table judge_panels, migrations/0101):
// read by its routes and, with the keys opened, by the judge job.

export type Quorum = 'majority' | 'unanimous_to_deny';

export interface StoredJudge {
  name: string;
  base_url: string;
  model: string;
  api_key_sealed: string | null;
}

export interface PanelRow {
  judges: StoredJudge[];
  quorum: Quorum;
  auto_resolve: boolean;
  updated_at: Date;
}

export async function panelOf(tx: Queryable, tenantId: string): Promise<PanelRow | null> {
  const [row] = await tx.query<PanelRow & Record<string, unknown>>(
    'SELECT judges, quorum, auto_resolve, updated_at FROM judge_panels WHERE tenant_id = $1',
    [tenantId],
  );
  return row ?? null;
}

/** A judge as the panel calls it: its key opened, in memory only for the call. */
export interface OpenJudge {
  name: string;
  base_url: string;
  model: string;
  api_key: string | null;
}

export function openJudges(kek: Uint8Array, tenantId: string, panel: PanelRow): OpenJudge[] {
  return panel.judges.map((j) => ({
    name: j.name,
    base_url: j.base_url,
    model: j.model,
    api_key: j.api_key_sealed === null ? null : openKey(kek, tenantId, j.name, j.base_url, j.api_key_sealed),
  }));
}
