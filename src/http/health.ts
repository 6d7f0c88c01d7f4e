import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type AppContext, notFound, serviceUnavailable, unauthorized } from '../core/index.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest();

export function registerHealth(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    try {
      await withTimeout(ctx.db.ping(), 2000);
    } catch {
      throw serviceUnavailable('The database is not reachable.');
    }
    return { status: 'ready' };
  });
  // /metrics shows every workspace's request counts together: it answers only
  // to the METRICS_TOKEN (compared in constant time), and is off without one.
  const metricsToken = ctx.config.metricsToken === undefined ? undefined : sha256(ctx.config.metricsToken);
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (metricsToken === undefined) throw notFound('No such endpoint.');
    const m = /^[Bb][Ee][Aa][Rr][Ee][Rr] +([\x21-\x7e]{1,512})$/.exec(req.headers.authorization ?? '');
    if (!m || !timingSafeEqual(sha256(m[1]!), metricsToken))
      throw unauthorized('GET /metrics needs the METRICS_TOKEN as a bearer token.');
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
