import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { type AuthServices, registerAuth } from './auth.ts';
import type { AppContext } from '../core/index.ts';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './errors.ts';
import { registerHealth } from './health.ts';
import { registerJsonBody } from './json-body.ts';
import { ProblemSchema } from './schemas.ts';
import { validationProblem, validatorCompiler } from './validation.ts';

/**
 * The largest accepted request body. Six text fields of 32,000 code points,
 * each up to 4 UTF-8 bytes (or a 6-byte \u escape), plus metadata, fit in 2 MiB.
 */
export const BODY_LIMIT = 2 * 1024 * 1024;

/**
 * The longest path segment the router takes, before percent-decoding. Path
 * parameters take what bodies take: an agent_key of 512 code points, each up
 * to 4 UTF-8 bytes written as %XX, is 6,144 characters. Longer → 414; the
 * route's schema bounds the decoded value.
 */
export const MAX_PARAM_LENGTH = 8192;

export interface AppModules {
  /** The process's logger (logger.ts): the app logs through it. */
  logger: FastifyBaseLogger;
  auth: AuthServices;
  /** Each module registers its routes; they run in this order. */
  routes: Array<(app: FastifyInstance) => void | Promise<void>>;
}

export async function buildApp(ctx: AppContext, modules: AppModules): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: modules.logger,
    bodyLimit: BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
    trustProxy: ctx.config.trustProxy,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
    // The problem itself, not Fastify's Error (with a stack and a message listing every failure) turned into one later.
    schemaErrorFormatter: (errors, context) => validationProblem(errors as never, context),
    // The whole request (headers and body) must arrive within this: a slow
    // upload is answered 408 and closed, releasing what it held. Node reads
    // these at construction (headers' deadline no later than the request's)
    // and checks them every connectionsCheckingInterval.
    requestTimeout: ctx.config.requestTimeoutMs,
    http: {
      requestTimeout: ctx.config.requestTimeoutMs,
      headersTimeout: Math.min(60_000, ctx.config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(ctx.config.requestTimeoutMs / 4))),
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: { customOptions: {} },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ProblemSchema);
  registerErrorHandling(app);
  registerJsonBody(app);

  // The hooks every request runs are written with `done`, not async: an async
  // hook costs a promise and a turn of the microtask queue per request, on
  // the path of every answer.
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header('x-request-id', req.id);
    done();
  });
  // Closing waits for every open connection. A keep-alive connection whose
  // request was in flight at close time would otherwise stay open after its
  // answer and hold the shutdown until the force-exit timer: answer it with
  // `Connection: close` instead.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    ctx.metrics.httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    ctx.metrics.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    done();
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'agent-ledger',
        version: '1',
        description: 'Signed, tamper-evident audit trail of what AI agents do.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: '__Host-al_session',
            description:
              'The console session (see POST /api/v1/console/session); writes also need the x-csrf-token header.',
          },
        },
      },
    },
  });
  await app.register(scalar, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerAuth(app, modules.auth);
  registerHealth(app, ctx);
  for (const register of modules.routes) await register(app);
  return app;
}
