import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, HttpProblem, invalidJson } from '../core/index.ts';

// Request bodies are I-JSON (RFC 7493): UTF-8 without invalid bytes, objects
// without duplicate keys. An audit record must not be ambiguous, so a body that
// different JSON parsers would read differently (the first or the last of two
// "mode" keys; a replacement character for a broken byte) is refused, not
// guessed at. Keys that can poison prototypes are refused with the reason.

/** The media types a route accepts unless its config names others (`accepts`). */
export const JSON_MEDIA_TYPES: readonly string[] = ['application/json'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Media types this route's body may have (named in its 415); default JSON_MEDIA_TYPES. */
    accepts?: readonly string[];
  }
}

export function unsupportedMediaType(accepted: readonly string[] = JSON_MEDIA_TYPES): HttpProblem {
  return new HttpProblem(
    'unsupported_media_type',
    `The request body must be sent as ${accepted.join(' or ')}${accepted.includes('application/json') ? ' (UTF-8)' : ''}.`,
    { extra: { accepted_types: [...accepted] } },
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Parses a JSON body under the I-JSON rules; throws the problem to answer. */
export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) throw badRequest('The request body is empty; send a JSON object.');
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new HttpProblem(
      'invalid_utf8',
      'The request body is not valid UTF-8. JSON bodies must be UTF-8 without invalid bytes (RFC 7493, I-JSON); nothing was recorded.',
    );
  }
  let value: unknown;
  // A syntax error's stack is never used; capturing it was most of the CPU of refusing a malformed body.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidJson();
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  if (value !== null && typeof value === 'object') checkKeys(text);
  return value;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

/**
 * Walks the text of a JSON value already known to be valid and refuses an
 * object that holds a key twice or a key named __proto__/constructor. One pass;
 * strings are skipped with indexOf, so a 2 MiB body costs a few milliseconds.
 */
function checkKeys(text: string): void {
  const stack: Array<Set<string> | null> = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Find the closing quote: one not preceded by an odd run of backslashes.
      let j = text.indexOf('"', i + 1);
      for (;;) {
        let b = j - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        if ((j - 1 - b) % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      const top = stack[stack.length - 1];
      if (top) {
        let k = j + 1;
        while (isSpace(text.charCodeAt(k))) k++;
        if (text.charCodeAt(k) === 0x3a) {
          const raw = text.slice(i + 1, j);
          const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
          if (FORBIDDEN_KEYS.has(key)) {
            throw new HttpProblem(
              'forbidden_key',
              `The request body holds a "${key}" key. Keys named __proto__ or constructor are refused anywhere in a body: they can change the prototype of objects built from it (prototype poisoning), and no field of this API has that name.`,
            );
          }
          if (top.has(key)) {
            throw new HttpProblem(
              'duplicate_key',
              'An object in the request body holds the same key twice. Duplicate keys are refused (RFC 7493, I-JSON): parsers disagree on which one counts, and an audit record must not be ambiguous.',
            );
          }
          top.add(key);
        }
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b) stack.push(new Set());
    else if (c === 0x5b) stack.push(null);
    else if (c === 0x7d || c === 0x5d) stack.pop();
    i++;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m?.[1]?.toLowerCase();
}

/**
 * Replaces Fastify's body parsers with one: JSON, under the rules above. Every
 * other media type (text/plain included, which Fastify would hand over as a
 * string) gets 415 naming what the route accepts.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req: FastifyRequest, body: Buffer, done) => {
    const charset = charsetOf(req.headers['content-type'] ?? '');
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(readToTheEnd(unsupportedMediaType(req.routeOptions.config.accepts)), undefined);
      return;
    }
    try {
      done(null, parseJsonBody(body));
    } catch (err) {
      done(readToTheEnd(err as Error), undefined);
    }
  });
}

/**
 * Refusals of a body this parser was given whole (parseAs 'buffer': every
 * byte the framing announced was read). Fastify closes the connection after
 * any parser error, for a body it may not have read; after these the next
 * request on it is where it should be, so the connection is kept
 * (errors.ts): a client with a bug in its JSON does not also reconnect for
 * every request.
 */
const readWhole = new WeakSet<Error>();

function readToTheEnd(err: Error): Error {
  readWhole.add(err);
  return err;
}

/** Whether `err` refused a body read to its end (its connection may carry the next request). */
export function refusedWholeBody(err: unknown): boolean {
  return err instanceof Error && readWhole.has(err);
}
