// Each workspace's log served as C2SP tlog-tiles under
// /api/v1/audit/tlog/{tenant_id}/: checkpoint, tile/<L>/<N>[.p/<W>] and
// tile/entries/<N>[.p/<W>]. Readable with an API token of the workspace, like
// the other audit endpoints, or by anyone once an admin made the log public
// (its leaves hold commitments and counts, never text).

import { gunzipSync, gzipSync } from 'node:zlib';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { accountOf, bearer, problems, Uuid } from '../http/index.ts';
import { type AppContext, HttpProblem, notFound, unauthorized } from '../core/index.ts';
import { latestOrSignNow } from './audit-routes.ts';
import type { LedgerModule } from './ledger-module.ts';
import { buildTile, parseTilePath, readStoredTile, storeTile, TILE_WIDTH } from './tiles.ts';

const ADMINS = ['admin'] as const;
// Full and partial tiles never change once they exist: a year, immutable (as the spec suggests).
const IMMUTABLE = 'max-age=31536000, immutable';
// The checkpoint moves: "SHOULD prevent caching beyond a few seconds".
const CHECKPOINT_MAX_AGE = 'max-age=5';

export async function isPublicLog(ctx: AppContext, tenantId: string): Promise<boolean> {
  const rows = await ctx.readDb.withTenant(tenantId, (tx) =>
    tx.query<{ public: boolean }>('SELECT public FROM log_publication WHERE tenant_id = $1', [tenantId]),
  );
  return rows[0]?.public ?? false;
}

const tags = ['audit trail'];

export async function tileRoutes(fastify: FastifyInstance, ctx: AppContext, ledger: LedgerModule): Promise<void> {
  tlogRoutes(fastify, ctx, ledger);
  visibilityRoutes(fastify, ctx, ledger);
}

/** 'public' or 'private' (the cache scope), or throws: 401 without a token, 404 for another workspace's private log. */
async function access(ctx: AppContext, req: FastifyRequest, tenantId: string): Promise<'public' | 'private'> {
  const p = req.principal;
  // A member's request carries its token: 'private' keeps shared caches from storing it, public log or not.
  if (p?.kind === 'account' && p.tenantId === tenantId) return 'private';
  if (await isPublicLog(ctx, tenantId)) return 'public';
  if (p === null) throw unauthorized();
  throw notFound('No such log.'); // never reveal whether another workspace exists
}

/** The log as tlog-tiles: its checkpoint and its tiles. */
function tlogRoutes(fastify: FastifyInstance, ctx: AppContext, ledger: LedgerModule): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const params = Type.Object({ tenant_id: Uuid });

  app.get(
    '/api/v1/audit/tlog/:tenant_id/checkpoint',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'tlog-tiles: the latest checkpoint, with witness cosignatures',
        security: [...bearer, {}],
        params,
        produces: ['text/plain'],
        response: { 200: Type.String(), ...problems(401, 404) },
      },
    },
    async (req, reply) => {
      const scope = await access(ctx, req, req.params.tenant_id);
      const cp = await latestOrSignNow(ctx, ledger, req.params.tenant_id);
      return reply
        .header('cache-control', `${scope}, ${CHECKPOINT_MAX_AGE}`)
        .type('text/plain; charset=utf-8')
        .send(await ledger.cosigned(req.params.tenant_id, cp));
    },
  );

  app.get(
    '/api/v1/audit/tlog/:tenant_id/tile/*',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'tlog-tiles: a hash tile tile/<L>/<N>[.p/<W>] or an entry bundle tile/entries/<N>[.p/<W>]',
        description:
          'N is written in 3-digit groups, all but the last prefixed with x (1234067 → x001/x234/067). ' +
          'A full tile is 256 hashes (8,192 bytes); entry bundles are big-endian uint16 length-prefixed leaves.',
        security: [...bearer, {}],
        params: Type.Object({ tenant_id: Uuid, '*': Type.String({ maxLength: 64 }) }),
        produces: ['application/octet-stream'],
        response: { 200: Type.Unsafe({ type: 'string', format: 'binary' }), ...problems(401, 404) },
      },
    },
    async (req, reply) => sendTile(ctx, ledger, req, reply, req.params.tenant_id, req.params['*']),
  );
}

/** Whether the log is readable without a token, and making it so. */
function visibilityRoutes(fastify: FastifyInstance, ctx: AppContext, ledger: LedgerModule): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/v1/workspace/transparency-log',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'Whether this workspace log is readable as tiles without a token',
        security: bearer,
        response: { 200: Visibility, ...problems(401) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      return { public: await isPublicLog(ctx, me.tenantId), prefix: `/api/v1/audit/tlog/${me.tenantId}` };
    },
  );

  app.put(
    '/api/v1/workspace/transparency-log',
    {
      config: { auth: 'account', roles: ADMINS, write: true },
      schema: {
        tags,
        summary: 'Make this workspace log public (tiles and checkpoint readable by anyone) or private again',
        description: 'A change appends a `tlog_visibility` entry ({public, by_account_id}) to the audit trail.',
        security: bearer,
        body: Type.Object({ public: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: Visibility, ...problems(401, 403, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      await ctx.db.withTenant(me.tenantId, async (tx) => {
        const [before] = await tx.query<{ public: boolean }>(
          'SELECT public FROM log_publication WHERE tenant_id = $1 FOR UPDATE',
          [me.tenantId],
        );
        if ((before?.public ?? false) === req.body.public) return;
        await tx.query(
          `INSERT INTO log_publication (tenant_id, public) VALUES ($1, $2)
           ON CONFLICT (tenant_id) DO UPDATE SET public = EXCLUDED.public, updated_at = now()`,
          [me.tenantId, req.body.public],
        );
        // Who opened the log to everyone, and when, is itself on the record.
        await ledger.appendInTx(
          tx,
          me.tenantId,
          [{ kind: 'tlog_visibility', public: req.body.public, by_account_id: me.accountId }],
          ctx.now(),
        );
      });
      return { public: req.body.public, prefix: `/api/v1/audit/tlog/${me.tenantId}` };
    },
  );
}

/**
 * A hash tile or an entry bundle: a full one stored on first read (entry
 * bundles gzipped), a partial one built each time; the level-0 tiles of
 * entries pruned from the database (LOG_KEEP_IN_DB_ENTRIES) read from the
 * published log and checked (log-archive.ts), never stored again.
 */
async function sendTile(
  ctx: AppContext,
  ledger: LedgerModule,
  req: FastifyRequest,
  reply: FastifyReply,
  tenantId: string,
  path: string,
) {
  const ref = parseTilePath(path);
  if (ref === undefined) throw notFound('Not a tile path.');
  const scope = await access(ctx, req, tenantId);
  const full = ref.width === TILE_WIDTH;
  const bundle = ref.kind === 'entries';
  // Full entry bundles are stored gzipped (what clients ask for); hash tiles as they are.
  let stored = full ? await ctx.readDb.withTenant(tenantId, (tx) => readStoredTile(tx, tenantId, ref)) : undefined;
  let data: Uint8Array | undefined = bundle ? undefined : stored;
  if (stored === undefined) {
    data = await ctx.db.withTenant(tenantId, async (tx) => {
      const built = await buildTile(tx, tenantId, ref).catch((err: unknown) => {
        if (err instanceof RangeError)
          throw new HttpProblem('internal_error', 'An entry is too large for an entry bundle.').withCause(err);
        throw err;
      });
      // Not in the database: pruned, when the archive has it (after the build, so a tile pruned meanwhile is found).
      if (built === undefined) return ledger.archive.tile(tx, tenantId, ref);
      if (full) {
        stored = bundle ? gzipSync(built) : built;
        await storeTile(tx, tenantId, ref, stored);
      }
      return built;
    });
    if (data === undefined) throw notFound('The log has no such tile yet.');
  }
  void reply.header('cache-control', `${scope}, ${IMMUTABLE}`).type('application/octet-stream');
  if (!bundle) return reply.send(toBuffer(data!));
  // Entry bundles SHOULD be compressed at the HTTP layer.
  void reply.header('vary', 'accept-encoding');
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    return reply.header('content-encoding', 'gzip').send(toBuffer(stored ?? gzipSync(data!)));
  }
  return reply.send(toBuffer(data ?? gunzipSync(stored!)));
}

const Visibility = Type.Object({
  public: Type.Boolean(),
  prefix: Type.String({ description: 'The tlog-tiles prefix of this log (append /checkpoint, /tile/…)' }),
});

function toBuffer(data: Uint8Array): Buffer {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}
