// The API types generated from the service's OpenAPI document, for the
// client (packages/client) and the console: what scripts/client-openapi.ts and
// scripts/console-openapi.ts write, and what src/service/api-types.test.ts
// compares the committed files with.
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** The files, each with the command that regenerates it. */
export const API_TYPE_FILES = {
  client: { path: 'packages/client/src/schema.d.ts', command: 'node scripts/client-openapi.ts' },
  console: { path: 'console/src/api/schema.d.ts', command: 'node scripts/console-openapi.ts' },
} as const;

/** The TypeScript types of an OpenAPI document, as `openapi-typescript <file> -o <out>` writes them. */
export async function apiTypes(doc: unknown): Promise<string> {
  // A copy: the bundler may change the document it is given.
  return `${COMMENT_HEADER}${astToString(await openapiTS(structuredClone(doc) as OpenAPI3, { silent: true }))}`;
}
