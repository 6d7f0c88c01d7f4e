import { setTimeout as sleep } from 'node:timers/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  conflict,
  decodeCursor,
  notFound,
  page,
  type Principal,
  unauthorized,
  unprocessable,
  wrongTokenKind,
} from '../core/index.ts';
import { accountOf, bearer, problems } from '../http/index.ts';
import { approvalOf, approvalView, decideApproval, expireIfDue, listApprovals, type ApprovalRow } from './approvals.ts';
import type { ApprovalWatch } from './approval-watch.ts';
import type { IngestDeps } from './deps.ts';
import {
  ApprovalDecisionBody,
  ApprovalIdParams,
  ApprovalPage,
  ApprovalQuery,
  ApprovalView,
  ApprovalWaitQuery,
} from './schemas.ts';

/** Who may decide: the read side's reviewers. */
const DECIDERS = ['admin', 'operator'] as const;
/** A waiting poll reads the approval again at least this often, should a notification be lost. */
const RECHECK_MS = 10_000;

/**
 * Who reads approvals: an account of any role (API token or console session)
 * reads its workspace's; an ingress token reads those it recorded (an API
 * token that recorded one is an account and reads them all). Others: 403.
 */
function reader(p: Principal | null): { tenantId: string; token: string | null; withNote: boolean } {
  if (p === null) throw unauthorized();
  if (p.kind === 'account') return { tenantId: p.tenantId, token: null, withNote: p.role !== 'viewer' };
  if (p.kind === 'ingress') return { tenantId: p.tenantId, token: p.tokenId, withNote: true };
  throw wrongTokenKind();
}

type ApprovalDeps = IngestDeps & { watch: ApprovalWatch };

const tags = ['approvals'];

export async function approvalRoutes(fastify: FastifyInstance, deps: ApprovalDeps): Promise<void> {
  listRoute(fastify, deps);
  readRoute(fastify, deps);
  decisionRoute(fastify, deps);
}

/** Approvals of one status, a page at a time. */
function listRoute(fastify: FastifyInstance, deps: ApprovalDeps): void {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/v1/approvals',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Approvals of one status (pending, the default), newest invocation first',
        description:
          "Accounts of every role read their workspace's (viewers without notes); an ingress token reads the approvals of the invocations it recorded.",
        security: bearer,
        querystring: ApprovalQuery,
        response: { 200: ApprovalPage, ...problems(401, 403, 422) },
      },
    },
    async (req) => {
      const who = reader(req.principal);
      const { limit, cursor } = req.query;
      const key = decodeCursor(cursor);
      let before: number | null = null;
      if (key !== null) {
        const [id] = key;
        if (key.length !== 1 || !Number.isSafeInteger(id) || (id as number) < 1)
          throw unprocessable('The cursor is not one this service issued.', [
            { field: '/cursor', message: 'is invalid' },
          ]);
        before = id as number;
      }
      const rows = await ctx.readDb.withTenant(who.tenantId, (tx) =>
        listApprovals(tx, who.tenantId, { status: req.query.status ?? 'pending', before, limit, token: who.token }),
      );
      const p = page(rows, limit, (r) => [Number(r.invocation_id)]);
      return { items: p.items.map((r) => approvalView(r, who.withNote)), next_cursor: p.next_cursor };
    },
  );
}

/** One approval, awaited while pending when asked to. */
function readRoute(fastify: FastifyInstance, deps: ApprovalDeps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/v1/approvals/:approval_id',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'One approval; with ?wait=SECONDS (at most 60) a pending one is answered as soon as it is decided',
        description:
          "The long poll holds no database connection while it waits: every decision and expiry is announced to every node (PostgreSQL NOTIFY). It answers with the approval as it is when decided, expired or when the wait is over (still pending). 404: no such approval, another workspace's, or (ingress tokens) one another token recorded.",
        security: bearer,
        params: ApprovalIdParams,
        querystring: ApprovalWaitQuery,
        response: { 200: ApprovalView, ...problems(401, 403, 404, 422) },
      },
    },
    async (req, reply) => {
      const who = reader(req.principal);
      const row = await awaitApproval(
        deps,
        who,
        req.params.approval_id.toLowerCase(),
        (req.query.wait ?? 0) * 1000,
        closed(reply),
      );
      if (row === null) throw notFound('No such approval.');
      return approvalView(row, who.withNote);
    },
  );
}

/** A person's decision on a held invocation. */
function decisionRoute(fastify: FastifyInstance, deps: ApprovalDeps): void {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api/v1/approvals/:approval_id/decision',
    {
      config: { auth: 'account', roles: DECIDERS, write: true },
      schema: {
        tags,
        summary: 'Approve or deny a held invocation, with a note',
        description:
          "Appends an `approval_decided` leaf {kind, approval_id, invocation_id, decision, note: salted commitment, by_account_id} and resolves the invocation's review queue item (a `review` leaf, approve or reject) in the same transaction; long polls on every node answer at once. " +
          'The note is stored redacted like content and never put in the log. 404: no such approval in this workspace; 409: already decided, or expired (expiry is a deny).',
        security: bearer,
        params: ApprovalIdParams,
        body: ApprovalDecisionBody,
        response: { 200: ApprovalView, ...problems(400, 401, 402, 403, 404, 409, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const approvalId = req.params.approval_id.toLowerCase();
      const note = req.body.note ?? '';
      // A note may name a customer or paste a card number: redacted like any content before it is stored or committed to.
      const stored = note === '' ? note : deps.redact(note);
      const now = ctx.now();
      const result = await deps.writer.submit(me.tenantId, (tx, log) =>
        decideApproval(
          tx,
          log,
          { tenantId: me.tenantId, approvalId, decision: req.body.decision, note: stored, by: me.accountId, now },
          deps.resolveReview,
        ),
      );
      if (!result.ok) {
        if (result.reason === 'not_found') throw notFound('No such approval.');
        throw conflict(
          result.approval.status === 'expired'
            ? 'This approval expired before it was decided (expiry is a deny).'
            : `This approval was already decided: ${result.approval.status}.`,
        );
      }
      return approvalView(result.approval, true);
    },
  );
}

/**
 * An approval as soon as it is decided or expires, or when `waitMs` is over
 * (still pending); null when it is not visible to `who`. Holds no database
 * connection while it waits: woken by the decision's announcement (any node),
 * at its expiry (which it then writes, should the expiry job not have run
 * yet), when the client goes away, and every 10 s should a notification be lost.
 */
export async function awaitApproval(
  deps: IngestDeps & { watch: ApprovalWatch },
  who: { tenantId: string; token: string | null },
  approvalId: string,
  waitMs: number,
  gone: { promise: Promise<void>; isClosed: () => boolean },
): Promise<ApprovalRow | null> {
  const { ctx, watch } = deps;
  const deadline = Date.now() + waitMs;
  for (;;) {
    // Armed before the read: a decision committed between the read and the wait still wakes it.
    const armed = watch.arm(who.tenantId, approvalId);
    try {
      // The primary, not the read replica: a poll woken by a decision must see it.
      let row = await ctx.db.withTenant(who.tenantId, (tx) => approvalOf(tx, who.tenantId, approvalId));
      if (row === null || (who.token !== null && row.requested_by_token !== who.token)) return null;
      if (row.status === 'pending' && row.expires_at.getTime() <= ctx.now().getTime()) {
        // Its expiry job has not run yet (it runs by the database's clock, on a poll): expire it now.
        row =
          (await deps.writer.submit(who.tenantId, (tx, log) =>
            expireIfDue(tx, log, who.tenantId, approvalId, ctx.now()),
          )) ?? row;
      }
      const left = deadline - Date.now();
      if (row.status !== 'pending' || left <= 0 || gone.isClosed()) return row;
      const untilExpiry = row.expires_at.getTime() - ctx.now().getTime() + 10;
      const ac = new AbortController();
      await Promise.race([
        armed.woken,
        gone.promise,
        sleep(Math.min(left, untilExpiry, RECHECK_MS), undefined, { signal: ac.signal }).catch(() => {}),
      ]);
      ac.abort();
    } finally {
      armed.cancel();
    }
  }
}

/** Settles when the client goes away (the response's socket closes), so a poll it abandoned stops waiting. */
export function closed(reply: FastifyReply): { promise: Promise<void>; isClosed: () => boolean } {
  let gone = reply.raw.destroyed;
  const promise = new Promise<void>((resolve) => {
    if (gone) resolve();
    reply.raw.once('close', () => {
      gone = true;
      resolve();
    });
  });
  return { promise, isClosed: () => gone };
}
