import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clipText, MAX_TEXT, toolResultText } from './tool-result.ts';

test('an MCP tool result as text: blocks in order, resources by text or uri, others by type, JSON last', () => {
  const r = toolResultText({
    content: [
      { type: 'text', text: 'first' },
      { type: 'resource', resource: { uri: 'file:///a', text: 'inside a' } },
      { type: 'resource', resource: { uri: 'file:///b' } },
      { type: 'resource_link', uri: 'file:///c' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
    ],
    structuredContent: { n: 1 },
    isError: true,
  });
  assert.deepEqual(r, {
    text: 'first\ninside a\n[resource file:///b]\n[resource_link file:///c]\n[image image/png]\n{"n":1}',
    isError: true,
  });
});

test("a gateway's own result shape is recorded as it is; is_error counts as an error", () => {
  assert.deepEqual(toolResultText('plain'), { text: 'plain', isError: false });
  assert.deepEqual(toolResultText({ ok: true }), { text: '{"ok":true}', isError: false });
  assert.deepEqual(toolResultText(undefined), { text: 'null', isError: false });
  assert.deepEqual(toolResultText({ content: [{ type: 'text', text: 'no' }], is_error: true }), {
    text: 'no',
    isError: true,
  });
});

test('texts are cut at the limit in code points, saying how long they were', () => {
  assert.deepEqual(clipText('short'), { text: 'short', cutFrom: null });
  const emoji = '😀'.repeat(MAX_TEXT); // 2 UTF-16 units each: over the length, at the limit in code points
  assert.deepEqual(clipText(emoji), { text: emoji, cutFrom: null });
  const long = 'x'.repeat(MAX_TEXT + 5);
  assert.deepEqual(clipText(long), { text: 'x'.repeat(MAX_TEXT), cutFrom: MAX_TEXT + 5 });
});
