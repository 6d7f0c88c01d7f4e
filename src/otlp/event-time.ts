// When a recorded span happened: its invocation's occurred_at (committed in
// its leaf's `meta`). A JSON event happened when the service received it; a
// span says when it started. A start the service cannot take at its word
// falls back to the JSON rule, the receipt time:
//  - after the receipt: a client clock running ahead (nothing that already
//    happened can have started later than it was received);
//  - before the workspace existed: a clock far behind, or an unset start (0).
// The start as sent stays visible either way (the invocation's `otel` block).
// created_at and the leaf's time are the service's clock whatever the span
// says: reports count by them (docs/integrations.md, "Time").

/**
 * The event time of a span starting at `startNs` (Unix nanoseconds) that was
 * received at `receivedAt` by a workspace created at `workspaceCreatedAt`.
 */
export function eventTime(startNs: bigint, receivedAt: Date, workspaceCreatedAt: Date): Date {
  const start = startNs / 1_000_000n; // milliseconds: a leaf's time has no finer grain
  if (start < BigInt(workspaceCreatedAt.getTime()) || start > BigInt(receivedAt.getTime())) return receivedAt;
  return new Date(Number(start));
}
