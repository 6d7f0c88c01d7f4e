// A tool call's result and arguments as the API stores them, for the two places that record calls
// they saw: the MCP proxy (mcp-gate) and the gateways' hooks (ingest/gateway-routes.ts).

/** The API takes up to 32,000 code points per text field. */
export const MAX_TEXT = 32_000;

/** A text cut to the API's limit; cutFrom is the length in code points of a text that was cut. */
export function clipText(s: string): { text: string; cutFrom: number | null } {
  if (s.length <= MAX_TEXT) return { text: s, cutFrom: null };
  const points = [...s];
  return points.length <= MAX_TEXT
    ? { text: s, cutFrom: null }
    : { text: points.slice(0, MAX_TEXT).join(''), cutFrom: points.length };
}

/**
 * A tool result as text for the record: text blocks as they are, an embedded
 * resource by its text (else its uri), other blocks named by type (and MIME
 * type), structured content and a legacy toolResult as JSON. A result that is
 * none of these (a gateway's own shape) is recorded as it is: a string, else
 * its JSON. An error is `isError` (MCP) or `is_error` (some gateways).
 */
export function toolResultText(result: unknown): { text: string; isError: boolean } {
  const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  if (!Array.isArray(r.content) && r.structuredContent === undefined && r.toolResult === undefined)
    return { text: typeof result === 'string' ? result : JSON.stringify(result ?? null), isError: false };
  const parts: string[] = [];
  for (const block of (Array.isArray(r.content) ? r.content : []) as Array<Record<string, unknown> | null>)
    parts.push(blockText(block));
  if (r.structuredContent !== undefined) parts.push(JSON.stringify(r.structuredContent));
  if (r.toolResult !== undefined) parts.push(JSON.stringify(r.toolResult));
  return { text: parts.join('\n'), isError: r.isError === true || r.is_error === true };
}

function blockText(block: Record<string, unknown> | null): string {
  if (block?.type === 'text' && typeof block.text === 'string') return block.text;
  if (block?.type === 'resource' && typeof block.resource === 'object' && block.resource !== null) {
    const res = block.resource as { uri?: unknown; text?: unknown };
    return typeof res.text === 'string' ? res.text : `[resource ${String(res.uri)}]`;
  }
  if (block?.type === 'resource_link') return `[resource_link ${String(block.uri)}]`;
  return `[${String(block?.type)}${block?.mimeType ? ` ${String(block.mimeType)}` : ''}]`;
}
