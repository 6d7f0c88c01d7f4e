// The request bodies of the ingest benchmarks (ingest.ts, ingest-ab.ts, ingest-fair.ts):
// metadata-only events, and content events carrying 2 KB of tool_input with an
// e-mail and a phone number in it; singles and batches of 100.

/** A 2 KB tool_input: a JSON-ish request with an e-mail and a phone number in it. */
function toolInput(i: number): string {
  const head = `{"customer":{"email":"jane.doe${i}@example.com","phone":"+1 415 555 ${String(1000 + (i % 9000)).padStart(4, '0')}"},"query":"`;
  const filler = 'list the open orders and the shipping status for each of them, newest first; ';
  let s = head;
  while (s.length < 2000) s += filler;
  return `${s.slice(0, 2046)}"}`;
}

export function metaEvent(i: number): Record<string, unknown> {
  return {
    agent_key: `agent-${i % 8}`,
    tool_name: 'crm.lookup',
    mode: i % 5 === 0 ? 'enforced' : 'observed',
    outcome: 'success',
    duration_ms: i % 1000,
    correlation_id: `bench-${i}`,
  };
}

export function contentEvent(i: number): Record<string, unknown> {
  return {
    ...metaEvent(i),
    prompt: `Summarise the orders of customer ${i} for the support ticket.`,
    tool_input: toolInput(i),
  };
}

// Bodies are made before a measurement, so the client spends its time sending.
const POOL = 200;
export const singles = (make: (i: number) => Record<string, unknown>) =>
  Array.from({ length: POOL }, (_, i) => JSON.stringify(make(i)));
export const batches = (make: (i: number) => Record<string, unknown>) =>
  Array.from({ length: 20 }, (_, b) =>
    JSON.stringify({
      events: Array.from({ length: 100 }, (_, j) => ({ kind: 'invocation', event: make(b * 100 + j) })),
    }),
  );

/**
 * The body with a correlation id no request of the run has sent before
 * (`--ids fresh`): request `k`'s events get `r<k>-<i>`. The bodies above repeat
 * every 200 events, so a server remembering a value's redaction answers them
 * from memory; real agents send a new correlation id per conversation or trace.
 */
export function withFreshIds(body: string, k: number): string {
  return body.replaceAll('"correlation_id":"bench-', `"correlation_id":"r${k}-`);
}

/** `--ids repeating` (the default: the bodies as made) or `--ids fresh` (withFreshIds). */
export function idsOption(value: string | undefined): 'repeating' | 'fresh' {
  if (value === undefined || value === 'repeating') return 'repeating';
  if (value === 'fresh') return 'fresh';
  throw new Error('--ids is repeating or fresh');
}

/** Items of a batch's 207 answer that were not stored (a slot whose status is not 201). */
export function batchItemsFailed(body: string): number {
  const { results } = JSON.parse(body) as { results: Array<{ status: number }> };
  return results.filter((r) => r.status !== 201).length;
}

/**
 * Prompt text of `chars` characters, prose with an e-mail address and a phone
 * number every few hundred characters (the detectors' real work), different
 * for every `i`.
 */
export function longPrompt(i: number, chars: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let j = 0; n < chars; j++) {
    const s =
      j % 4 === 3
        ? `Reply to customer${i}.${j}@example.com or call +1 415 555 ${String(1000 + ((i + j) % 9000)).padStart(4, '0')} before noon. `
        : `Case ${i}-${j}: the agent summarised the order history, checked the refund policy and drafted an answer for review. `;
    parts.push(s);
    n += s.length;
  }
  return parts.join('').slice(0, chars);
}

/**
 * Batch bodies of `size` invocation events, each with a `promptChars` prompt
 * (bench/ingest-fair.ts's flood); `promptChars` 0: metadata events.
 */
export function floodBatches(size: number, promptChars: number, count = 6): string[] {
  return Array.from({ length: count }, (_, b) =>
    JSON.stringify({
      events: Array.from({ length: size }, (_, j) => {
        const i = b * size + j;
        return {
          kind: 'invocation',
          event: promptChars > 0 ? { ...metaEvent(i), prompt: longPrompt(i, promptChars) } : metaEvent(i),
        };
      }),
    }),
  );
}
