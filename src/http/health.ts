import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { HttpProblem } from './problem.ts';

export function registerHealth(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    try {
      await withTimeout(ctx.db.ping(), 2000);
    } catch {
      throw new HttpProblem(503, 'service_unavailable', 'The database is not reachable.');
    }
    return { status: 'ready' };
  });
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    void reply.type(ctx.metrics.registry.contentType);
    return ctx.metrics.registry.metrics();
  });
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
