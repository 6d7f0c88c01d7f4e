import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpProblem, serviceUnavailable } from '../core/index.ts';
import { pgErrorCode } from '../db/index.ts';
import { ERROR_INFO_TYPE_URL, ErrorInfo, RpcStatus } from './proto.ts';
import { UndecodableBody } from './spans.ts';

// Error answers of the OTLP endpoint, as the OTLP/HTTP specification wants
// them: the status codes it names (400 not retried; 429/503 retried after
// Retry-After), and a google.rpc.Status body in the encoding of the request,
// the one error body every OTLP client can read. Its details carry a
// google.rpc.ErrorInfo whose reason is the problem code the JSON endpoints
// answer with, so nothing of the problem document is lost.

/** The error statuses the endpoint answers with (OpenAPI). */
export const OTLP_ERROR_CODES = [400, 401, 402, 403, 413, 415, 429, 500, 503] as const;
const PROTOBUF = 'application/x-protobuf';
const DOMAIN = 'agent-ledger';

// HTTP status → gRPC code of the google.rpc.Status body.
const GRPC_CODES: Record<number, number> = {
  400: 3,
  401: 16,
  402: 7,
  403: 7,
  404: 5,
  413: 3,
  415: 3,
  429: 8,
  500: 13,
  503: 14,
};
// PostgreSQL classes meaning "not now" rather than "never": connection
// exceptions, insufficient resources, operator intervention, serialization.
const TRANSIENT_PG = /^(08|53|57|40)/;

function problemOf(err: FastifyError, bodyLimit: number): HttpProblem {
  if (err instanceof HttpProblem) return err;
  if (err instanceof UndecodableBody) return new HttpProblem('bad_request', err.message);
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new HttpProblem('payload_too_large', `The export is larger than ${bodyLimit} bytes.`);
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_INVALID_TYPE') {
    return new HttpProblem('unsupported_media_type', 'Send application/x-protobuf or application/json.');
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return new HttpProblem('bad_request', 'The body could not be read (bad gzip or length).');
  const pg = pgErrorCode(err);
  if ((pg !== undefined && TRANSIENT_PG.test(pg)) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'].includes(pg ?? '')) {
    return serviceUnavailable(
      'The store is unavailable; send the export again shortly (spans already recorded are not recorded twice).',
      5,
    );
  }
  return new HttpProblem(
    'internal_error',
    'The export could not be recorded in full (spans already recorded are not recorded twice when it is sent again).',
  ).withCause(err);
}

/** The google.rpc.Status of a problem, as plain data (the JSON form). */
export function statusOf(problem: HttpProblem) {
  return {
    code: GRPC_CODES[problem.status] ?? 2,
    message: problem.message,
    details: [{ '@type': ERROR_INFO_TYPE_URL, reason: problem.code, domain: DOMAIN }],
  };
}

/** The same Status as protobuf bytes: the ErrorInfo packed in a google.protobuf.Any. */
export function statusBytes(problem: HttpProblem): Buffer {
  const { code, message } = statusOf(problem);
  const info = ErrorInfo.encode(ErrorInfo.fromObject({ reason: problem.code, domain: DOMAIN })).finish();
  const status = RpcStatus.fromObject({ code, message, details: [{ type_url: ERROR_INFO_TYPE_URL, value: info }] });
  return Buffer.from(RpcStatus.encode(status).finish());
}

/** Answers an error in the request's encoding; before the body was read, in its declared type's. */
export function sendError(
  err: FastifyError,
  req: FastifyRequest & { otlpEncoding?: 'protobuf' | 'json' },
  reply: FastifyReply,
  bodyLimit: number,
) {
  const problem = problemOf(err, bodyLimit);
  if (problem.status >= 500) req.log.error({ err }, problem.message);
  void reply.code(problem.status).headers(problem.headers);
  const protobuf =
    req.otlpEncoding === 'protobuf' ||
    (req.otlpEncoding === undefined && (req.headers['content-type'] ?? '').startsWith(PROTOBUF));
  if (protobuf) return reply.type(PROTOBUF).send(statusBytes(problem));
  return reply.type('application/json').send(JSON.stringify(statusOf(problem)));
}
