import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

// A real stdio MCP server for the gate's tests and bench, written with the
// SDK: `echo` answers its text, `delete_file` and `send_email` do nothing but
// say they ran. Every call is appended to the file named by MCP_FIXTURE_CALLS
// (one JSON line per call), so a test can tell whether the server saw a call.

const calls = process.env.MCP_FIXTURE_CALLS;
const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
const text = { type: 'object', properties: { text: { type: 'string' } } } as const;

server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: 'echo', description: 'Answers its text', inputSchema: text },
    {
      name: 'delete_file',
      description: 'Deletes a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
    { name: 'send_email', description: 'Sends an e-mail', inputSchema: text },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, (req) => {
  if (calls) appendFileSync(calls, `${JSON.stringify({ name: req.params.name, arguments: req.params.arguments })}\n`);
  const args = (req.params.arguments ?? {}) as { text?: string; path?: string };
  if (req.params.name === 'echo') return { content: [{ type: 'text', text: `echo: ${args.text ?? ''}` }] };
  if (req.params.name === 'delete_file') return { content: [{ type: 'text', text: `deleted ${args.path ?? ''}` }] };
  if (req.params.name === 'send_email') return { content: [{ type: 'text', text: 'sent' }] };
  return { content: [{ type: 'text', text: `no tool ${req.params.name}` }], isError: true };
});

await server.connect(new StdioServerTransport());
