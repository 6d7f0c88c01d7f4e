import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { accountOf, bearer, problems } from '../http/index.ts';
import { READERS } from './access.ts';
import { checkRange, checkText, decodeTimeKey, timePage } from './cursor.ts';
import type { ReviewModuleDeps } from './deps.ts';
import { listRogueEvents, rogueView } from './rogue-queries.ts';
import { RoguePage, RogueQuery } from './schemas.ts';

export async function rogueRoutes(fastify: FastifyInstance, deps: ReviewModuleDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/api/v1/rogue-events',
    {
      config: { auth: 'account', roles: READERS },
      schema: {
        tags: ['read side'],
        summary: 'Rogue events of the workspace, newest first, with filters',
        description: 'Keyset paging: pass next_cursor back as cursor.',
        security: bearer,
        querystring: RogueQuery,
        response: { 200: RoguePage, ...problems(401, 403, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const { limit, cursor, ...filters } = req.query;
      checkText(filters, ['agent_key', 'event_type']);
      checkRange(filters.since, filters.until);
      const after = decodeTimeKey(cursor);
      const rows = await ctx.readDb.withTenant(me.tenantId, (tx) =>
        listRogueEvents(tx, me.tenantId, filters, after, limit),
      );
      const p = timePage(rows, limit, (r) => r.rogue_event_id);
      return { items: p.items.map(rogueView), next_cursor: p.next_cursor };
    },
  );
}
