import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

// The fixture MCP server's tools, for the gate's tests and bench, written with
// the SDK: `echo` answers its text, `delete_file` and `send_email` do nothing
// but say they ran. `onCall` hears every call the server receives, so a test
// can tell whether the server saw a call. The stdio fixture (fixture-server.ts)
// and the Streamable HTTP one (the HTTP proxy test) serve the same tools.

export function fixtureServer(onCall: (call: { name: string; arguments: unknown }) => void): Server {
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
    onCall({ name: req.params.name, arguments: req.params.arguments });
    const args = (req.params.arguments ?? {}) as { text?: string; path?: string };
    if (req.params.name === 'echo') return { content: [{ type: 'text', text: `echo: ${args.text ?? ''}` }] };
    if (req.params.name === 'delete_file') return { content: [{ type: 'text', text: `deleted ${args.path ?? ''}` }] };
    if (req.params.name === 'send_email') return { content: [{ type: 'text', text: 'sent' }] };
    return { content: [{ type: 'text', text: `no tool ${req.params.name}` }], isError: true };
  });
  return server;
}
