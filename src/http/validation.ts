import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { badRequest, type FieldError, HttpProblem, notFound } from '../core/index.ts';

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
  ajv.addKeyword({ keyword: LINE_TEXT, type: 'string', schemaType: 'boolean', errors: false, validate: isLineText });
  ajv.addKeyword({ keyword: CONTENT_TEXT, type: 'string', schemaType: 'boolean', errors: false, validate: isStorable });
  return ajv;
}

// One input rule for control characters, for every string of every JSON
// body, query string and path parameter, applied by the schema compiler below
// to every string schema (no route opts in or can forget it):
// - nowhere U+0000 or an unpaired UTF-16 surrogate: PostgreSQL text cannot
//   hold either, and they must be a 422 naming the field, never a 500;
// - in names, keys, ids, URLs, addresses, globs and other one-line values, no
//   control character at all (C0 U+0000-U+001F, DEL, C1 U+0080-U+009F): they
//   break lines in logs, CSV cells and the console, and hide text;
// - client content (schemas marked with TEXT_RULE: 'content': event fields,
//   agent keys and principals as agents send them, notes, descriptions) keeps
//   tabs, line breaks and other controls: it is what the agent sent.
export const TEXT_RULE = 'x-text';
const LINE_TEXT = 'lineText';
const CONTENT_TEXT = 'contentText';
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LINE_TEXT_RULE = 'must not contain control characters (U+0000-U+001F, U+007F-U+009F) or unpaired surrogates';
const CONTENT_TEXT_RULE = 'must not contain U+0000 (NUL) or unpaired surrogates';

function isStorable(_: boolean, data: string): boolean {
  return !data.includes('\u0000') && data.isWellFormed();
}

function isLineText(_: boolean, data: string): boolean {
  return !CONTROL.test(data) && data.isWellFormed();
}

const withRule = new WeakMap<object, object>();
const NOT_SCHEMAS = new Set(['enum', 'const', 'default', 'examples', 'required']);

/** A copy of a JSON schema in which every string schema carries the text rule of its kind. */
export function withTextRule(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object') return schema;
  const cached = withRule.get(schema);
  if (cached) return cached;
  if (Array.isArray(schema)) {
    const out = schema.map(withTextRule);
    withRule.set(schema, out);
    return out;
  }
  const node = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = NOT_SCHEMAS.has(k) ? v : withTextRule(v);
  const type = node.type;
  if (type === 'string' || (Array.isArray(type) && type.includes('string'))) {
    out[node[TEXT_RULE] === 'content' ? CONTENT_TEXT : LINE_TEXT] = true;
  }
  withRule.set(schema, out);
  return out;
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
  return ajv.compile(withTextRule(schema) as object) as ReturnType<FastifySchemaCompiler<unknown>>;
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
  if (e.keyword === LINE_TEXT) return LINE_TEXT_RULE;
  if (e.keyword === CONTENT_TEXT) return CONTENT_TEXT_RULE;
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
  // A path that names nothing is 404; one holding text no field may hold is 422 like a body's.
  if (context === 'params' && !errors.some((e) => e.keyword === LINE_TEXT || e.keyword === CONTENT_TEXT)) {
    return notFound();
  }
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
  const where = context === 'querystring' ? 'query' : context === 'params' ? 'path' : 'body';
  return new HttpProblem(
    'unprocessable',
    `The request ${where} breaks ${fields.length === 1 ? 'a rule' : `${fields.length} rules`}.`,
    { errors: fields },
  );
}
