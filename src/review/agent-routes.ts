import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { accountOf, bearer, problems } from '../http/index.ts';
import { decodeCursor, encodeCursor, notFound, unprocessable } from '../core/index.ts';
import { agentScope } from '../policy/index.ts';
import { READERS } from './access.ts';
import { type AgentTotals, agentDetail, listAgents } from './agent-queries.ts';
import { storableText } from './cursor.ts';
import type { ReviewModuleDeps } from './deps.ts';
import { riskScore } from './risk.ts';
import { AgentKeyParams, AgentPage, AgentsQuery, AgentView } from './schemas.ts';

export async function agentRoutes(fastify: FastifyInstance, deps: ReviewModuleDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['read side'];

  app.get(
    '/api/v1/agents',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags,
        summary: 'Agents seen in the workspace (by an invocation or a rogue event), by agent_key',
        security: bearer,
        querystring: AgentsQuery,
        response: { 200: AgentPage, ...problems(401, 403, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { limit } = req.query;
      const after = afterKey(req.query.cursor);
      const rows = await ctx.readDb.withTenant(me.tenantId, (tx) => listAgents(tx, me.tenantId, after, limit));
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return {
        items: items.map((r) => ({
          agent_key: r.agent_key,
          first_seen_at: r.first_seen_at,
          last_seen_at: r.last_seen_at,
          invocations: r.invocations,
          rogue_events: r.rogue_events,
          risk_score: riskScore(r),
        })),
        next_cursor: rows.length > limit && last ? encodeCursor([last.agent_key]) : null,
      };
    },
  );

  app.get(
    '/api/v1/agents/:agent_key',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags,
        summary:
          'One agent: first and last seen, counts by verdict, outcome and mode, rogue events by type, allowed tools, risk score',
        description:
          'risk.score = round(100·bad / (bad + clean + 20)) clamped to 1-99 when bad > 0, else 0; ' +
          'bad = 10·denies + 5·rogue_events + 2·flags + pii_findings (denies and flags outside shadow mode); ' +
          'clean = allowed invocations without PII in tool_input.',
        security: bearer,
        params: AgentKeyParams,
        response: { 200: AgentView, ...problems(401, 403, 404) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const key = req.params.agent_key;
      if (!storableText(key)) throw notFound('No such agent.');
      const found = await ctx.readDb.withTenant(me.tenantId, async (tx) => {
        const detail = await agentDetail(tx, me.tenantId, key);
        const tools = await agentScope(tx, me.tenantId, key);
        return { detail, tools };
      });
      const { detail, tools } = found;
      // An agent given a scope before it was ever seen is known, with no activity.
      if (!detail && tools === null) throw notFound('No such agent.');
      const totals: AgentTotals = detail?.totals ?? {
        agent_key: key,
        first_seen_at: null,
        last_seen_at: null,
        invocations: 0,
        denies: 0,
        flags: 0,
        rogue_events: 0,
        pii_findings: 0,
        clean_invocations: 0,
      };
      const byVerdict = { allow: 0, flag_for_review: 0, deny: 0 };
      const byMode = { observed: 0, enforced: 0, shadow: 0 };
      const byOutcome: Record<string, number> = {};
      for (const a of detail?.activity ?? []) {
        byVerdict[a.verdict as keyof typeof byVerdict] += a.invocations;
        byMode[a.mode as keyof typeof byMode] += a.invocations;
        byOutcome[a.outcome] = (byOutcome[a.outcome] ?? 0) + a.invocations;
      }
      const byType: Record<string, number> = {};
      for (const r of detail?.rogue ?? []) byType[r.event_type] = r.events;
      return {
        agent_key: key,
        first_seen_at: totals.first_seen_at,
        last_seen_at: totals.last_seen_at,
        invocations: totals.invocations,
        by_verdict: byVerdict,
        by_outcome: byOutcome,
        by_mode: byMode,
        pii_findings: totals.pii_findings,
        rogue_events: { total: totals.rogue_events, by_type: byType },
        allowed_tools: tools,
        risk: {
          score: riskScore(totals),
          denies: totals.denies,
          flags: totals.flags,
          rogue_events: totals.rogue_events,
          pii_findings: totals.pii_findings,
          clean_invocations: totals.clean_invocations,
        },
      };
    },
  );
}

function afterKey(cursor: string | undefined): string | null {
  const v = decodeCursor(cursor);
  if (v === null) return null;
  if (v.length === 1 && typeof v[0] === 'string' && storableText(v[0])) return v[0];
  throw unprocessable('The cursor is not one this service issued.', [{ field: '/cursor', message: 'is invalid' }]);
}
