import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { accountOf, bearer, problems } from '../http/index.ts';
import { type AppContext, notFound, unprocessable } from '../core/index.ts';
import { encodeBase64 } from './bytes.ts';
import { latestCheckpoint, type StoredCheckpoint } from './checkpoints.ts';
import type { LedgerModule } from './ledger-module.ts';
import { evidenceIndex } from './evidence.ts';
import { readHead } from './log-store.ts';
import { consistencyNeeds, consistencyProof, inclusionNeeds, inclusionProof } from './merkle.ts';

/** Most entries one range request returns. */
export const MAX_ENTRY_RANGE = 1000;

const Entry = Type.Object({
  index: Type.Integer(),
  leaf: Type.String({ description: 'The exact canonical JSON that was hashed' }),
  leaf_hash: Type.String({ description: 'base64 SHA-256(0x00 ‖ leaf)' }),
});
const Index = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Size = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

const tags = ['audit trail'];
const config = { auth: 'account' as const };

export async function auditRoutes(fastify: FastifyInstance, ctx: AppContext, ledger: LedgerModule): Promise<void> {
  checkpointRoutes(fastify, ctx, ledger);
  entryRoutes(fastify, ctx, ledger);
  proofRoutes(fastify, ctx, ledger);
  evidenceRoute(fastify, ctx, ledger);
}

/** The size of the workspace's latest signed checkpoint (0 before the first). */
async function signedSize(ctx: AppContext, tenantId: string): Promise<number> {
  const cp = await ctx.readDb.withTenant(tenantId, (tx) => latestCheckpoint(tx, tenantId));
  return cp?.size ?? 0;
}

const entryView = (e: { index: number; leaf: string; leafHash: Uint8Array }) => ({
  index: e.index,
  leaf: e.leaf,
  leaf_hash: encodeBase64(e.leafHash),
});

/** The latest checkpoint and the key that signs it. */
function checkpointRoutes(fastify: FastifyInstance, ctx: AppContext, ledger: LedgerModule): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/v1/audit/checkpoint',
    {
      config,
      schema: {
        tags,
        summary: 'The latest signed checkpoint of the workspace log (C2SP signed note)',
        security: bearer,
        produces: ['text/plain'],
        response: { 200: Type.String(), ...problems(401) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const cp = await latestOrSignNow(ctx, ledger, me.tenantId);
      return reply.type('text/plain; charset=utf-8').send(await ledger.cosigned(me.tenantId, cp));
    },
  );

  app.get(
    '/api/v1/audit/key',
    {
      config,
      schema: {
        tags,
        summary: 'The note verifier key that signs this workspace log',
        security: bearer,
        response: {
          200: Type.Object({
            verifier_key: Type.String(),
            origin: Type.String(),
            previous_verifier_keys: Type.Array(Type.String(), {
              description: 'Rotated-out keys that signed older checkpoints',
            }),
          }),
          ...problems(401),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const [current, ...previous] = await ledger.verifierKeys(me.tenantId);
      return { verifier_key: current!, origin: ledger.origin(me.tenantId), previous_verifier_keys: previous };
    },
  );
}

/** One entry, or a range of them for full verification (entries pruned from the database: from the published tiles). */
function entryRoutes(fastify: FastifyInstance, ctx: AppContext, { archive }: LedgerModule): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/v1/audit/entries/:index',
    {
      config,
      schema: {
        tags,
        summary: 'One log entry',
        security: bearer,
        params: Type.Object({ index: Index }),
        response: { 200: Entry, ...problems(401, 404) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const i = req.params.index;
      const [e] = await ctx.readDb.withTenant(me.tenantId, (tx) => archive.readEntries(tx, me.tenantId, i, i + 1));
      if (!e) throw notFound('No entry at this index.');
      return entryView(e);
    },
  );

  app.get(
    '/api/v1/audit/entries',
    {
      config,
      schema: {
        tags,
        summary: `Entries [start, end), at most ${MAX_ENTRY_RANGE} per call, for full verification`,
        security: bearer,
        querystring: Type.Object({ start: Index, end: Index }),
        response: {
          200: Type.Object({ start: Type.Integer(), end: Type.Integer(), entries: Type.Array(Entry) }),
          ...problems(401, 422),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { start, end } = req.query;
      if (end <= start)
        throw unprocessable('end must be greater than start.', [
          { field: '/end', message: 'must be greater than start' },
        ]);
      if (end - start > MAX_ENTRY_RANGE) {
        throw unprocessable(`A range holds at most ${MAX_ENTRY_RANGE} entries.`, [
          { field: '/end', message: `must be at most start + ${MAX_ENTRY_RANGE}` },
        ]);
      }
      const entries = await ctx.readDb.withTenant(me.tenantId, (tx) =>
        archive.readEntries(tx, me.tenantId, start, end),
      );
      // The index after the last entry returned (entries may stop short of `end` at the log's tail).
      const last = entries.at(-1);
      return { start, end: last ? last.index + 1 : start, entries: entries.map(entryView) };
    },
  );
}

/** RFC 6962 proofs against a signed size (nodes inside pruned tiles: from the published tiles). */
function proofRoutes(fastify: FastifyInstance, ctx: AppContext, { archive }: LedgerModule): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/v1/audit/proof/inclusion',
    {
      config,
      schema: {
        tags,
        summary: 'RFC 6962 inclusion proof of an entry in the tree of a signed size',
        security: bearer,
        querystring: Type.Object({ index: Index, tree_size: Size }),
        response: {
          200: Type.Object({ index: Type.Integer(), tree_size: Type.Integer(), hashes: Type.Array(Type.String()) }),
          ...problems(401, 422),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { index, tree_size } = req.query;
      if (index >= tree_size)
        throw unprocessable('index must be below tree_size.', [
          { field: '/index', message: 'must be less than tree_size' },
        ]);
      if (tree_size > (await signedSize(ctx, me.tenantId))) {
        throw unprocessable('tree_size is larger than the latest checkpoint.', [
          { field: '/tree_size', message: 'must not exceed the latest checkpoint size' },
        ]);
      }
      const nodes = await ctx.readDb.withTenant(me.tenantId, (tx) =>
        archive.readNodes(tx, me.tenantId, inclusionNeeds(index, tree_size)),
      );
      return { index, tree_size, hashes: inclusionProof(index, tree_size, nodes).map(encodeBase64) };
    },
  );

  app.get(
    '/api/v1/audit/proof/consistency',
    {
      config,
      schema: {
        tags,
        summary: 'RFC 6962 consistency proof between two signed sizes',
        security: bearer,
        querystring: Type.Object({ first: Size, second: Size }),
        response: {
          200: Type.Object({ first: Type.Integer(), second: Type.Integer(), hashes: Type.Array(Type.String()) }),
          ...problems(401, 422),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { first, second } = req.query;
      if (first > second)
        throw unprocessable('first must not exceed second.', [{ field: '/first', message: 'must be at most second' }]);
      if (second > (await signedSize(ctx, me.tenantId))) {
        throw unprocessable('second is larger than the latest checkpoint.', [
          { field: '/second', message: 'must not exceed the latest checkpoint size' },
        ]);
      }
      const nodes = await ctx.readDb.withTenant(me.tenantId, (tx) =>
        archive.readNodes(tx, me.tenantId, consistencyNeeds(first, second)),
      );
      return { first, second, hashes: consistencyProof(first, second, nodes).map(encodeBase64) };
    },
  );
}

/** An entry with its inclusion proof, in one answer. */
function evidenceRoute(fastify: FastifyInstance, ctx: AppContext, ledger: LedgerModule): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/v1/audit/evidence/:evidence_id',
    {
      config,
      schema: {
        tags,
        summary: 'An entry with its inclusion proof against the returned checkpoint',
        description: 'evidence_id is the entry index + 1.',
        security: bearer,
        params: Type.Object({ evidence_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        response: {
          200: Type.Object({
            evidence_id: Type.Integer(),
            index: Type.Integer(),
            leaf: Type.String(),
            leaf_hash: Type.String(),
            checkpoint: Type.String(),
            inclusion: Type.Object({ tree_size: Type.Integer(), hashes: Type.Array(Type.String()) }),
          }),
          ...problems(401, 404),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const index = evidenceIndex(req.params.evidence_id);
      const [e] = await ctx.db.withTenant(me.tenantId, (tx) =>
        ledger.archive.readEntries(tx, me.tenantId, index, index + 1),
      );
      if (!e) throw notFound('No such evidence.');
      const cp = await latestOrSignNow(ctx, ledger, me.tenantId);
      const nodes = await ctx.db.withTenant(me.tenantId, (tx) =>
        ledger.archive.readNodes(tx, me.tenantId, inclusionNeeds(index, cp.size)),
      );
      return {
        evidence_id: req.params.evidence_id,
        ...entryView(e),
        checkpoint: await ledger.cosigned(me.tenantId, cp),
        inclusion: { tree_size: cp.size, hashes: inclusionProof(index, cp.size, nodes).map(encodeBase64) },
      };
    },
  );
}

/** The latest checkpoint, signing one now if the log grew since (on demand). */
export async function latestOrSignNow(
  ctx: AppContext,
  ledger: LedgerModule,
  tenantId: string,
): Promise<StoredCheckpoint> {
  return ctx.db.withTenant(tenantId, async (tx) => {
    const [cp, head] = await Promise.all([latestCheckpoint(tx, tenantId), readHead(tx, tenantId)]);
    if (cp && cp.size >= head.size) return cp;
    return ledger.signNow(tx, tenantId);
  });
}
