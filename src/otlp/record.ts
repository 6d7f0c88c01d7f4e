import type { PlanCaps } from '../config/config.ts';
import type { AppContext } from '../core/context.ts';
import { linkParents } from '../ingest/links.ts';
import { scanContent, type InvocationInput, type PreparedInvocation, type Scanner } from '../ingest/prepare.ts';
import { redactMeta } from '../ingest/metadata.ts';
import { type KnownAgents, recordInvocation } from '../ingest/record.ts';
import { newSalt } from '../ledger/leaf.ts';
import type { PseudonymKind } from '../ledger/pseudonyms.ts';
import type { LogWriter } from '../ledger/log-writer.ts';
import type { Decision, Facts, PersonaFacts } from '../policy/engine.ts';
import { type MappedSpan, mapSpan, recordedParent, resolveAgents } from './mapping.ts';
import type { DecodedRequest, OtelSpan } from './spans.ts';
import { insertSpans, keyOf, recordedSpans, type SpanRow, waitingChildren } from './store.ts';

/** Spans recorded from one export at most; the rest are refused (partial_success). */
export const MAX_RECORDED_SPANS = 2048;

export interface OtlpDeps {
  ctx: AppContext;
  writer: LogWriter;
  scan: Scanner;
  workspacePlan(tenantId: string): Promise<{ status: string; caps: PlanCaps } | null>;
  policyFor(tenantId: string): Promise<{ version: number; decide(facts: Facts): Decision }>;
  toolInScope(tenantId: string, agentKey: string, toolName: string): Promise<boolean | undefined>;
  /** The agent's persona as the verdict sees it (policy module), or undefined. */
  personaOf(tenantId: string, agentKey: string): Promise<PersonaFacts | undefined>;
  /** A value's pseudonym in the workspace log (leaf format v2). */
  pseudonym(tenantId: string, kind: PseudonymKind, value: string): Promise<string>;
  /** Key-encryption key of tool_outputs awaiting their scan (ingest/sealed-output.ts). */
  outputKek: Uint8Array;
  /** Called after an export's invocations are acknowledged (background scans of tool_output). */
  afterRecorded?: (tenantId: string, prepared: readonly PreparedInvocation[]) => void;
}

export interface ExportOutcome {
  /** Spans that became invocations now. */
  recorded: number;
  /** Spans recorded by an earlier export (re-sent): accepted, nothing written. */
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

interface Pending {
  mapped: MappedSpan;
  /** Span id of the nearest recorded ancestor (in this export or before). */
  parentSpanId: string | null;
  prepared: PreparedInvocation;
}

/**
 * Records the GenAI spans of one export for one workspace: mapped, checked
 * against what is already stored, scanned and decided like JSON invocations,
 * then written in one append transaction, so an export of 512 spans costs one
 * commit, not 512.
 */
export async function recordExport(
  deps: OtlpDeps,
  known: KnownAgents,
  tenantId: string,
  caps: PlanCaps,
  decoded: DecodedRequest,
): Promise<ExportOutcome> {
  const out: ExportOutcome = { recorded: 0, duplicates: 0, dropped: 0, rejected: decoded.rejected, notes: [...decoded.rejectReasons], quotaExhausted: false };
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
  if (out.dropped > 0) out.notes.push(`${out.dropped} spans carry no GenAI, OpenInference, Vercel AI SDK or Traceloop attributes and were dropped`);
  if (mapped.length > MAX_RECORDED_SPANS) {
    const over = mapped.length - MAX_RECORDED_SPANS;
    mapped.length = MAX_RECORDED_SPANS;
    out.rejected += over;
    out.notes.push(`at most ${MAX_RECORDED_SPANS} GenAI spans are recorded per export; ${over} were refused (lower OTEL_BSP_MAX_EXPORT_BATCH_SIZE)`);
  }
  resolveAgents(mapped, decoded.spans);

  // Re-sent spans cost one lookup, no scan: checked again inside the write.
  const stored = await deps.ctx.db.withTenant(tenantId, (tx) => recordedSpans(tx, tenantId, mapped.map((m) => m.span)));
  const fresh = mapped.filter((m) => !stored.has(keyOf(m.span)));
  out.duplicates += mapped.length - fresh.length;
  if (fresh.length === 0) return out;

  const recordedKeys = new Set(fresh.map((m) => keyOf(m.span)));
  const pending = await prepareAll(deps, tenantId, fresh, recordedKeys, all);
  const now = deps.ctx.now();

  const result = await deps.writer.submit(tenantId, async (tx, log) => {
    // Under the log head's lock: an export racing this one has committed or waits.
    const already = await recordedSpans(tx, tenantId, pending.map((p) => p.mapped.span));
    const parentKeys = pending.filter((p) => p.parentSpanId !== null).map((p) => ({ traceId: p.mapped.span.traceId, spanId: p.parentSpanId! }));
    const ids = await recordedSpans(tx, tenantId, parentKeys);
    const rows: SpanRow[] = [];
    const recorded: PreparedInvocation[] = [];
    let duplicates = 0;
    let refusedQuota = 0;
    let refusedAgents = 0;
    for (const p of pending) {
      const key = keyOf(p.mapped.span);
      if (already.has(key)) {
        duplicates++;
        continue;
      }
      const parentId = p.parentSpanId === null ? undefined : ids.get(`${p.mapped.span.traceId}/${p.parentSpanId}`);
      // An out-of-scope tool is also a rogue event (prepared with source otlp), written with it.
      const r = await recordInvocation(tx, log, { ...p.prepared, parentInvocationId: parentId }, caps, known, now);
      if ('refused' in r) {
        if (r.refused === 'quota_exceeded') refusedQuota++;
        else refusedAgents++;
        continue;
      }
      ids.set(key, r.invocation_id);
      rows.push({ invocationId: r.invocation_id, parentSpanId: p.parentSpanId, extras: p.mapped.extras });
      recorded.push(p.prepared);
    }
    await insertSpans(tx, tenantId, rows);
    await linkParents(tx, tenantId, await waitingChildren(tx, tenantId, rows.map((r) => ({ traceId: r.extras.trace_id, spanId: r.extras.span_id }))));
    return { recorded, duplicates, refusedQuota, refusedAgents };
  });

  for (const p of result.recorded) {
    known.add(tenantId, p.agentKey);
    deps.ctx.metrics.events.inc({ kind: 'invocation', verdict: p.decision.verdict });
  }
  if (result.recorded.length > 0) deps.afterRecorded?.(tenantId, result.recorded);
  out.recorded = result.recorded.length;
  out.duplicates += result.duplicates;
  out.rejected += result.refusedQuota + result.refusedAgents;
  if (result.refusedQuota > 0) {
    out.notes.push(`${result.refusedQuota} spans refused: the plan allows ${caps.invocations_per_day} invocations a day (resets at 00:00 UTC)`);
  }
  if (result.refusedAgents > 0) out.notes.push(`${result.refusedAgents} spans refused: the plan allows ${caps.agents} agents`);
  out.quotaExhausted = result.refusedQuota > 0 && result.recorded.length === 0 && result.refusedAgents === 0;
  return out;
}

/**
 * Scans, redacts and decides each span like a JSON invocation (the same
 * detectors, policy and scope check), parents before children, so that a
 * parent recorded in this export gives its id to its children at insert.
 */
async function prepareAll(
  deps: OtlpDeps,
  tenantId: string,
  fresh: MappedSpan[],
  recordedKeys: ReadonlySet<string>,
  all: ReadonlyMap<string, OtelSpan>,
): Promise<Pending[]> {
  const policy = await deps.policyFor(tenantId);
  const scopes = new Map<string, Promise<boolean | undefined>>();
  const scope = (agent: string, tool: string) => {
    const k = `${agent}\u0000${tool}`;
    let p = scopes.get(k);
    if (!p) scopes.set(k, (p = deps.toolInScope(tenantId, agent, tool)));
    return p;
  };
  const parents = fresh.map((m) => recordedParent(m, recordedKeys, all));
  const depth = new Map<string, number>();
  const depthOf = (i: number): number => {
    const k = keyOf(fresh[i]!.span);
    const known = depth.get(k);
    if (known !== undefined) return known;
    depth.set(k, 0); // a cycle in a hostile export ends here
    const parent = parents[i];
    const j = parent === null ? -1 : index.get(`${fresh[i]!.span.traceId}/${parent}`) ?? -1;
    const d = j < 0 ? 0 : depthOf(j) + 1;
    depth.set(k, d);
    return d;
  };
  const index = new Map(fresh.map((m, i) => [keyOf(m.span), i]));
  const order = fresh.map((_, i) => i).sort((a, b) => depthOf(a) - depthOf(b) || a - b);

  const out: Pending[] = [];
  for (const i of order) {
    const m = fresh[i]!;
    const body: InvocationInput = { agent_key: m.agentKey, ...m.text };
    const { content, findings, piiCount } = scanContent(body, deps.scan, { kek: deps.outputKek, tenantId });
    const agentPseudonym = await deps.pseudonym(tenantId, 'agent', m.agentKey);
    const principalId = m.principalId ?? m.agentKey;
    const toolInScope = m.toolName === undefined ? undefined : await scope(m.agentKey, m.toolName);
    const persona = await deps.personaOf(tenantId, m.agentKey);
    const decision = policy.decide({
      agent_key: m.agentKey,
      tool_name: m.toolName,
      mode: m.mode,
      outcome: m.outcome,
      principal_kind: m.principalKind,
      principal_id: principalId,
      findings,
      tool_in_scope: toolInScope,
      persona,
    });
    out.push({
      mapped: m,
      parentSpanId: parents[i]!,
      prepared: {
        tenantId,
        agentKey: m.agentKey,
        agentPseudonym,
        mode: m.mode,
        // Free-form metadata are stored redacted, like JSON invocations' (ingest/metadata.ts).
        outcome: redactMeta(deps.scan, m.outcome),
        durationMs: m.durationMs,
        principalKind: m.principalKind,
        principalId,
        parentInvocationId: undefined,
        correlationId: redactMeta(deps.scan, m.span.traceId),
        toolName: redactMeta(deps.scan, m.toolName),
        content,
        findings,
        piiCount,
        decision,
        policyVersion: policy.version,
        toolInScope,
        metaSalt: newSalt(),
        outOfScope:
          toolInScope === false && m.toolName !== undefined
            ? {
                event_type: 'oos_tool',
                agent_key: m.agentKey,
                tool: redactMeta(deps.scan, m.toolName),
                source: 'otlp',
                severity: m.mode === 'shadow' ? 'info' : 'high',
                pseudonyms: { agent: agentPseudonym, type: await deps.pseudonym(tenantId, 'rogue_event_type', 'oos_tool') },
              }
            : undefined,
      },
    });
  }
  return out;
}
