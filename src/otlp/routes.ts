import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { secondsToUtcMidnight } from '../accounts/plans.ts';
import { pgErrorCode } from '../db/db.ts';
import type { AccountStatus } from '../core/identity.ts';
import { forbidden, HttpProblem, paymentRequired, rateLimited, serviceUnavailable, unauthorized } from '../core/problems.ts';
import { bearer } from '../http/schemas.ts';
import { ExportTraceServiceResponse, RpcStatus } from './proto.ts';
import { type OtlpDeps, recordExport } from './record.ts';
import { decodeJson, decodeProtobuf, type DecodedRequest, UndecodableBody } from './spans.ts';

/**
 * Largest export accepted, after decompression (the OTLP/HTTP spec recommends
 * limiting the decompressed size; 16 MiB holds a 512-span batch with every
 * content attribute at its 32,000-character cap, twice over).
 */
export const OTLP_BODY_LIMIT = 16 * 1024 * 1024;
/** Exports decoded and recorded at once per process; more are shed with 503 + Retry-After. */
export const MAX_CONCURRENT_EXPORTS = 16;
export const TRACES_PATH = '/api/v1/otel/v1/traces';
const TENANT_ATTRIBUTE = 'agent_ledger.tenant_id';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PROTOBUF = 'application/x-protobuf';
const WRITERS = ['admin', 'operator'] as const;

type Encoding = 'protobuf' | 'json';

declare module 'fastify' {
  interface FastifyRequest {
    otlpEncoding?: Encoding;
  }
}

const OtlpResponse = Type.Object(
  {
    partialSuccess: Type.Optional(
      Type.Object({
        rejectedSpans: Type.String({ description: 'int64, as a string (OTLP JSON)' }),
        errorMessage: Type.String(),
      }),
    ),
  },
  { description: 'ExportTraceServiceResponse, in the encoding of the request (protobuf bytes for application/x-protobuf)' },
);
const OtlpError = {
  description: 'application/x-protobuf requests: a google.rpc.Status (protobuf); application/json ones: problem details (application/problem+json)',
  ...Type.Ref('Problem'),
};

export async function otlpRoutes(fastify: FastifyInstance, deps: OtlpDeps): Promise<void> {
  let inFlight = 0;
  // Own scope: the OTLP body parsers, gzip and error answers apply to this route only.
  await fastify.register(async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(PROTOBUF, { parseAs: 'buffer', bodyLimit: OTLP_BODY_LIMIT }, (req, body, done) => {
      req.otlpEncoding = 'protobuf';
      done(null, body);
    });
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: OTLP_BODY_LIMIT }, (req, body, done) => {
      req.otlpEncoding = 'json';
      done(null, body);
    });
    app.addHook('onRequest', async (req) => {
      // Shed load before reading a byte of the body (clients retry 503).
      if (inFlight >= MAX_CONCURRENT_EXPORTS) {
        throw serviceUnavailable('Too many exports in progress; retry shortly.', 1);
      }
      inFlight++;
      let released = false;
      (req as { otlpRelease?: () => void }).otlpRelease = () => {
        if (!released) inFlight--;
        released = true;
      };
    });
    const release = async (req: FastifyRequest) => {
      (req as { otlpRelease?: () => void }).otlpRelease?.();
    };
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);
    app.addHook('preParsing', async (req, _reply, payload) => inflate(req, payload));
    app.setErrorHandler((err: FastifyError, req, reply) => sendError(err, req, reply));

    app.post(
      TRACES_PATH,
      {
        bodyLimit: OTLP_BODY_LIMIT,
        config: { auth: 'ingest', roles: WRITERS },
        schema: {
          tags: ['events'],
          summary: 'OTLP/HTTP trace export: GenAI spans become invocations',
          description:
            'Point an OpenTelemetry exporter here with `OTEL_EXPORTER_OTLP_ENDPOINT=<base>/api/v1/otel`. ' +
            'Bodies are `application/x-protobuf` or `application/json` ExportTraceServiceRequests, optionally `Content-Encoding: gzip` ' +
            `(at most ${OTLP_BODY_LIMIT} bytes once decompressed). Spans with GenAI, OpenInference, Vercel AI SDK or Traceloop attributes ` +
            'are recorded as invocations (same detection, policy and audit trail as JSON events); other spans are accepted and dropped; ' +
            'a span already recorded (same trace and span id) is accepted and not written again.',
          security: bearer,
          response: {
            200: OtlpResponse,
            ...Object.fromEntries([400, 401, 402, 403, 413, 415, 429, 500, 503].map((s) => [s, OtlpError])),
          },
        },
      },
      async (req, reply) => {
        const encoding = req.otlpEncoding ?? 'json';
        const decoded = encoding === 'protobuf' ? decodeProtobuf(req.body as Buffer) : decodeJson(req.body as Buffer);
        if (decoded.spans.length === 0) return send(reply, encoding, 200, responseOf(decoded.rejected, decoded.rejectReasons));
        const workspace = await workspaceFor(deps, req, decoded);
        const outcome = await recordExport(deps, workspace, decoded);
        if (outcome.quotaExhausted) {
          throw rateLimited(secondsToUtcMidnight(deps.ctx.now()), 'quota_exceeded', `The plan allows ${workspace.caps.invocations_per_day} invocations a day; the count resets at 00:00 UTC.`);
        }
        return send(reply, encoding, 200, responseOf(outcome.rejected, outcome.notes));
      },
    );
  });
}

/**
 * The workspace of an export: the token's own, or with the operator's
 * fallback token the resource attribute agent_ledger.tenant_id (one
 * workspace per export); then it must be active.
 */
async function workspaceFor(deps: OtlpDeps, req: FastifyRequest, decoded: DecodedRequest) {
  const p = req.principal;
  let tenantId: string;
  if (p?.kind === 'account' || p?.kind === 'ingress') tenantId = p.tenantId;
  else if (p?.kind === 'fallback') {
    const named = new Set(decoded.spans.map((s) => s.resource[TENANT_ATTRIBUTE]));
    const [only] = named;
    if (named.size !== 1 || typeof only !== 'string') {
      throw forbidden(`The fallback ingress token needs the resource attribute ${TENANT_ATTRIBUTE} (one workspace per export).`);
    }
    if (!UUID.test(only)) throw forbidden('Unknown workspace.');
    tenantId = only.toLowerCase();
  } else throw unauthorized();
  const plan = await deps.workspacePlan(tenantId);
  if (!plan) throw forbidden('Unknown workspace.');
  if (plan.status !== 'active') throw paymentRequired(plan.status as Exclude<AccountStatus, 'active'>);
  return { tenantId, caps: plan.caps, createdAt: plan.createdAt };
}

function responseOf(rejected: number, notes: readonly string[]) {
  if (rejected === 0 && notes.length === 0) return {};
  return { partialSuccess: { rejectedSpans: String(rejected), errorMessage: notes.join('; ') } };
}

function send(reply: FastifyReply, encoding: Encoding, status: number, body: { partialSuccess?: { rejectedSpans: string; errorMessage: string } }) {
  if (encoding === 'protobuf') {
    const bytes = ExportTraceServiceResponse.encode(ExportTraceServiceResponse.fromObject(body)).finish();
    return reply.code(status).type(PROTOBUF).send(Buffer.from(bytes));
  }
  return reply.code(status).type('application/json').send(JSON.stringify(body));
}

// ---- gzip -----------------------------------------------------------------

/**
 * A gzip body is inflated as it streams in, and the size limit applies to
 * what comes out: the parser stops reading (413) once OTLP_BODY_LIMIT
 * decompressed bytes have passed, so a small bomb never inflates further.
 */
function inflate(req: FastifyRequest, payload: NodeJS.ReadableStream & { receivedEncodedLength?: number }) {
  const enc = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (enc === 'identity' || enc === '') return payload;
  if (enc !== 'gzip' && enc !== 'x-gzip') {
    throw new HttpProblem('unsupported_media_type', 'Content-Encoding must be gzip or identity.');
  }
  const gunzip = createGunzip();
  const limiter = new Limit(OTLP_BODY_LIMIT);
  const out = limiter as Limit & { receivedEncodedLength: number };
  out.receivedEncodedLength = 0;
  // Fastify compares the bytes received with Content-Length: those are the compressed ones.
  payload.on('data', (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
  });
  payload.on('error', (err) => out.destroy(err));
  gunzip.on('error', (err) => out.destroy(Object.assign(err, { statusCode: 400 })));
  payload.pipe(gunzip).pipe(limiter);
  out.on('close', () => {
    gunzip.destroy();
  });
  return out;
}

/** Passes bytes through until the limit, then fails with 413 (and stops the inflater upstream). */
class Limit extends Transform {
  #seen = 0;
  readonly #max: number;
  constructor(max: number) {
    super();
    this.#max = max;
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.#seen += chunk.length;
    if (this.#seen > this.#max) {
      cb(new HttpProblem('payload_too_large', `The export is larger than ${this.#max} bytes once decompressed.`));
      return;
    }
    cb(null, chunk);
  }
}

// ---- errors ---------------------------------------------------------------

// HTTP status → gRPC code of the google.rpc.Status body.
const GRPC_CODES: Record<number, number> = { 400: 3, 401: 16, 402: 7, 403: 7, 404: 5, 413: 3, 415: 3, 429: 8, 500: 13, 503: 14 };
// PostgreSQL classes meaning "not now" rather than "never": connection
// exceptions, insufficient resources, operator intervention, serialization.
const TRANSIENT_PG = /^(08|53|57|40)/;

function problemOf(err: FastifyError): HttpProblem {
  if (err instanceof HttpProblem) return err;
  if (err instanceof UndecodableBody) return new HttpProblem('bad_request', err.message);
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new HttpProblem('payload_too_large', `The export is larger than ${OTLP_BODY_LIMIT} bytes.`);
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_INVALID_TYPE') {
    return new HttpProblem('unsupported_media_type', 'Send application/x-protobuf or application/json.');
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return new HttpProblem('bad_request', 'The body could not be read (bad gzip or length).');
  const pg = pgErrorCode(err);
  if ((pg !== undefined && TRANSIENT_PG.test(pg)) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'].includes(pg ?? '')) {
    return serviceUnavailable('The store is unavailable; nothing was recorded. Retry shortly.', 5);
  }
  return new HttpProblem('internal_error', 'The export could not be recorded; nothing was recorded.').withCause(err);
}

/**
 * A protobuf request gets a google.rpc.Status in protobuf, the only error
 * body an OTLP/protobuf client can read; a JSON one gets the service's
 * problem document (as every other endpoint). Status codes and Retry-After
 * follow the OTLP/HTTP spec either way.
 */
function sendError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const problem = problemOf(err);
  if (problem.status >= 500) req.log.error({ err }, problem.message);
  void reply.code(problem.status).headers(problem.headers);
  // The request's encoding; before the body was read, its declared type.
  const protobuf = req.otlpEncoding === 'protobuf' || (req.otlpEncoding === undefined && (req.headers['content-type'] ?? '').startsWith(PROTOBUF));
  if (protobuf) {
    const status = { code: GRPC_CODES[problem.status] ?? 2, message: problem.message };
    return reply.type(PROTOBUF).send(Buffer.from(RpcStatus.encode(RpcStatus.fromObject(status)).finish()));
  }
  return reply.type('application/problem+json; charset=utf-8').send(JSON.stringify(problem.body()));
}
