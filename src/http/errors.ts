import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refusedWholeBody, unsupportedMediaType } from './json-body.ts';
import { badRequest, HttpProblem, internalError, invalidJson, notFound } from '../core/index.ts';
import { validationProblem } from './validation.ts';

// Every error this service answers is a problem document (RFC 9457) with a
// `code`: the route's own, Fastify's (body parsing, limits, router) and Node's
// (malformed HTTP, oversized headers). None echoes the request back: Fastify's
// own messages quote the URL or the media type, so they are replaced here.

const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/** Maps Fastify's own errors (body parsing, limits) to documented problems. */
function fromFastify(err: FastifyError, req: FastifyRequest): HttpProblem | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalidJson();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest('The Content-Length header does not match the body.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpProblem('payload_too_large', 'The request body is larger than the documented limit.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return unsupportedMediaType(req.routeOptions.config.accepts);
    default:
      break;
  }
  // Other 4xx errors Fastify raises itself: their messages may quote input.
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return new HttpProblem(status === 404 ? 'not_found' : 'bad_request', 'The request is not acceptable.', { status });
  return null;
}

/** Errors the router raises before a route is known (Fastify's `frameworkErrors`). */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  let problem: HttpProblem;
  if (err.code === 'FST_ERR_BAD_URL')
    problem = new HttpProblem('invalid_url', 'The request URL is not valid: it holds a malformed percent-encoding.');
  else if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    problem = new HttpProblem(
      'uri_too_long',
      'A path segment of the request URL is longer than any this service accepts.',
    );
  else problem = internalError();
  void reply.code(problem.status).type(PROBLEM_TYPE).send(problem.body());
}

/**
 * Node's `clientError`: a request Node could not parse (malformed HTTP, a
 * request line or headers over the 16 KB limit, a timeout). No request object
 * exists; the answer is written to the socket, which is then closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let problem: HttpProblem;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    problem = new HttpProblem('request_timeout', 'The request was not received in time.');
  else if (err.code === 'HPE_HEADER_OVERFLOW') {
    problem = new HttpProblem('headers_too_large', 'The request line and headers together are larger than 16 KB.');
  } else problem = new HttpProblem('bad_request', 'The request is not valid HTTP/1.1.');
  const body = JSON.stringify(problem.body());
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(
      `HTTP/1.1 ${problem.status} ${problem.body().title}\r\nContent-Type: ${PROBLEM_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    let problem: HttpProblem;
    if (err instanceof HttpProblem) problem = err;
    else if (err.validation) problem = validationProblem(err.validation as never, err.validationContext);
    else {
      const mapped = fromFastify(err, req);
      if (mapped) problem = mapped;
      else {
        // Unexpected: log everything, tell the client nothing about internals.
        req.log.error({ err }, 'unhandled error');
        problem = internalError();
      }
    }
    if (problem.status >= 500 && err instanceof HttpProblem) req.log.error({ err }, problem.message);
    if (refusedWholeBody(err)) void reply.removeHeader('connection');
    void reply.code(problem.status).headers(problem.headers).type(PROBLEM_TYPE).send(problem.body());
  });
  app.setNotFoundHandler((_req, reply) => {
    const p = notFound('No such endpoint.');
    void reply.code(404).type(PROBLEM_TYPE).send(p.body());
  });
}
