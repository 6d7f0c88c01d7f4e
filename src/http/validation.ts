import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { type FieldError, HttpProblem, badRequest, notFound } from '../core/problems.ts';

// Bodies are typed strictly ("5" is not an integer); query strings and path
// parameters are text by nature, so they are coerced. Ajv counts string
// lengths in code points (its `unicode` option), as API.md requires.
function makeAjv(coerce: boolean) {
  const ajv = new Ajv({
    coerceTypes: coerce,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    strict: false,
  });
  addFormats.default(ajv);
  ajv.addFormat('date-time', { type: 'string', validate: isDateTimeInRange });
  return ajv;
}

// Every date-time a client sends (query filters, report periods, bodies) is
// one format: RFC 3339 with an offset, at an instant with a four-digit year
// from 0001 to 9999 in UTC. JavaScript reads year 0000 and six-digit years,
// PostgreSQL refuses them ("date/time field value out of range"): checked here,
// for every schema at once, they are a 422 naming the field, never a 500.
const RFC3339 =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
export const EARLIEST_DATE_TIME = '0001-01-01T00:00:00Z';
export const LATEST_DATE_TIME = '9999-12-31T23:59:59Z';
const EARLIEST_MS = Date.parse(EARLIEST_DATE_TIME);
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z');
const DATE_TIME_RULE = `must be an RFC 3339 date-time with an offset, from ${EARLIEST_DATE_TIME} to ${LATEST_DATE_TIME}`;

export function isDateTimeInRange(s: string): boolean {
  if (!RFC3339.test(s)) return false;
  const ms = Date.parse(s);
  if (!Number.isFinite(ms) || ms < EARLIEST_MS || ms > LATEST_MS) return false;
  // Date.parse rolls 2026-02-31 over to March: the calendar date must exist.
  const [y, m, d] = [Number(s.slice(0, 4)), Number(s.slice(5, 7)), Number(s.slice(8, 10))];
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

function pointer(e: ErrorObject): string {
  const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
  const path = missing ? `${e.instancePath}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}` : e.instancePath;
  return path === '' ? '/' : path;
}

function message(e: ErrorObject): string {
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (e.keyword === 'required') return 'is required';
  if (e.keyword === 'format' && (e.params as { format?: string }).format === 'date-time') return DATE_TIME_RULE;
  return e.message ?? 'is invalid';
}

/**
 * Errors of one field from the branches of a union (anyOf) are alternatives:
 * one message says them all ("must be one of "free", "team"", "must be string
 * or null") instead of one "must be equal to constant" per branch.
 */
function alternativesMessage(errs: ErrorObject[]): string {
  const consts = errs
    .filter((e) => e.keyword === 'const')
    .map((e) => (e.params as { allowedValue?: unknown }).allowedValue);
  const types = errs.filter((e) => e.keyword === 'type').map((e) => String((e.params as { type?: unknown }).type));
  if (consts.length > 0) {
    const nullable = types.includes('null') ? ' or null' : '';
    return `must be one of ${[...new Set(consts)].map((v) => JSON.stringify(v)).join(', ')}${nullable}`;
  }
  const parts = [...new Set(errs.filter((e) => e.keyword !== 'type').map(message))];
  if (types.length > 0) parts.push(`must be ${[...new Set(types)].join(' or ')}`);
  return parts.map((m, i) => (i === 0 ? m : m.replace(/^must /, ''))).join(' or ');
}

/** Turns Fastify's validation failure into the documented problem. */
export function validationProblem(errors: ErrorObject[], context: string | undefined): HttpProblem {
  if (context === 'body' && errors.some((e) => e.instancePath === '' && e.keyword === 'type')) {
    return badRequest('The request body must be a JSON object.');
  }
  if (context === 'params') return notFound();
  const byField = new Map<string, { alternatives: ErrorObject[]; other: ErrorObject[] }>();
  for (const e of errors) {
    // anyOf/oneOf wrappers add noise after their branches already reported.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const field = pointer(e);
    const slot = byField.get(field) ?? { alternatives: [], other: [] };
    byField.set(field, slot);
    (e.schemaPath.includes('/anyOf/') ? slot.alternatives : slot.other).push(e);
  }
  const fields: FieldError[] = [];
  for (const [field, { alternatives, other }] of byField) {
    const messages = other.map(message);
    if (alternatives.length > 0) messages.unshift(alternativesMessage(alternatives));
    for (const m of new Set(messages)) fields.push({ field, message: m });
  }
  const where = context === 'querystring' ? 'query' : 'body';
  return new HttpProblem(
    'unprocessable',
    `The request ${where} breaks ${fields.length === 1 ? 'a rule' : `${fields.length} rules`}.`,
    { errors: fields },
  );
}
