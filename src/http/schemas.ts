import { Type } from 'typebox';
import { TEXT_RULE } from './validation.ts';

// Shared schemas: the problem shape and the pieces many routes reuse.

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    accepted_types: Type.Optional(
      Type.Array(Type.String(), { description: '415: the media types the endpoint accepts' }),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

/** Error responses documented for a route: each refers to the Problem schema. */
export function problems(...statuses: number[]) {
  const out: Record<number, unknown> = {};
  for (const s of statuses) out[s] = { description: 'Problem details (application/problem+json)', ...ProblemRef };
  return out;
}

const ProblemRef = Type.Ref('Problem');

/** The query parameters of a list endpoint (cursors: core/paging.ts). */
export const PageQuery = {
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  cursor: Type.Optional(Type.String({ maxLength: 1024 })),
};

export const Uuid = Type.String({ format: 'uuid' });
/** A date-time in responses: handlers may return a Date; the serializer writes ISO 8601 with Z. */
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** The security requirement of bearer-token routes, for OpenAPI. */
export const bearer = [{ bearer: [] }];

/**
 * A string of client content (event fields, agent keys and principals as agents
 * send them, notes, descriptions): it may hold tabs, line breaks and other
 * control characters, never U+0000 or an unpaired surrogate. Every other
 * string schema refuses control characters (validation.ts, the text rule).
 */
export const ContentText = (opts: Parameters<typeof Type.String>[0] = {}) =>
  Type.String({ ...opts, [TEXT_RULE]: 'content' });
