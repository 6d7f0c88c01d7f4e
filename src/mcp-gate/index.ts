// The MCP gate's face: what other modules may use. Nothing else of mcp-gate/ is imported from outside it.

export { mcpProxyCommand } from './proxy-command.ts';
