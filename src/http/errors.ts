import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpProblem, badRequest, notFound } from './problem.ts';
import { validationProblem } from './validation.ts';

/** Maps Fastify's own errors (body parsing, limits) to documented problems. */
function fromFastify(err: FastifyError): HttpProblem | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest('The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpProblem(413, 'payload_too_large', 'The request body is larger than the documented limit.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new HttpProblem(415, 'unsupported_media_type', 'Send the body as application/json.');
    default:
      break;
  }
  if (err.message?.includes('prototype')) return badRequest('The request body is not acceptable JSON.');
  // Other 4xx errors Fastify raises itself carry safe messages.
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return new HttpProblem(status, status === 404 ? 'not_found' : 'bad_request', 'The request is not acceptable.');
  return null;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    let problem: HttpProblem;
    if (err instanceof HttpProblem) problem = err;
    else if (err.validation) problem = validationProblem(err.validation as never, err.validationContext);
    else {
      const mapped = fromFastify(err);
      if (mapped) problem = mapped;
      else {
        // Unexpected: log everything, tell the client nothing about internals.
        req.log.error({ err }, 'unhandled error');
        problem = new HttpProblem(500, 'internal_error', 'The request could not be completed; nothing was recorded.');
      }
    }
    if (problem.status >= 500 && err instanceof HttpProblem) req.log.error({ err }, problem.message);
    void reply
      .code(problem.status)
      .headers(problem.headers)
      .type('application/problem+json; charset=utf-8')
      .send(problem.body());
  });
  app.setNotFoundHandler((_req, reply) => {
    const p = notFound('No such endpoint.');
    void reply.code(404).type('application/problem+json; charset=utf-8').send(p.body());
  });
}
