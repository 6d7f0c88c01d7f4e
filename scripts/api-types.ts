// The API types generated from the service's OpenAPI document: one module,
// packages/client/src/schema.d.ts, which the client uses and the console
// imports as `@agent-ledger/client/schema`. scripts/write-api-types.ts writes it;
// src/service/api-types.test.ts compares the committed file with it.
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** The file, with the command that regenerates it. */
export const API_TYPES = {
  path: 'packages/client/src/schema.d.ts',
  command: 'node scripts/write-api-types.ts',
} as const;

/** The TypeScript types of an OpenAPI document, as `openapi-typescript <file> -o <out>` writes them. */
export async function apiTypes(doc: unknown): Promise<string> {
  // A copy: the bundler may change the document it is given.
  return `${COMMENT_HEADER}${astToString(await openapiTS(structuredClone(doc) as OpenAPI3, { silent: true }))}`;
}
