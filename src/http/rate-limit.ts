import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { rateLimited } from '../core/index.ts';

/**
 * Registers @fastify/rate-limit without a global limit. Limits live in memory
 * by default and in Redis when a URL is given, so several nodes share them.
 */
export async function registerRateLimits(app: FastifyInstance, redisUrl: string | undefined): Promise<void> {
  let redis: Redis | undefined;
  if (redisUrl) {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    app.addHook('onClose', async () => {
      await redis?.quit();
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis } : {}),
    nameSpace: 'agent-ledger-rl-',
    // A limiter outage must not take sign-up down with it.
    skipOnError: true,
    errorResponseBuilder: (_req, ctx) => rateLimited(ctx.ttl / 1000),
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
      'retry-after': true,
    },
  });
}

/**
 * A limit as a preHandler: over `max` requests per window for one key → 429
 * with Retry-After. Several limiters may guard one route (per address and per
 * e-mail): each is checked and counted. (`app.rateLimit()` handlers would not
 * do: the plugin runs only the first of them per request.)
 */
export function limiter(
  app: FastifyInstance,
  name: string,
  max: number,
  windowSeconds: number,
  key: (req: FastifyRequest) => string,
): preHandlerAsyncHookHandler {
  const check = app.createRateLimit({
    max,
    timeWindow: windowSeconds * 1000,
    keyGenerator: (req) => `${name}:${key(req)}`,
  });
  return async (req) => {
    const r = await check(req);
    if (!r.isAllowed && r.isExceeded) throw rateLimited(r.ttlInSeconds);
  };
}
