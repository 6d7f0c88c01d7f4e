import type { PlanCaps } from '../config/index.ts';
import type { AppContext } from '../core/index.ts';
import {
  type EventInput,
  type EventResult,
  type IngestModule,
  linkParents,
  type Redactor,
  RESERVED_KEY_PREFIX,
} from '../ingest/index.ts';
import type { LogWriter } from '../ledger/index.ts';
import { eventTime } from './event-time.ts';
import { type MappedSpan, mapSpan, recordedParent, resolveAgents } from './mapping.ts';
import type { DecodedRequest, OtelSpan } from './spans.ts';
import { redactSpanTexts } from './span-texts.ts';
import { insertSpans, keyOf, recordedSpans, spanLinks, type SpanRow } from './store.ts';

/** Spans recorded from one export at most; the rest are refused (partial_success). */
export const MAX_RECORDED_SPANS = 2048;
/** Spans whose texts are redacted in one turn of the event loop. */
const REDACT_CHUNK = 256;

export interface OtlpDeps {
  ctx: AppContext;
  /** Serializes the otel_spans rows and parent links of a workspace with its other writes (the log head's lock). */
  writer: LogWriter;
  /**
   * Ingest's door for events of one workspace (IngestModule.recordBatch): the
   * same validation, detection, redaction, policy, verdict and leaves as the
   * JSON endpoints, set-based (one write for the whole export).
   */
  recordBatch(tenantId: string, events: readonly EventInput[]): Promise<EventResult[]>;
  /** The stored form of a span's texts, as of event metadata (detect's redactForStorage; span-texts.ts). */
  redact: Redactor;
  /**
   * The workspace an export's request records in, authorized as ingest's event endpoints authorize
   * theirs (IngestModule.authorizeEvents): the token kinds, the workspace named for the fallback token, its standing.
   */
  authorizeEvents: IngestModule['authorizeEvents'];
}

export interface ExportOutcome {
  /** Spans that became invocations now. */
  recorded: number;
  /** Spans recorded by an earlier (or concurrent) export: accepted, nothing written. */
  duplicates: number;
  /** Spans that are not GenAI work (HTTP, DB, …): accepted and dropped. */
  dropped: number;
  /** Spans refused: unreadable ids, over the per-export cap, over the plan's caps. */
  rejected: number;
  /** Why spans were refused or dropped, for partial_success.error_message. */
  notes: string[];
  /** Every span that could have been recorded was refused by the daily quota. */
  quotaExhausted: boolean;
}

/** What a span is recorded as: the idempotency key ingest dedupes concurrent and re-sent copies with. */
const spanKey = (s: OtelSpan) => `${RESERVED_KEY_PREFIX}${s.traceId}:${s.spanId}`;

/** The span as the body of POST /api/v1/admin/agents/events/invocation (the mapping bounds every field). */
function invocationBody(m: MappedSpan): Record<string, unknown> {
  const body: Record<string, unknown> = {
    agent_key: m.agentKey,
    mode: m.mode,
    outcome: m.outcome,
    duration_ms: m.durationMs,
    principal_kind: m.principalKind,
    principal_id: m.principalId,
    correlation_id: m.span.traceId,
    tool_name: m.toolName,
    ...m.text,
  };
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  return body;
}

/**
 * Records the GenAI spans of one export for one workspace: mapped, checked
 * against what is already stored, then handed to ingest as one batch (one
 * set-based write, whatever the number of spans), then the otel_spans rows
 * and parent links in one more transaction.
 *
 * Duplicates: a span already in otel_spans is skipped before ingest sees it;
 * one recorded meanwhile (a concurrent export of the same spans, on any node)
 * is caught by its idempotency key inside ingest's write, which answers with
 * the first invocation instead of recording a second. Should the process stop
 * between the two transactions, the exporter's retry (it got no answer) finds
 * the key and writes the missing otel_spans row.
 */
export async function recordExport(
  deps: OtlpDeps,
  workspace: { tenantId: string; caps: PlanCaps; createdAt: Date },
  decoded: DecodedRequest,
): Promise<ExportOutcome> {
  const { tenantId, caps } = workspace;
  const out: ExportOutcome = {
    recorded: 0,
    duplicates: 0,
    dropped: 0,
    rejected: decoded.rejected,
    notes: [...decoded.rejectReasons],
    quotaExhausted: false,
  };
  const all = new Map<string, OtelSpan>();
  const mapped: MappedSpan[] = [];
  for (const s of decoded.spans) {
    const k = keyOf(s);
    if (all.has(k)) {
      out.duplicates++; // the same span twice in one export: the first stands
      continue;
    }
    all.set(k, s);
    const m = mapSpan(s);
    if (m) mapped.push(m);
    else out.dropped++;
  }
  if (out.dropped > 0)
    out.notes.push(
      `${out.dropped} spans carry no GenAI, OpenInference, Vercel AI SDK or Traceloop attributes and were dropped`,
    );
  if (mapped.length > MAX_RECORDED_SPANS) {
    const over = mapped.length - MAX_RECORDED_SPANS;
    mapped.length = MAX_RECORDED_SPANS;
    out.rejected += over;
    out.notes.push(
      `at most ${MAX_RECORDED_SPANS} GenAI spans are recorded per export; ${over} were refused (lower OTEL_BSP_MAX_EXPORT_BATCH_SIZE)`,
    );
  }
  resolveAgents(mapped, decoded.spans);

  // Each span's time: when it happened, as far as the service takes the client's word (its occurred_at).
  const receivedAt = deps.ctx.now();
  const timeOf = new Map(mapped.map((m) => [m, eventTime(m.span.startNs, receivedAt, workspace.createdAt)]));
  const timed = (m: MappedSpan) => ({ traceId: m.span.traceId, spanId: m.span.spanId, at: timeOf.get(m)! });

  // Re-sent spans cost one lookup, no scan.
  const stored = await deps.ctx.db.withTenant(tenantId, (tx) =>
    recordedSpans(tx, tenantId, mapped.map(timed), receivedAt),
  );
  const fresh = mapped.filter((m) => !stored.has(keyOf(m.span)));
  out.duplicates += mapped.length - fresh.length;
  if (fresh.length === 0) return out;

  const recordedKeys = new Set(fresh.map((m) => keyOf(m.span)));
  const results = await deps.recordBatch(
    tenantId,
    fresh.map((m) => ({
      kind: 'invocation',
      event: invocationBody(m),
      key: spanKey(m.span),
      occurredAt: timeOf.get(m)!,
      oosSource: 'otlp',
    })),
  );

  const rows: SpanRow[] = [];
  let refusedQuota = 0;
  let refusedAgents = 0;
  const claimed: MappedSpan[] = [];
  let failure: unknown;
  results.forEach((r, i) => {
    const m = fresh[i]!;
    if ('body' in r) {
      if (r.replayed) out.duplicates++;
      else out.recorded++;
      rows.push({
        invocationId: r.body.invocation_id as number,
        recordedAt: r.recordedAt,
        at: timeOf.get(m)!,
        parentSpanId: recordedParent(m, recordedKeys, all),
        extras: m.extras,
      });
      return;
    }
    switch (r.problem.code) {
      case 'idempotency_key_reused':
        // Its key holds another body: another export's copy of the span (the
        // first stands), or a claim made before the key space was the
        // service's own. Told apart below, by whether the span is stored.
        claimed.push(m);
        return;
      case 'quota_exceeded':
        refusedQuota++;
        return;
      case 'plan_limit':
        refusedAgents++;
        return;
      default:
        if (r.status >= 500) {
          failure ??= (r.problem as { cause?: unknown }).cause ?? r.problem;
          return;
        }
        out.rejected++;
        if (out.notes.length < 10) out.notes.push(`a span was refused: ${r.problem.message}`);
    }
  });

  // Each span's texts are stored redacted. A new text costs about 10 µs (a
  // model name or an operation repeats and is remembered), so a 2,048-span
  // export with distinct ids is some 40 ms: the event loop gets a turn between
  // chunks of it, as between the slices of a scan.
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % REDACT_CHUNK === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    rows[i]!.extras = redactSpanTexts(rows[i]!.extras, deps.redact);
  }
  if (rows.length > 0) {
    await deps.writer.submit(tenantId, async (tx) => {
      // Under the log head's lock, so an export carrying a span's parent and
      // one carrying its child never miss each other's rows.
      await insertSpans(tx, tenantId, rows);
      await linkParents(tx, tenantId, await spanLinks(tx, tenantId, rows, deps.ctx.now()));
    });
  }
  // Some spans could not be stored (the database failed them): the exporter
  // re-sends the export, and what was stored now is a duplicate then.
  if (failure !== undefined) throw failure;

  // A claimed span that no export stored is not recorded, and the exporter is told so.
  const storedClaims =
    claimed.length === 0
      ? new Map<string, number>()
      : await deps.ctx.db.withTenant(tenantId, (tx) => recordedSpans(tx, tenantId, claimed.map(timed), deps.ctx.now()));
  out.duplicates += storedClaims.size;
  const lost = claimed.length - storedClaims.size;
  out.rejected += refusedQuota + refusedAgents + lost;
  if (lost > 0) {
    out.notes.push(
      `${lost} spans refused: their idempotency key (${RESERVED_KEY_PREFIX}<trace id>:<span id>) holds another request`,
    );
  }
  if (refusedQuota > 0) {
    out.notes.push(
      `${refusedQuota} spans refused: the plan allows ${caps.invocations_per_day} invocations a day (resets at 00:00 UTC)`,
    );
  }
  if (refusedAgents > 0) out.notes.push(`${refusedAgents} spans refused: the plan allows ${caps.agents} agents`);
  out.quotaExhausted = refusedQuota > 0 && out.recorded === 0 && refusedAgents === 0;
  return out;
}
