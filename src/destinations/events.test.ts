import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainJson } from './events.ts';

test('plainJson gives back what a JSON round trip does: dates as text, undefined dropped, NaN null', () => {
  const values: unknown[] = [
    {
      invocation_id: 42,
      agent_key: 'a',
      tool_name: null,
      reasons: ['r1', { rule: 'x', nested: [1, undefined, new Date(0)] }],
      created_at: new Date('2026-01-02T03:04:05.678Z'),
      bad_date: new Date(Number.NaN),
      gone: undefined,
      ratio: Number.NaN,
      big: Infinity,
      flag: false,
      bytes: Buffer.from('ab'),
      empty: {},
    },
    [undefined, () => 1, 'x'],
    'text',
    7,
    null,
  ];
  for (const v of values) assert.deepEqual(plainJson(v), JSON.parse(JSON.stringify(v)));
});
