import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { accountOf, bearer, ContentText, problems, Timestamp } from '../http/index.ts';
import { LEAF_VERSION, pseudonymInTx } from '../ledger/index.ts';
import type { PolicyModuleDeps } from './deps.ts';
import { checkRules } from './rule-checks.ts';
import { PolicyDocumentSchema, PolicyView } from './schema.ts';
import { currentPolicy, saveAgentScope, savePolicy } from './store.ts';

/** Only admins change the policy and agent scopes: the rules that decide verdicts are a governance decision, not an operator's. */
const EDITORS = ['admin'] as const;
/** Auditors read the policy they audit (and agent scopes, on the read side). */
const READERS = ['admin', 'operator', 'auditor'] as const;

export async function policyRoutes(fastify: FastifyInstance, deps: PolicyModuleDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['policy'];

  app.get(
    '/api/v1/policy',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags,
        summary: 'The workspace policy document in force (admin, operator, auditor)',
        security: bearer,
        response: { 200: PolicyView, ...problems(401, 403) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const p = await ctx.readDb.withTenant(me.tenantId, (tx) => currentPolicy(tx, me.tenantId));
      return { version: p.version, ...p.document, updated_at: p.updated_at?.toISOString() ?? null };
    },
  );

  app.put(
    '/api/v1/policy',
    {
      config: { auth: 'account', roles: EDITORS, write: true },
      schema: {
        tags,
        summary: 'Store a new version of the policy; it decides every event from then on',
        description: 'Each change is an audit-trail entry (`policy_change`) holding the whole document.',
        security: bearer,
        body: PolicyDocumentSchema,
        response: { 200: PolicyView, ...problems(400, 401, 402, 403, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const doc = req.body;
      checkRules(doc.rules, '/rules');
      const now = ctx.now();
      const saved = await ctx.db.withTenant(me.tenantId, async (tx) => {
        const p = await savePolicy(tx, me.tenantId, doc, me.accountId, now);
        await deps.appendInTx(tx, me.tenantId, {
          kind: 'policy_change',
          version: p.version,
          policy: doc,
          by_account_id: me.accountId,
        });
        return p;
      });
      return { version: saved.version, ...saved.document, updated_at: now.toISOString() };
    },
  );

  app.put(
    '/api/v1/agents/:agent_key/scope',
    {
      config: { auth: 'account', roles: EDITORS, write: true },
      schema: {
        tags,
        summary:
          'Set the tools an agent may call (glob patterns); a call outside is denied and recorded as a rogue oos_tool event',
        security: bearer,
        params: Type.Object({ agent_key: ContentText({ minLength: 1, maxLength: 512 }) }),
        body: Type.Object({
          allowed_tools: Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
            maxItems: 500,
            uniqueItems: true,
          }),
        }),
        response: {
          200: Type.Object({
            agent_key: Type.String(),
            allowed_tools: Type.Array(Type.String()),
            updated_at: Timestamp,
          }),
          ...problems(400, 401, 402, 403, 422),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { agent_key } = req.params;
      const tools = req.body.allowed_tools;
      const now = ctx.now();
      await ctx.db.withTenant(me.tenantId, async (tx) => {
        const { before } = await saveAgentScope(tx, me.tenantId, agent_key, tools, me.accountId, now);
        await deps.appendInTx(tx, me.tenantId, {
          v: LEAF_VERSION,
          kind: 'scope_change',
          agent: await pseudonymInTx(tx, me.tenantId, 'agent', agent_key),
          allowed_tools: tools,
          previous_allowed_tools: before,
          by_account_id: me.accountId,
        });
      });
      return { agent_key, allowed_tools: tools, updated_at: now };
    },
  );
}
