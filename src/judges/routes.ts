import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { type AppContext, conflict, HttpProblem, notFound, rateLimited, unprocessable } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import { accountOf, bearer, problems } from '../http/index.ts';
import { enqueue, JUDGE_JOB, type JudgeJobPayload } from '../jobs/index.ts';
import { LEAF_VERSION, type LogEntry } from '../ledger/index.ts';
import { panelOf, type PanelRow, type StoredJudge } from './panel-config.ts';
import { judgementOf } from './judgement-view.ts';
import { callsUsed, secondsToNextMonth } from './quota.ts';
import { JudgementSchema } from './schemas.ts';
import { destinationOf, keptSecret } from '../outbound/index.ts';
import { sealKey } from './secret-box.ts';
import { insertPending } from './store.ts';
import { oneInvocationTimeSql } from '../ingest/index.ts';

// The judge panel of a workspace (issue 17): its configuration, and asking
// it about an invocation on demand. Keys are sealed at rest (secret-box.ts)
// and no endpoint returns them. The judging runs as a job (judge-job.ts).

export interface JudgesDeps {
  ctx: AppContext;
  /** Derived from the service secret; never stored. */
  kek: Uint8Array;
  appendInTx(tx: Queryable, tenantId: string, entry: LogEntry): Promise<void>;
  /** The plan's multi_judge_calls_per_month of a workspace. */
  callsCap(tenantId: string): Promise<number>;
  /** A judge job was enqueued: run it now on this node rather than at the next poll. */
  enqueued(): void;
}

const Quorum = Type.Union([Type.Literal('majority'), Type.Literal('unanimous_to_deny')]);
const JudgeIn = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64 }),
    base_url: Type.String({
      minLength: 1,
      maxLength: 2048,
      pattern: '^https?://',
      description: 'OpenAI-compatible: POST {base_url}/chat/completions',
    }),
    model: Type.String({ minLength: 1, maxLength: 200 }),
    api_key: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()], {
        description:
          'Stored encrypted, never returned. Omitted: the key of the judge of that name is kept, as long as base_url ' +
          'keeps its origin (scheme, host, port); with another origin, omitting it is 422. null: no key.',
      }),
    ),
  },
  { additionalProperties: false },
);
const PanelIn = Type.Object(
  { judges: Type.Array(JudgeIn, { minItems: 1, maxItems: 5 }), quorum: Quorum, auto_resolve: Type.Boolean() },
  { additionalProperties: false },
);
const PanelView = Type.Object({
  judges: Type.Array(
    Type.Object({ name: Type.String(), base_url: Type.String(), model: Type.String(), api_key_set: Type.Boolean() }),
  ),
  quorum: Quorum,
  auto_resolve: Type.Boolean(),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

function view(row: PanelRow | null) {
  if (!row) return { judges: [], quorum: 'majority' as const, auto_resolve: false, updated_at: null };
  return {
    judges: row.judges.map((j) => ({
      name: j.name,
      base_url: j.base_url,
      model: j.model,
      api_key_set: j.api_key_sealed !== null,
    })),
    quorum: row.quorum,
    auto_resolve: row.auto_resolve,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export async function judgeRoutes(fastify: FastifyInstance, deps: JudgesDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['judges'];

  app.get(
    '/api/v1/workspace/judges',
    {
      config: { auth: 'account', roles: ['admin', 'auditor'] },
      schema: {
        tags,
        summary: "The workspace's judge panel (admin, auditor); keys are never returned",
        security: bearer,
        response: { 200: PanelView, ...problems(401, 403) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      return view(await ctx.readDb.withTenant(me.tenantId, (tx) => panelOf(tx, me.tenantId)));
    },
  );

  app.put(
    '/api/v1/workspace/judges',
    {
      config: { auth: 'account', roles: ['admin'], write: true },
      schema: {
        tags,
        summary: 'Replace the judge panel (admin): 1-5 OpenAI-compatible endpoints; API keys stored encrypted',
        description: 'Appends a `judge_panel_change` leaf (judge count, quorum, auto_resolve; no names, URLs or keys).',
        security: bearer,
        body: PanelIn,
        response: { 200: PanelView, ...problems(400, 401, 402, 403, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const body = req.body;
      const seen = new Set<string>();
      body.judges.forEach((j, i) => {
        if (seen.has(j.name))
          throw unprocessable('Judge names must be unique.', [
            { field: `/judges/${i}/name`, message: 'duplicates an earlier judge' },
          ]);
        seen.add(j.name);
        try {
          destinationOf(j.base_url);
        } catch {
          throw unprocessable('A judge needs an http(s) URL.', [
            { field: `/judges/${i}/base_url`, message: 'not a valid http(s) URL' },
          ]);
        }
      });
      const now = ctx.now();
      const row = await ctx.db.withTenant(me.tenantId, async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext('agent-ledger judges ' || $1))", [me.tenantId]);
        const before = await panelOf(tx, me.tenantId);
        const stored = new Map((before?.judges ?? []).map((j) => [j.name, j]));
        const judges: StoredJudge[] = body.judges.map((j, i) => {
          const was = stored.get(j.name);
          return {
            name: j.name,
            base_url: j.base_url,
            model: j.model,
            // A key stays bound to the origin it was given for: a new origin needs the key again (422).
            api_key_sealed:
              typeof j.api_key === 'string'
                ? sealKey(deps.kek, me.tenantId, j.name, j.base_url, j.api_key)
                : keptSecret(was && { url: was.base_url, secret: was.api_key_sealed }, j.base_url, j.api_key, {
                    secret: `/judges/${i}/api_key`,
                    url: `/judges/${i}/base_url`,
                  }),
          };
        });
        await tx.query(
          `INSERT INTO judge_panels (tenant_id, judges, quorum, auto_resolve, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (tenant_id) DO UPDATE SET judges = EXCLUDED.judges, quorum = EXCLUDED.quorum, auto_resolve = EXCLUDED.auto_resolve,
             updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
          [me.tenantId, JSON.stringify(judges), body.quorum, body.auto_resolve, me.accountId, now],
        );
        await deps.appendInTx(tx, me.tenantId, {
          v: LEAF_VERSION,
          kind: 'judge_panel_change',
          judges: judges.length,
          quorum: body.quorum,
          auto_resolve: body.auto_resolve,
          by_account_id: me.accountId,
        });
        return { judges, quorum: body.quorum, auto_resolve: body.auto_resolve, updated_at: now };
      });
      return view(row);
    },
  );

  app.post(
    '/api/v1/invocations/:invocation_id/judge',
    {
      // The roles that decide reviews (review/access.ts REVIEWERS): asking the panel spends the plan's calls.
      config: { auth: 'account', roles: ['admin', 'operator'], write: true },
      schema: {
        tags,
        summary: 'Ask the judge panel about an invocation (admin, operator): 202 with the pending judgement',
        description:
          'Runs in the background; GET /api/v1/invocations/{invocation_id} shows the `judgement` when done. Every call to a judge counts against the ' +
          "plan's multi_judge_calls_cap for the calendar month (UTC). 402 plan_limit: the plan includes no judge calls; 404: no such invocation in this " +
          "workspace; 409: no panel is configured, or a judgement of this invocation is pending; 429 quota_exceeded: the month's calls are used " +
          '(Retry-After: seconds to the next month).',
        security: bearer,
        params: Type.Object({ invocation_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        response: {
          202: Type.Object({ invocation_id: Type.Integer(), judgement: JudgementSchema }),
          ...problems(401, 402, 403, 404, 409, 429),
        },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const invocationId = req.params.invocation_id;
      const cap = await deps.callsCap(me.tenantId);
      const now = ctx.now();
      const judgement = await ctx.db.withTenant(me.tenantId, async (tx) => {
        const [inv] = await tx.query(
          `SELECT 1 FROM ingest_read.invocations WHERE tenant_id = $1 AND invocation_id = $2
             AND ${oneInvocationTimeSql('', '$1', '$2::bigint')}`,
          [me.tenantId, invocationId],
        );
        if (!inv) throw notFound('No such invocation.');
        if (!(await panelOf(tx, me.tenantId)))
          throw conflict('No judge panel is configured: PUT /api/v1/workspace/judges first.');
        if (cap <= 0)
          throw new HttpProblem('plan_limit', 'The plan includes no judge calls; upgrade to ask the judge panel.');
        if ((await callsUsed(tx, me.tenantId, now)) >= cap) {
          throw rateLimited(
            secondsToNextMonth(now),
            'quota_exceeded',
            `The plan allows ${cap} judge calls a month; the count starts again on the 1st (UTC).`,
          );
        }
        if ((await judgementOf(tx, me.tenantId, invocationId, true))?.status === 'pending')
          throw conflict('A judgement of this invocation is pending.');
        const attempt = await insertPending(tx, me.tenantId, invocationId, {
          trigger: 'on_demand',
          by: me.accountId,
          jobId: null,
          now,
        });
        if (attempt === null) throw conflict('A judgement of this invocation is pending.');
        await enqueue(tx, me.tenantId, JUDGE_JOB, [{ invocation_id: invocationId, attempt } satisfies JudgeJobPayload]);
        return judgementOf(tx, me.tenantId, invocationId, true);
      });
      deps.enqueued();
      return reply.code(202).send({ invocation_id: invocationId, judgement: judgement! });
    },
  );
}
