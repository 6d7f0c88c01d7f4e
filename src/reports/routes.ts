import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { accountOf, bearer, problems } from '../http/index.ts';
import { type AppContext, unprocessable } from '../core/index.ts';
import type { LedgerModule } from '../ledger/index.ts';
import { reportCsv } from './csv.ts';
import { reportPdf } from './pdf.ts';
import { buildReport } from './report.ts';

/** The longest period one report covers. */
const MAX_PERIOD_DAYS = 3660;

export async function reportRoutes(fastify: FastifyInstance, ctx: AppContext, ledger: LedgerModule): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/v1/reports/compliance',
    {
      config: { auth: 'account', roles: ['admin', 'auditor'] },
      schema: {
        tags: ['reports'],
        summary: 'Compliance report of a period, with the signed checkpoint that proves it',
        description:
          'Totals by agent, verdict, mode, rogue type, PII and secret type; review outcomes and open items; the policy versions in force; ' +
          'the log entry range of the period and a signed checkpoint. `agent-ledger verify --report FILE` (JSON) recounts it from the log. ' +
          'The period is [from, to).',
        security: bearer,
        querystring: Type.Object({
          from: Type.String({ format: 'date-time' }),
          to: Type.String({ format: 'date-time' }),
          format: Type.Optional(
            Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('pdf')], { default: 'json' }),
          ),
        }),
        produces: ['application/json', 'text/csv', 'application/pdf'],
        response: { ...problems(401, 403, 422) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const from = new Date(req.query.from);
      const to = new Date(req.query.to);
      if (!(to.getTime() > from.getTime())) {
        throw unprocessable('to must be after from.', [{ field: '/to', message: 'must be after from' }]);
      }
      if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * 86_400_000) {
        throw unprocessable(`A report covers at most ${MAX_PERIOD_DAYS} days.`, [
          { field: '/to', message: `must be within ${MAX_PERIOD_DAYS} days of from` },
        ]);
      }
      const report = await buildReport(ctx, ledger, me.tenantId, { from: from.toISOString(), to: to.toISOString() });
      const name = `compliance-${report.period.from.slice(0, 10)}-${report.period.to.slice(0, 10)}`;
      switch (req.query.format ?? 'json') {
        case 'csv':
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${name}.csv"`)
            .send(reportCsv(report));
        case 'pdf':
          return reply
            .type('application/pdf')
            .header('content-disposition', `attachment; filename="${name}.pdf"`)
            .send(await reportPdf(report));
        default:
          return reply.type('application/json; charset=utf-8').send(JSON.stringify(report));
      }
    },
  );
}
