import { parseArgs } from 'node:util';

// `agent-ledger admin …` talks to a running service through the operator API,
// so it works the same against one node or a fleet.

async function call(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path, url), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) {
    let detail = text;
    try {
      const p = JSON.parse(text) as { detail?: string; errors?: Array<{ field: string; message: string }> };
      detail = [p.detail, ...(p.errors ?? []).map((e) => `${e.field} ${e.message}`)].filter(Boolean).join('; ');
    } catch {
      // not JSON: show as is
    }
    throw new Error(`${method} ${path} → ${res.status}: ${detail}`);
  }
  return text;
}

export async function adminCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      tier: { type: 'string' },
      status: { type: 'string' },
      'trial-ends': { type: 'string' },
    },
  });
  const token = process.env.OPERATOR_TOKEN;
  if (!token) throw new Error('set OPERATOR_TOKEN to the operator token of the service');
  const url = values.url ?? `http://127.0.0.1:${process.env.PORT ?? '8080'}`;
  const [sub, tenantId] = positionals;
  if (sub === 'workspaces') {
    process.stdout.write(`${await call(url, token, 'GET', '/api/v1/operator/workspaces?limit=500')}\n`);
    return 0;
  }
  if (sub === 'plan' && tenantId) {
    const body: Record<string, unknown> = {};
    if (values.tier !== undefined) body.plan_tier = values.tier;
    if (values.status !== undefined) body.subscription_status = values.status;
    if (values['trial-ends'] !== undefined)
      body.trial_ends_at = values['trial-ends'] === 'none' ? null : values['trial-ends'];
    if (Object.keys(body).length === 0) throw new Error('give at least one of --tier, --status, --trial-ends');
    const out = await call(
      url,
      token,
      'PUT',
      `/api/v1/operator/workspaces/${encodeURIComponent(tenantId)}/subscription`,
      body,
    );
    process.stdout.write(`${out}\n`);
    return 0;
  }
  throw new Error(
    'usage: agent-ledger admin plan <tenant_id> [--tier T] [--status S] [--trial-ends ISO|none] | admin workspaces',
  );
}
