import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { accountOf, bearer, problems, Timestamp } from '../http/index.ts';
import { conflict, notFound, unprocessable } from '../core/index.ts';
import { Type } from 'typebox';
import { redactForStorage } from '../detect/index.ts';
import { evidenceIdOf } from '../ledger/index.ts';
import { READERS, REVIEWERS, seesContent } from './access.ts';
import { decodeTimeKey, timePage } from './cursor.ts';
import { invocationSummary } from './invocation-queries.ts';
import type { ReviewModuleDeps } from './deps.ts';
import { leasedByOther, leaseNext, LEASE_MINUTES, pendingCount, release } from './leases.ts';
import { decideReview, decisionView, listReviews } from './review-store.ts';
import { InvocationIdParams, ReviewBody, ReviewDone, ReviewPage, ReviewQuery } from './schemas.ts';

export async function reviewRoutes(fastify: FastifyInstance, deps: ReviewModuleDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['review'];

  app.get(
    '/api/v1/reviews',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags,
        summary: 'The review queue (status=pending, the default) or decided reviews, newest invocation first',
        description: 'Viewers get the decisions without their notes.',
        security: bearer,
        querystring: ReviewQuery,
        response: { 200: ReviewPage, ...problems(401, 403, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { limit, cursor } = req.query;
      const status = req.query.status ?? 'pending';
      const after = decodeTimeKey(cursor);
      const withNote = seesContent(me.role);
      const { p, judgements } = await ctx.readDb.withTenant(me.tenantId, async (tx) => {
        const p = timePage(await listReviews(tx, me.tenantId, status, after, limit), limit, (r) => r.invocation_id);
        // The panel's opinion beside each item (judges module).
        const ids = p.items.map((r) => Number(r.invocation_id));
        return { p, judgements: (await deps.judgements?.(tx, me.tenantId, ids, withNote)) ?? new Map() };
      });
      return {
        items: p.items.map((r) => ({
          ...invocationSummary(r),
          judgement: judgements.get(Number(r.invocation_id)) ?? null,
          review:
            r.r_decision === null
              ? null
              : decisionView(
                  {
                    decision: r.r_decision,
                    note: r.r_note,
                    decided_by: r.r_decided_by,
                    decided_by_panel: r.r_decided_by_panel === true,
                    decided_at: r.r_decided_at!,
                    log_index: r.r_log_index!,
                  },
                  withNote,
                ),
        })),
        next_cursor: p.next_cursor,
      };
    },
  );

  app.post(
    '/api/v1/reviews/lease',
    {
      config: { auth: 'account', roles: REVIEWERS },
      schema: {
        tags,
        summary: 'Take the next item of the review queue: the oldest pending invocation no other reviewer holds',
        description: `Leases it to the caller for ${LEASE_MINUTES} minutes (releasing the caller's previous lease), so two reviewers never get the same item. \`exclude\` lists invocations the reviewer skipped. \`invocation_id\` is null when nothing is left. A decision by another reviewer on a leased item is refused with 409.`,
        security: bearer,
        body: Type.Object({
          exclude: Type.Optional(
            Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), { maxItems: 500 }),
          ),
        }),
        response: {
          200: Type.Object({
            invocation_id: Type.Union([Type.Integer(), Type.Null()]),
            lease_expires_at: Type.Union([Timestamp, Type.Null()]),
            pending: Type.Integer({ description: 'Pending items in the queue, leased or not' }),
          }),
          ...problems(400, 401, 403, 422),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const now = ctx.now();
      return ctx.db.withTenant(me.tenantId, async (tx) => {
        const lease = await leaseNext(tx, me.tenantId, me.accountId, req.body.exclude ?? [], now);
        return {
          invocation_id: lease?.invocation_id ?? null,
          lease_expires_at: lease?.expires_at ?? null,
          pending: await pendingCount(tx, me.tenantId),
        };
      });
    },
  );

  app.post(
    '/api/v1/reviews/:invocation_id',
    {
      config: { auth: 'account', roles: REVIEWERS, write: true },
      schema: {
        tags,
        summary: 'Approve or reject a pending invocation, with a note',
        description:
          'Appends a `review` entry to the audit trail in the same transaction: {kind, invocation_id, decision, note: salted commitment, by_account_id}. ' +
          'The note is scanned and stored redacted like content (PII and secrets replaced by typed placeholders), never put in the log; ' +
          'the response shows it as stored. 404: no such invocation in this workspace; 409: not pending.',
        security: bearer,
        params: InvocationIdParams,
        body: ReviewBody,
        response: { 201: ReviewDone, ...problems(400, 401, 402, 403, 404, 409, 422) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const invocationId = req.params.invocation_id;
      const note = req.body.note ?? '';
      if (!note.isWellFormed() || note.includes('\u0000')) {
        throw unprocessable('The note must be valid Unicode without NUL characters.', [
          { field: '/note', message: 'must be valid Unicode text without U+0000' },
        ]);
      }
      // A note may name a customer or paste a card number: it is redacted like
      // any content before it is stored or committed to.
      const stored = note === '' ? note : redactForStorage(note);
      const now = ctx.now();
      const result = await deps.writer.submit(me.tenantId, async (tx, log) => {
        if (await leasedByOther(tx, me.tenantId, invocationId, me.accountId, now))
          return { ok: false as const, reason: 'leased' as const };
        const r = await decideReview(tx, log, {
          tenantId: me.tenantId,
          invocationId,
          decision: req.body.decision,
          note: stored,
          by: me.accountId,
          now,
        });
        if (r.ok) await release(tx, me.tenantId, me.accountId);
        return r;
      });
      if (!result.ok) {
        if (result.reason === 'leased')
          throw conflict('Another reviewer holds this item; take the next one from the queue.');
        if (result.reason === 'not_found') throw notFound('No such invocation.');
        throw conflict(
          result.status === null
            ? 'This invocation is not in the review queue.'
            : `This invocation is not pending review: it was already ${result.status}.`,
        );
      }
      return reply.code(201).send({
        invocation_id: invocationId,
        review_status: result.status,
        decision: result.review.decision,
        note: result.review.note ?? '',
        decided_by: result.review.decided_by!,
        decided_at: result.review.decided_at,
        evidence_id: evidenceIdOf(result.review.log_index),
      });
    },
  );
}
