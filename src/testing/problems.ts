import assert from 'node:assert/strict';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: Array<{ field: string; message: string }>;
}

interface ResponseLike {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** Fails when a response body shows internals: a stack trace, a source path, SQL or a driver error. */
export function assertNoLeak(body: string): void {
  assert.doesNotMatch(body, /\n\s+at |\bat [\w.<>]+ \(|node:internal|node_modules|\.ts:\d+/, `stack trace in ${body}`);
  assert.doesNotMatch(
    body,
    /\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|RETURNING|syntax error|relation "|violates|duplicate key)\b/,
    `SQL in ${body}`,
  );
  assert.doesNotMatch(body, /PGlite|postgres|ECONNREFUSED|TypeError|ReferenceError/i, `internals in ${body}`);
}

/** Asserts an RFC 9457 problem of this status (and code) and returns it. */
export function assertProblem(res: ResponseLike, status: number, code?: string): Problem {
  assert.equal(res.statusCode, status, `expected ${status}, got ${res.statusCode}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json; charset=utf-8$/);
  assertNoLeak(res.body);
  const p = JSON.parse(res.body) as Problem;
  assert.equal(p.status, status);
  assert.equal(typeof p.type, 'string');
  assert.equal(typeof p.title, 'string');
  assert.equal(typeof p.detail, 'string');
  assert.ok(p.detail.length > 0);
  assert.equal(typeof p.code, 'string');
  if (code !== undefined) assert.equal(p.code, code);
  assert.equal(p.type, `urn:agent-ledger:problem:${p.code}`);
  return p;
}

/** Asserts a 422 whose errors[] names exactly these JSON pointers (in any order, each at least once). */
export function assertFieldErrors(res: ResponseLike, fields: string[], code = 'unprocessable'): Problem {
  const p = assertProblem(res, 422, code);
  assert.ok(Array.isArray(p.errors) && p.errors.length > 0, `errors[] missing in ${res.body}`);
  for (const e of p.errors) {
    assert.equal(typeof e.message, 'string');
    assert.match(e.field, /^\/.*/);
  }
  assert.deepEqual([...new Set(p.errors.map((e) => e.field))].sort(), [...fields].sort());
  return p;
}
