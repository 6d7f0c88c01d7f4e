import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { accountOf, bearer, limiter, PageQuery, problems, Uuid } from '../http/index.ts';
import { decodeCursor, notFound, page } from '../core/index.ts';
import type { AccountRouteDeps } from './deps.ts';
import { normalizeEmail, requireEmail } from './email-domains.ts';
import { invitationMail } from './invitation-mail.ts';
import { cancelInvitation, changeRole, invite, listMembers, listOpenInvitations, removeMember } from './members.ts';
import { Email, InvitationSchema, MemberSchema, RoleSchema } from './schemas.ts';

const ADMIN = ['admin'] as const;

/** The invited address as a limit key: normalized, so case and spelling variants share one count. */
function recipient(req: { body: unknown }): string {
  const email = (req.body as { email?: unknown })?.email;
  return typeof email === 'string' ? (normalizeEmail(email)?.email ?? email.toLowerCase()) : '';
}

export async function workspaceRoutes(fastify: FastifyInstance, deps: AccountRouteDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['workspace'];

  app.get(
    '/api/v1/workspace/members',
    {
      config: { auth: 'account', roles: ADMIN },
      schema: {
        tags,
        summary: 'Members of the workspace, by e-mail',
        security: bearer,
        querystring: Type.Object(PageQuery),
        response: {
          200: Type.Object({ items: Type.Array(MemberSchema), next_cursor: Type.Union([Type.String(), Type.Null()]) }),
          ...problems(401, 403, 422),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const after = decodeCursor(req.query.cursor)?.[0];
      const rows = await listMembers(
        ctx.db,
        me.tenantId,
        typeof after === 'string' ? after : null,
        req.query.limit + 1,
      );
      return page(rows, req.query.limit, (r) => [r.email]);
    },
  );

  app.get(
    '/api/v1/workspace/invites',
    {
      config: { auth: 'account', roles: ADMIN },
      schema: {
        tags,
        summary: 'Open invitations of the workspace',
        security: bearer,
        response: {
          200: Type.Object({ items: Type.Array(InvitationSchema), next_cursor: Type.Null() }),
          ...problems(401, 403),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      return { items: await listOpenInvitations(ctx.db, me.tenantId, ctx.now()), next_cursor: null };
    },
  );

  app.post(
    '/api/v1/workspace/invites',
    {
      config: { auth: 'account', roles: ADMIN, write: true },
      schema: {
        tags,
        summary: 'Invite an address to the workspace with a role; it joins at its first sign-in',
        security: bearer,
        body: Type.Object({ email: Email, role: RoleSchema }),
        response: { 201: InvitationSchema, ...problems(400, 401, 402, 403, 409, 422, 429) },
      },
      // Every invitation sends a mail to an address the caller chooses: limited per workspace, and per
      // recipient across all workspaces (no one address mailed without end). Checked after authentication,
      // before anything is written or sent; refused requests count too.
      preHandler: [
        limiter(
          app,
          'invite-workspace',
          ctx.config.inviteLimitPerWorkspace,
          ctx.config.inviteLimitWindow,
          (req) => accountOf(req).tenantId,
        ),
        limiter(app, 'invite-email', ctx.config.inviteLimitPerEmail, ctx.config.inviteLimitWindow, recipient),
      ],
    },
    async (req, reply) => {
      const me = accountOf(req);
      const norm = requireEmail(req.body.email);
      const inv = await ctx.db.transaction(async (tx) => {
        const created = await invite(tx, me.tenantId, norm.email, req.body.role, me.accountId, ctx.now());
        await deps.appendAudit(tx, me.tenantId, {
          kind: 'member_change',
          change: 'invited',
          email: norm.email,
          role: req.body.role,
          invitation_id: created.invitation_id,
          by_account_id: me.accountId,
        });
        return created;
      });
      await ctx.mailer
        .send({
          to: norm.email,
          ref: `invitation:${inv.invitation_id}`,
          ...invitationMail({
            inviter: me.email,
            role: req.body.role,
            expiresAt: inv.expires_at,
            publicUrl: ctx.config.publicUrl,
          }),
        })
        .catch((err: unknown) => req.log.warn({ err }, 'invitation mail not sent'));
      return reply.code(201).send(inv);
    },
  );

  app.delete(
    '/api/v1/workspace/invites/:invitation_id',
    {
      // A write like any other: only token revocation is exempt from the 402 gate (API.md).
      config: { auth: 'account', roles: ADMIN, write: true },
      schema: {
        tags,
        summary: 'Withdraw an open invitation',
        security: bearer,
        params: Type.Object({ invitation_id: Uuid }),
        response: { 204: Type.Null(), ...problems(401, 402, 403, 404) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const ok = await ctx.db.transaction((tx) => cancelInvitation(tx, me.tenantId, req.params.invitation_id));
      if (!ok) throw notFound('No such open invitation.');
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/v1/workspace/members/:account_id',
    {
      config: { auth: 'account', roles: ADMIN, write: true },
      schema: {
        tags,
        summary: "Change a member's role",
        security: bearer,
        params: Type.Object({ account_id: Uuid }),
        body: Type.Object({ role: RoleSchema }),
        response: { 200: MemberSchema, ...problems(400, 401, 402, 403, 404, 409, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const changed = await ctx.db.transaction(async (tx) => {
        const r = await changeRole(tx, me.tenantId, req.params.account_id, req.body.role);
        if (r && r.before !== r.after.role) {
          await deps.appendAudit(tx, me.tenantId, {
            kind: 'member_change',
            change: 'role',
            account_id: r.after.account_id,
            from_role: r.before,
            role: r.after.role,
            by_account_id: me.accountId,
          });
        }
        return r;
      });
      if (!changed) throw notFound('No such member.');
      return changed.after;
    },
  );

  app.delete(
    '/api/v1/workspace/members/:account_id',
    {
      config: { auth: 'account', roles: ADMIN, write: true },
      schema: {
        tags,
        summary: 'Remove a member and revoke their tokens',
        security: bearer,
        params: Type.Object({ account_id: Uuid }),
        response: { 204: Type.Null(), ...problems(401, 402, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const gone = await ctx.db.transaction(async (tx) => {
        const r = await removeMember(tx, me.tenantId, req.params.account_id);
        if (r) {
          await deps.appendAudit(tx, me.tenantId, {
            kind: 'member_change',
            change: 'removed',
            account_id: r.account_id,
            email: r.email,
            role: r.role,
            by_account_id: me.accountId,
          });
        }
        return r;
      });
      if (!gone) throw notFound('No such member.');
      return reply.code(204).send(null);
    },
  );
}
