import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  accountOf,
  clearedSessionCookies,
  csrfTokenFor,
  limiter,
  originAllowed,
  problems,
  sessionCookie,
  Timestamp,
  Uuid,
} from '../http/index.ts';
import { forbidden, notFound } from '../core/index.ts';
import type { AccountRouteDeps } from './deps.ts';
import { listOwnSessions, revokeSession, SESSION_HOURS, startSession } from './console-sessions.ts';
import { accountView, getWorkspace } from './directory.ts';
import { normalizeEmail } from './email-domains.ts';
import { AccountSchema, Email } from './schemas.ts';
import { invalidCode, signInWithCode } from './signin.ts';

const SessionView = Type.Object({
  account: AccountSchema,
  session_id: Uuid,
  expires_at: Timestamp,
  csrf_token: Type.String({ description: 'Send as the x-csrf-token header on every state-changing request.' }),
});

const SessionListItem = Type.Object({
  session_id: Uuid,
  prefix: Type.String(),
  user_agent: Type.String(),
  created_at: Timestamp,
  expires_at: Timestamp,
  last_used_at: Timestamp,
  current: Type.Boolean(),
});

const cookieAuth = [{ session: [] }];

/**
 * The console's sign-in: the same e-mailed code as /accounts/verify, but the
 * answer is a session cookie (a svc_session_ token, HttpOnly) instead of an
 * API token in the body.
 */
export async function sessionRoutes(fastify: FastifyInstance, deps: AccountRouteDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['console'];

  app.post(
    '/api/v1/console/session',
    {
      schema: {
        tags,
        summary: 'Sign the console in with an e-mailed code: sets the session cookie',
        description:
          'Same code as POST /api/v1/accounts/verify. Answers with the account and the CSRF token, and sets an HttpOnly, SameSite=Strict session cookie (Secure, `__Host-al_session`; `al_session` without Secure over plain http to a loopback address). The session expires after 12 hours, or 2 hours unused.',
        body: Type.Object({ email: Email, code: Type.String({ minLength: 1, maxLength: 32 }) }),
        response: { 200: SessionView, ...problems(400, 401, 403, 422, 429) },
      },
      preHandler: [
        limiter(app, 'verify-ip', ctx.config.signupLimitPerIp * 5, ctx.config.signupLimitWindow, (req) => req.ip),
      ],
    },
    async (req, reply) => {
      // Login CSRF: another site must not sign this browser into its account.
      if (!originAllowed(req, ctx.config.publicUrl)) throw forbidden('Sign in from the console of this service.');
      const norm = normalizeEmail(req.body.email);
      if (!norm) throw invalidCode();
      const ua = req.headers['user-agent'] ?? '';
      const out = await signInWithCode(
        deps,
        norm.email,
        norm.domain,
        req.body.code.trim(),
        async (tx, account, ws, now) => {
          const s = await startSession(tx, account.tenant_id, account.account_id, ua, now);
          await deps.appendAudit(tx, account.tenant_id, {
            kind: 'console_session_started',
            session_id: s.session_id,
            token_prefix: s.prefix,
            account_id: account.account_id,
          });
          return { s, account: accountView(account, ws) };
        },
      );
      void reply.header('set-cookie', sessionCookie(req, out.s.token, SESSION_HOURS * 3600));
      void reply.header('cache-control', 'no-store');
      return {
        account: out.account,
        session_id: out.s.session_id,
        expires_at: out.s.expires_at,
        csrf_token: csrfTokenFor(out.s.token),
      };
    },
  );

  app.get(
    '/api/v1/console/session',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'The current console session: account and CSRF token',
        security: cookieAuth,
        response: { 200: SessionView, ...problems(401, 404) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      if (req.consoleCsrf === null) throw notFound('This endpoint answers console sessions (cookie) only.');
      const ws = await getWorkspace(ctx.db, me.tenantId);
      if (!ws) throw notFound();
      const [row] = (await listOwnSessions(ctx.db, me.tenantId, me.accountId, ctx.now())).filter(
        (s) => s.session_id === me.tokenId,
      );
      void reply.header('cache-control', 'no-store');
      return {
        account: accountView({ account_id: me.accountId, tenant_id: me.tenantId, email: me.email, role: me.role }, ws),
        session_id: me.tokenId,
        expires_at: row?.expires_at ?? ctx.now(),
        csrf_token: req.consoleCsrf,
      };
    },
  );

  app.delete(
    '/api/v1/console/session',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'Sign out: revokes the current console session and clears its cookie',
        security: cookieAuth,
        response: { 204: Type.Null({ description: 'Signed out' }), ...problems(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      if (req.consoleCsrf === null) throw notFound('This endpoint answers console sessions (cookie) only.');
      await revokeAndAudit(me, me.tokenId);
      void reply.header('set-cookie', clearedSessionCookies());
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/console/sessions',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: "The caller's live console sessions (never their secrets)",
        security: [...cookieAuth, { bearer: [] }],
        response: { 200: Type.Object({ sessions: Type.Array(SessionListItem) }), ...problems(401) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const rows = await listOwnSessions(ctx.db, me.tenantId, me.accountId, ctx.now());
      return {
        sessions: rows.map((r) => ({
          session_id: r.session_id,
          prefix: r.prefix,
          user_agent: r.user_agent,
          created_at: r.created_at,
          expires_at: r.expires_at,
          last_used_at: r.last_used_at,
          current: req.consoleCsrf !== null && r.session_id === me.tokenId,
        })),
      };
    },
  );

  app.delete(
    '/api/v1/console/sessions/:session_id',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'Revoke a console session (own, or any of the workspace for admins); immediate on every node',
        security: [...cookieAuth, { bearer: [] }],
        params: Type.Object({ session_id: Uuid }),
        response: { 204: Type.Null({ description: 'Revoked' }), ...problems(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      if (!(await revokeAndAudit(me, req.params.session_id))) throw notFound();
      return reply.code(204).send(null);
    },
  );

  async function revokeAndAudit(me: ReturnType<typeof accountOf>, sessionId: string): Promise<boolean> {
    return ctx.db.transaction(async (tx) => {
      const r = await revokeSession(
        tx,
        { tenantId: me.tenantId, accountId: me.accountId, role: me.role },
        sessionId,
        ctx.now(),
      );
      if (r?.newly) {
        await deps.appendAudit(tx, me.tenantId, {
          kind: 'console_session_revoked',
          session_id: sessionId,
          account_id: r.account_id,
          by_account_id: me.accountId,
        });
      }
      return r !== null;
    });
  }
}
