import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { HttpProblem, notFound, unprocessable } from '../core/index.ts';
import { isKnownPiiType } from '../detect/index.ts';
import { checkRules } from '../policy/index.ts';
import { accountOf, bearer, ContentText, problems } from '../http/index.ts';
import { commitment, encodeLeaf, LEAF_VERSION, newSalt, pseudonymInTx } from '../ledger/index.ts';
import type { PersonasDeps } from './deps.ts';
import {
  AgentPersonaBody,
  AgentPersonaView,
  PersonaBody,
  PersonaIdParams,
  PersonaList,
  PersonaView,
} from './schema.ts';
import {
  assignPersona,
  deletePersona,
  getPersona,
  insertPersona,
  listPersonas,
  type PersonaFields,
  type PersonaRow,
  updatePersona,
} from './store.ts';

/** Admins write personas; every role reads them (auditors included). */
const WRITERS = ['admin'] as const;
const READERS = ['admin', 'operator', 'viewer', 'auditor'] as const;

type Body = {
  name: string;
  description?: string | undefined;
  allowed_tools?: string[] | null | undefined;
  allowed_pii_types?: string[] | null | undefined;
  overrides?: PersonaFields['overrides'] | undefined;
  rubric?: string | undefined;
};

function fieldsOf(b: Body): PersonaFields {
  const overrides = b.overrides ?? [];
  checkRules(overrides, '/overrides');
  // A type no detector emits would never match a finding: refused, named, rather than stored and silently ignored.
  (b.allowed_pii_types ?? []).forEach((type, i) => {
    if (!isKnownPiiType(type)) {
      throw unprocessable(
        `Unknown PII type ${type}: allowed_pii_types takes the detectors' types (e.g. EMAIL_ADDRESS, CREDIT_CARD).`,
        [{ field: `/allowed_pii_types/${i}`, message: `${type} is not a PII type the detectors emit` }],
      );
    }
  });
  return {
    name: b.name,
    description: b.description ?? '',
    allowed_tools: b.allowed_tools ?? null,
    allowed_pii_types: b.allowed_pii_types ?? null,
    overrides,
    rubric: b.rubric ?? '',
  };
}

export function view(p: PersonaRow) {
  return {
    persona_id: p.persona_id,
    version: p.version,
    name: p.name,
    description: p.description,
    allowed_tools: p.allowed_tools,
    allowed_pii_types: p.allowed_pii_types,
    overrides: p.overrides,
    rubric: p.rubric,
    created_at: new Date(p.created_at).toISOString(),
    updated_at: new Date(p.updated_at).toISOString(),
  };
}

/**
 * The leaf's commitment to a persona as stored (leaf format v2): its name,
 * texts and lists are an admin's free-form values, so the log holds only
 * commitment(meta_salt, RFC 8785 JSON of them); the row keeps the salt.
 */
export function personaCommitment(salt: Uint8Array, p: PersonaFields & { version: number }): string {
  const { name, description, allowed_tools, allowed_pii_types, overrides, rubric, version } = p;
  return commitment(
    salt,
    encodeLeaf({ name, description, allowed_tools, allowed_pii_types, overrides, rubric, version }),
  );
}

export async function personaRoutes(fastify: FastifyInstance, deps: PersonasDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['personas'];

  app.post(
    '/api/v1/personas',
    {
      config: { auth: 'account', roles: WRITERS, write: true },
      schema: {
        tags,
        summary: "Create a persona (admin); 402 plan_limit at the plan's personas_cap",
        description: 'Appends a `persona_change` leaf (action `created`) committing to the persona.',
        security: bearer,
        body: PersonaBody,
        response: { 201: PersonaView, ...problems(400, 401, 402, 403, 422) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const f = fieldsOf(req.body);
      const plan = await deps.workspacePlan(me.tenantId);
      const cap = plan?.caps.personas ?? 0;
      const now = ctx.now();
      const salt = newSalt();
      const row = await ctx.db.withTenant(me.tenantId, async (tx) => {
        const p = await insertPersona(tx, me.tenantId, f, cap, salt, me.accountId, now);
        if (!p) return null;
        await deps.appendInTx(tx, me.tenantId, {
          v: LEAF_VERSION,
          kind: 'persona_change',
          action: 'created',
          persona_id: p.persona_id,
          version: p.version,
          meta: personaCommitment(salt, { ...f, version: p.version }),
          by_account_id: me.accountId,
        });
        return p;
      });
      if (!row)
        throw new HttpProblem(
          'plan_limit',
          `The plan allows ${cap} personas; upgrade or delete one to create another.`,
        );
      return reply.code(201).send(view(row));
    },
  );

  app.get(
    '/api/v1/personas',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags,
        summary: "The workspace's personas (every role)",
        security: bearer,
        response: { 200: PersonaList, ...problems(401, 403) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const rows = await ctx.readDb.withTenant(me.tenantId, (tx) => listPersonas(tx, me.tenantId));
      return { personas: rows.map(view) };
    },
  );

  app.get(
    '/api/v1/personas/:persona_id',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags,
        summary: 'One persona (every role)',
        security: bearer,
        params: PersonaIdParams,
        response: { 200: PersonaView, ...problems(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const row = await ctx.readDb.withTenant(me.tenantId, (tx) => getPersona(tx, me.tenantId, req.params.persona_id));
      if (!row) throw notFound('No such persona in this workspace.');
      return view(row);
    },
  );

  app.put(
    '/api/v1/personas/:persona_id',
    {
      config: { auth: 'account', roles: WRITERS, write: true },
      schema: {
        tags,
        summary: 'Replace a persona (admin); its version moves and it decides its agents’ next events',
        description: 'Appends a `persona_change` leaf (action `updated`) committing to the new persona.',
        security: bearer,
        params: PersonaIdParams,
        body: PersonaBody,
        response: { 200: PersonaView, ...problems(400, 401, 402, 403, 404, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const f = fieldsOf(req.body);
      const now = ctx.now();
      const salt = newSalt();
      const row = await ctx.db.withTenant(me.tenantId, async (tx) => {
        const p = await updatePersona(tx, me.tenantId, req.params.persona_id, f, salt, me.accountId, now);
        if (!p) return null;
        await deps.appendInTx(tx, me.tenantId, {
          v: LEAF_VERSION,
          kind: 'persona_change',
          action: 'updated',
          persona_id: p.persona_id,
          version: p.version,
          meta: personaCommitment(salt, { ...f, version: p.version }),
          by_account_id: me.accountId,
        });
        return p;
      });
      if (!row) throw notFound('No such persona in this workspace.');
      return view(row);
    },
  );

  app.delete(
    '/api/v1/personas/:persona_id',
    {
      config: { auth: 'account', roles: WRITERS, write: true },
      schema: {
        tags,
        summary: 'Delete a persona (admin); its agents are left without one',
        description: 'Appends a `persona_change` leaf (action `deleted`).',
        security: bearer,
        params: PersonaIdParams,
        response: { 204: Type.Null(), ...problems(400, 401, 402, 403, 404) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const deleted = await ctx.db.withTenant(me.tenantId, async (tx) => {
        const version = await deletePersona(tx, me.tenantId, req.params.persona_id);
        if (version === null) return false;
        await deps.appendInTx(tx, me.tenantId, {
          v: LEAF_VERSION,
          kind: 'persona_change',
          action: 'deleted',
          persona_id: req.params.persona_id,
          version,
          by_account_id: me.accountId,
        });
        return true;
      });
      if (!deleted) throw notFound('No such persona in this workspace.');
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/v1/agents/:agent_key/persona',
    {
      config: { auth: 'account', roles: WRITERS, write: true },
      schema: {
        tags,
        summary: "Give an agent a persona (admin), or remove it with null; it decides the agent's next events",
        description: 'Appends a `persona_assignment` leaf naming the agent by its pseudonym.',
        security: bearer,
        params: Type.Object({ agent_key: ContentText({ minLength: 1, maxLength: 512 }) }),
        body: AgentPersonaBody,
        response: { 200: AgentPersonaView, ...problems(400, 401, 402, 403, 404, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { agent_key } = req.params;
      const personaId = req.body.persona_id;
      const now = ctx.now();
      const ok = await ctx.db.withTenant(me.tenantId, async (tx) => {
        if (personaId !== null && !(await getPersona(tx, me.tenantId, personaId))) return false;
        const { before } = await assignPersona(tx, me.tenantId, agent_key, personaId, me.accountId, now);
        await deps.appendInTx(tx, me.tenantId, {
          v: LEAF_VERSION,
          kind: 'persona_assignment',
          agent: await pseudonymInTx(tx, me.tenantId, 'agent', agent_key),
          persona_id: personaId,
          previous_persona_id: before,
          by_account_id: me.accountId,
        });
        return true;
      });
      if (!ok) throw notFound('No such persona in this workspace.');
      return { agent_key, persona_id: personaId, updated_at: now.toISOString() };
    },
  );
}
