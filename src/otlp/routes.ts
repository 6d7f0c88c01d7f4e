import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { secondsToUtcMidnight } from '../accounts/index.ts';
import { bearerToken, rateLimited, serviceUnavailable } from '../core/index.ts';
import { bearer, parseJsonBody } from '../http/index.ts';
import { guardedBody } from './body-stream.ts';
import { OTLP_ERROR_CODES, sendError } from './errors.ts';
import { ExportTraceServiceResponse } from './proto.ts';
import { type OtlpDeps, recordExport } from './record.ts';
import { decodeJson, decodeProtobuf, type DecodedRequest } from './spans.ts';

/**
 * Largest export accepted, after decompression (the OTLP/HTTP spec recommends
 * limiting the decompressed size; 16 MiB holds a 512-span batch with every
 * content attribute at its 32,000-character cap, twice over).
 */
export const OTLP_BODY_LIMIT = 16 * 1024 * 1024;
/** Exports decoded and recorded at once per process; more are shed with 503 + Retry-After. */
export const MAX_CONCURRENT_EXPORTS = 16;
/** Of those, what one workspace (or the operator's fallback token) may hold: a quarter. */
export const MAX_EXPORTS_PER_WORKSPACE = 4;
export const TRACES_PATH = '/api/v1/otel/v1/traces';
const TENANT_ATTRIBUTE = 'agent_ledger.tenant_id';
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
  {
    description:
      'ExportTraceServiceResponse, in the encoding of the request (protobuf bytes for application/x-protobuf)',
  },
);
const OtlpError = Type.Object(
  {
    code: Type.Integer({
      description:
        'gRPC status code (3 INVALID_ARGUMENT, 7 PERMISSION_DENIED, 8 RESOURCE_EXHAUSTED, 14 UNAVAILABLE, 16 UNAUTHENTICATED, …)',
    }),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          '@type': Type.Literal('type.googleapis.com/google.rpc.ErrorInfo'),
          reason: Type.String({
            description:
              'The problem code the JSON endpoints answer with (payment_required, quota_exceeded, duplicate_key, …)',
          }),
          domain: Type.Literal('agent-ledger'),
        }),
      ),
    ),
  },
  {
    description:
      'google.rpc.Status, as the OTLP/HTTP specification requires, in the encoding of the request: protobuf bytes for application/x-protobuf, ' +
      'JSON (shown here) for application/json. Retry-After comes with 429 and 503.',
  },
);

export async function otlpRoutes(fastify: FastifyInstance, deps: OtlpDeps): Promise<void> {
  let inFlight = 0;
  const perHolder = new Map<string, number>();
  // Own scope: the OTLP body parsers, gzip and error answers apply to this route only.
  await fastify.register(async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(PROTOBUF, { parseAs: 'buffer', bodyLimit: OTLP_BODY_LIMIT }, (req, body, done) => {
      req.otlpEncoding = 'protobuf';
      done(null, body);
    });
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: OTLP_BODY_LIMIT },
      (req, body: Buffer, done) => {
        req.otlpEncoding = 'json';
        // The service's body rules (I-JSON, no prototype keys), as on every JSON endpoint.
        try {
          done(null, parseJsonBody(body));
        } catch (err) {
          done(err as Error, undefined);
        }
      },
    );
    app.addHook('onRequest', async (req) => {
      // Shed load before reading a byte of the body (clients retry 503). The
      // request is authenticated by now (the auth hook runs first), so a slot
      // is held by a known workspace, which may hold only its share: one
      // workspace's slow uploads cannot take every slot.
      const holder = slotHolder(req);
      const held = perHolder.get(holder) ?? 0;
      if (inFlight >= MAX_CONCURRENT_EXPORTS || held >= MAX_EXPORTS_PER_WORKSPACE) {
        throw serviceUnavailable('Too many exports in progress; retry shortly.', 1);
      }
      inFlight++;
      perHolder.set(holder, held + 1);
      let released = false;
      (req as { otlpRelease?: () => void }).otlpRelease = () => {
        if (released) return;
        released = true;
        inFlight--;
        const left = (perHolder.get(holder) ?? 1) - 1;
        if (left > 0) perHolder.set(holder, left);
        else perHolder.delete(holder);
      };
    });
    const release = async (req: FastifyRequest) => {
      (req as { otlpRelease?: () => void }).otlpRelease?.();
    };
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);
    app.addHook('preParsing', async (req, _reply, payload) => guardedBody(req, payload, OTLP_BODY_LIMIT));
    app.setErrorHandler((err: FastifyError, req, reply) => sendError(err, req, reply, OTLP_BODY_LIMIT));

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
            ...Object.fromEntries(OTLP_ERROR_CODES.map((s) => [s, OtlpError])),
          },
        },
      },
      async (req, reply) => {
        const encoding = req.otlpEncoding ?? 'json';
        const decoded = encoding === 'protobuf' ? decodeProtobuf(req.body as Buffer) : decodeJson(req.body);
        if (decoded.spans.length === 0)
          return send(reply, encoding, 200, responseOf(decoded.rejected, decoded.rejectReasons));
        const workspace = await workspaceFor(deps, req, decoded);
        const outcome = await recordExport(deps, workspace, decoded);
        if (outcome.quotaExhausted) {
          throw rateLimited(
            secondsToUtcMidnight(deps.ctx.now()),
            'quota_exceeded',
            `The plan allows ${workspace.caps.invocations_per_day} invocations a day; the count resets at 00:00 UTC.`,
          );
        }
        return send(reply, encoding, 200, responseOf(outcome.rejected, outcome.notes));
      },
    );
  });
}

/** Who holds an export slot: the token's workspace; the fallback token's exports (any workspace) share one holder. */
function slotHolder(req: FastifyRequest): string {
  const p = req.principal;
  if (p?.kind === 'account' || p?.kind === 'ingress') return p.tenantId;
  return p?.kind ?? 'anonymous';
}

/**
 * The workspace of an export, authorized as every event is (ingest's event
 * authorizer): the token's own, or with the operator's fallback token the
 * resource attribute agent_ledger.tenant_id (one workspace per export).
 */
function workspaceFor(deps: OtlpDeps, req: FastifyRequest, decoded: DecodedRequest) {
  return deps.authorizeEvents(req, bearerToken(req.headers.authorization), {
    named() {
      const named = new Set(decoded.spans.map((s) => s.resource[TENANT_ATTRIBUTE]));
      return named.size === 1 ? [...named][0] : undefined;
    },
    missing: `The fallback ingress token needs the resource attribute ${TENANT_ATTRIBUTE} (one workspace per export).`,
  });
}

function responseOf(rejected: number, notes: readonly string[]) {
  if (rejected === 0 && notes.length === 0) return {};
  return { partialSuccess: { rejectedSpans: String(rejected), errorMessage: notes.join('; ') } };
}

function send(
  reply: FastifyReply,
  encoding: Encoding,
  status: number,
  body: { partialSuccess?: { rejectedSpans: string; errorMessage: string } },
) {
  if (encoding === 'protobuf') {
    const bytes = ExportTraceServiceResponse.encode(ExportTraceServiceResponse.fromObject(body)).finish();
    return reply.code(status).type(PROTOBUF).send(Buffer.from(bytes));
  }
  return reply.code(status).type('application/json').send(JSON.stringify(body));
}
