import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { accountOf, bearer, problems, Timestamp } from '../http/index.ts';
import { HttpProblem, notFound, unprocessable } from '../core/index.ts';
import { invocationExpired } from '../ingest/index.ts';
import { Type } from 'typebox';
import { evidenceIdOf } from '../ledger/index.ts';
import { READERS, seesContent } from './access.ts';
import { checkRange, checkText, decodeTimeKey, timePage } from './cursor.ts';
import {
  type ContentRow,
  findInvocation,
  invocationContent,
  invocationSummary,
  invocationTrace,
  listInvocations,
  TRACE_LIMIT,
  type TraceRow,
} from './invocation-queries.ts';
import type { ReviewModuleDeps } from './deps.ts';
import { decisionView, reviewOf } from './review-store.ts';
import { BUCKET_MS, MAX_BUCKETS, verdictStats } from './stats.ts';
import { InvocationIdParams, InvocationPage, InvocationQuery, InvocationRecord } from './schemas.ts';

export async function invocationRoutes(fastify: FastifyInstance, deps: ReviewModuleDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['read side'];

  app.get(
    '/api/v1/invocations',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags,
        summary: 'Invocations of the workspace, newest first, with filters',
        description: 'Metadata only (no stored content). Keyset paging: pass next_cursor back as cursor.',
        security: bearer,
        querystring: InvocationQuery,
        response: { 200: InvocationPage, ...problems(401, 403, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { limit, cursor, ...filters } = req.query;
      checkText(filters, ['agent_key', 'correlation_id']);
      checkRange(filters.since, filters.until);
      checkRange(filters.occurred_from, filters.occurred_to, ['occurred_from', 'occurred_to']);
      const after = decodeTimeKey(cursor);
      const rows = await ctx.readDb.withTenant(me.tenantId, (tx) =>
        listInvocations(tx, me.tenantId, filters, after, limit),
      );
      const p = timePage(rows, limit, (r) => r.invocation_id);
      return { items: p.items.map(invocationSummary), next_cursor: p.next_cursor };
    },
  );

  app.get(
    '/api/v1/invocations/stats',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags,
        summary: 'Invocations per hour or day by verdict, for a time range',
        description: `Buckets start at \`since\` and step by the bucket; empty buckets are zeros. At most ${MAX_BUCKETS.hour} hourly or ${MAX_BUCKETS.day} daily buckets per call.`,
        security: bearer,
        querystring: Type.Object({
          since: Type.String({ format: 'date-time', description: 'Start of the first bucket (inclusive)' }),
          until: Type.String({ format: 'date-time', description: 'End of the range (exclusive)' }),
          bucket: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
        }),
        response: {
          200: Type.Object({
            bucket: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
            buckets: Type.Array(
              Type.Object({
                start: Timestamp,
                allow: Type.Integer(),
                flag_for_review: Type.Integer(),
                deny: Type.Integer(),
              }),
            ),
          }),
          ...problems(401, 403, 422),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { since, until, bucket } = req.query;
      checkRange(since, until);
      const from = new Date(since);
      const to = new Date(until);
      if ((to.getTime() - from.getTime()) / BUCKET_MS[bucket] > MAX_BUCKETS[bucket]) {
        throw unprocessable(`At most ${MAX_BUCKETS[bucket]} ${bucket} buckets per call.`, [
          { field: '/until', message: 'range too long for this bucket' },
        ]);
      }
      const buckets = await ctx.readDb.snapshot(me.tenantId, (tx) => verdictStats(tx, me.tenantId, from, to, bucket));
      return { bucket, buckets };
    },
  );

  app.get(
    '/api/v1/invocations/:invocation_id',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags,
        summary:
          'One invocation: metadata, stored content and findings, verdict and reasons, review state, evidence and trace',
        description:
          'Viewers get the record without stored content: no `content` and no review note; `finding_counts` (types and counts) is for every role.',
        security: bearer,
        params: InvocationIdParams,
        response: { 200: InvocationRecord, ...problems(401, 403, 404, 410) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const id = req.params.invocation_id;
      const withContent = seesContent(me.role);
      const found = await ctx.readDb.withTenant(me.tenantId, async (tx) => {
        const inv = await findInvocation(tx, me.tenantId, id);
        if (!inv) return null;
        const [content, trace, review, otel] = [
          await invocationContent(tx, me.tenantId, id, withContent),
          await invocationTrace(tx, me.tenantId, inv),
          await reviewOf(tx, me.tenantId, id),
          (await deps.otelDetails?.(tx, me.tenantId, { id, createdAt: inv.created_at }, withContent)) ?? null,
        ];
        const judgement = (await deps.judgements?.(tx, me.tenantId, [id], withContent))?.get(id) ?? null;
        return { inv, content, trace, review, otel, judgement };
      });
      if (!found) {
        if (await ctx.readDb.withTenant(me.tenantId, (tx) => invocationExpired(tx, me.tenantId, id)))
          throw new HttpProblem(
            'expired_by_retention',
            `Invocation ${id} was recorded before the deployment's records retention and its record was deleted; ` +
              'its leaf stays in the log, so its evidence and proofs still verify.',
          );
        throw notFound('No such invocation.');
      }
      const { inv, content, trace, review, otel, judgement } = found;
      const output = content.find((c) => c.field === 'tool_output');
      return {
        ...invocationSummary(inv),
        output_scan: {
          status:
            output === undefined
              ? ('none' as const)
              : output.findings === null
                ? ('pending' as const)
                : ('done' as const),
          verdict: inv.output_scan_verdict,
          reasons: inv.output_scan_reasons,
          scanned_at: inv.output_scanned_at,
        },
        review: review ? decisionView(review, withContent) : null,
        judgement,
        finding_counts: content.map((c) => ({ field: c.field, counts: countTypes(c) })),
        ...(withContent ? { content: content.map(contentView) } : {}),
        trace: traceView(trace),
        otel,
      };
    },
  );
}

function countTypes(c: ContentRow): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of c.findings ?? []) counts[f.type] = (counts[f.type] ?? 0) + 1;
  return counts;
}

/**
 * A stored field as shown. A tool_output still awaiting its background scan
 * is the text as the agent sent it, not yet redacted: it is withheld until
 * the scan has replaced it.
 */
function contentView(c: ContentRow) {
  // Erased by retention or for a data subject: the field was sent, its text and finding positions are gone.
  if (c.erased_at !== null) return { field: c.field, text: null, findings: null, scan_pending: false, erased: true };
  const pending = c.findings === null;
  return { field: c.field, text: pending ? null : c.body, findings: c.findings, scan_pending: pending, erased: false };
}

function traceView(rows: TraceRow[]) {
  const item = (r: TraceRow) => ({
    invocation_id: r.invocation_id,
    parent_invocation_id: r.parent_invocation_id,
    agent_key: r.agent_key,
    tool_name: r.tool_name,
    mode: r.mode,
    outcome: r.outcome,
    verdict: r.verdict,
    evidence_id: evidenceIdOf(r.log_index),
    created_at: r.created_at,
  });
  const children = rows.filter((r) => r.rel === 'child');
  const siblings = rows.filter((r) => r.rel === 'sibling');
  const parent = rows.find((r) => r.rel === 'parent');
  return {
    parent: parent ? item(parent) : null,
    children: children.slice(0, TRACE_LIMIT).map(item),
    children_truncated: children.length > TRACE_LIMIT,
    siblings: siblings.slice(0, TRACE_LIMIT).map(item),
    siblings_truncated: siblings.length > TRACE_LIMIT,
  };
}
