import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { type FieldError, HttpProblem, badRequest, notFound } from './problem.ts';

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
  return ajv;
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
  return e.message ?? 'is invalid';
}

/**
 * Errors of one field from the branches of a union (anyOf) are alternatives:
 * one message says them all ("must be one of "free", "team"", "must be string
 * or null") instead of one "must be equal to constant" per branch.
 */
function alternativesMessage(errs: ErrorObject[]): string {
  const consts = errs.filter((e) => e.keyword === 'const').map((e) => (e.params as { allowedValue?: unknown }).allowedValue);
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
  return new HttpProblem(422, 'unprocessable', `The request ${where} breaks ${fields.length === 1 ? 'a rule' : `${fields.length} rules`}.`, { errors: fields });
}
