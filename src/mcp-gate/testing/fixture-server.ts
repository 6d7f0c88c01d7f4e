import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fixtureServer } from './fixture-tools.ts';

// A real stdio MCP server for the gate's tests and bench (the tools of
// fixture-tools.ts). Every call is appended to the file named by
// MCP_FIXTURE_CALLS (one JSON line per call), so a test can tell whether the
// server saw a call.

const calls = process.env.MCP_FIXTURE_CALLS;
const server = fixtureServer((call) => {
  if (calls) appendFileSync(calls, `${JSON.stringify(call)}\n`);
});

await server.connect(new StdioServerTransport());
