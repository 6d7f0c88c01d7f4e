import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { rateLimited } from './problem.ts';

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

export function limiter(
  app: FastifyInstance,
  name: string,
  max: number,
  windowSeconds: number,
  key: (req: FastifyRequest) => string,
): preHandlerAsyncHookHandler {
  return app.rateLimit({
    max,
    timeWindow: windowSeconds * 1000,
    keyGenerator: (req) => `${name}:${key(req)}`,
  }) as preHandlerAsyncHookHandler;
}
