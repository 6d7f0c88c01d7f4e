import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, call } from '../api/client';
import { usePrefs } from '../lib/prefs';
import { useReasonText } from '../lib/reasons';
import { can, roleNames } from '../lib/roles';
import { useSession } from '../lib/session';
import { formatNumber, formatTime } from '../lib/time';
import { EvidencePanel } from './EvidencePanel';
import { JudgementPanel } from './JudgementPanel';
import { TreeView, type TreeNode } from './TreeView';
import { Badge, Loading, ProblemView, Verdict } from './ui';

export function useInvocation(id: number | null) {
  return useQuery({
    queryKey: ['invocation', id],
    enabled: id !== null,
    queryFn: () => call(api.GET('/api/v1/invocations/{invocation_id}', { params: { path: { invocation_id: id! } } })),
    // A judgement runs in the background: look again until it is done.
    refetchInterval: (query) => (query.state.data?.judgement?.status === 'pending' ? 2000 : false),
  });
}
export type InvocationDetailData = NonNullable<ReturnType<typeof useInvocation>['data']>;

const FIELD_NAMES: Record<string, string> = {
  prompt: 'Prompt',
  response: 'Response',
  context: 'Context',
  tool_input: 'Tool input',
  tool_output: 'Tool output',
};

type Finding = { type: string; start: number; end: number; score: number; category?: string };

function markClass(f: Finding): string {
  const c = f.category ?? '';
  if (c === 'secret') return 'f-secret';
  if (c === 'pii') return 'f-pii';
  return 'f-other';
}

/** Stored (redacted) text with its findings marked by type; a mark's type is in its text for screen readers. */
export function Highlighted({ text, findings }: { text: string; findings: Finding[] }) {
  const sorted = [...findings].sort((a, b) => a.start - b.start);
  const out: React.ReactNode[] = [];
  let at = 0;
  sorted.forEach((f, i) => {
    if (f.start < at) return; // overlapping findings: the first one is shown
    if (f.start > at) out.push(text.slice(at, f.start));
    out.push(
      <mark key={i} className={markClass(f)} title={`${f.type} (score ${f.score.toFixed(2)})`}>
        {text.slice(f.start, f.end)}
        <span className="sr-only"> ({f.type})</span>
      </mark>,
    );
    at = f.end;
  });
  out.push(text.slice(at));
  return (
    <pre
      tabIndex={0}
      className="mono max-h-64 overflow-auto whitespace-pre-wrap break-words rounded border border-line bg-surface p-2"
    >
      {out}
    </pre>
  );
}

export function InvocationDetail({
  id,
  onClose,
  onSelect,
  headingRef,
}: {
  id: number;
  onClose?: () => void;
  onSelect?: (id: number) => void;
  headingRef?: React.Ref<HTMLHeadingElement>;
}) {
  const session = useSession();
  const role = session.account.role;
  const prefs = usePrefs();
  const q = useInvocation(id);
  const reason = useReasonText(role);
  if (q.isLoading) return <Loading label={`Loading invocation ${id}`} />;
  if (q.error) return <ProblemView error={q.error} retry={() => void q.refetch()} />;
  const d = q.data!;
  const t = d.trace;
  const item = (
    x: {
      invocation_id: number;
      agent_key: string;
      tool_name: string | null;
      verdict: 'allow' | 'flag_for_review' | 'deny';
    },
    current = false,
  ): TreeNode => ({
    id: String(x.invocation_id),
    text: `Invocation ${x.invocation_id}, ${x.agent_key}${x.tool_name ? `, ${x.tool_name}` : ''}, ${x.verdict}${current ? ', this one' : ''}`,
    current,
    label: (
      <span className="flex items-center gap-2">
        <span className="mono">#{x.invocation_id}</span>
        <span>{x.agent_key}</span>
        {x.tool_name && <span className="text-muted">{x.tool_name}</span>}
        <Verdict v={x.verdict} />
      </span>
    ),
  });
  const self: TreeNode = { ...item(d, true), children: t.children.map((c) => item(c)) };
  const nodes: TreeNode[] = t.parent ? [{ ...item(t.parent), children: [self] }] : [self];
  if (t.siblings.length) {
    nodes.push({
      id: 'siblings',
      text: `Same correlation id, ${t.siblings.length} invocations`,
      label: (
        <span className="text-muted">
          Same correlation id ({t.siblings.length}
          {t.siblings_truncated ? '+' : ''})
        </span>
      ),
      children: t.siblings.map((s) => item(s)),
    });
  }

  return (
    <div className="space-y-5 p-4">
      <div className="flex items-start justify-between gap-2">
        <div>
          <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
            Invocation <span className="font-mono">#{d.invocation_id}</span>
          </h2>
          <p className="text-muted">
            Recorded <time dateTime={d.created_at}>{formatTime(d.created_at, prefs.zone)}</time>
            {Date.parse(d.occurred_at) !== Date.parse(d.created_at) && (
              <>
                {' · '}happened <time dateTime={d.occurred_at}>{formatTime(d.occurred_at, prefs.zone)}</time>
              </>
            )}
          </p>
        </div>
        {onClose && (
          <button type="button" className="btn btn-sm" onClick={onClose} aria-keyshortcuts="Escape">
            Close <kbd className="text-xs text-muted">Esc</kbd>
          </button>
        )}
      </div>

      <section aria-label="Verdict and reasons" className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <Verdict v={d.verdict} />
          {d.review_status && (
            <Badge tone={d.review_status === 'pending' ? 'flag' : 'neutral'}>Review: {d.review_status}</Badge>
          )}
          <Badge>{d.mode}</Badge>
          <span className="text-muted">policy v{d.policy_version}</span>
        </div>
        {d.reasons.length ? (
          <ul className="list-disc space-y-1 pl-5">
            {d.reasons.map((r) => (
              <li key={r}>
                {reason(r)} <code className="mono text-muted">{r}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted">No rule fired: the policy's default verdict applied.</p>
        )}
        {d.review && (
          <div className="rounded border border-line p-2">
            <p>
              <strong>{d.review.decision === 'approve' ? 'Approved' : 'Rejected'}</strong>
              {d.review.decided_by_panel ? ' by the judge panel (unanimous)' : ''}{' '}
              {formatTime(d.review.decided_at, prefs.zone)}
            </p>
            {d.review.note !== undefined && <p className="mt-1 whitespace-pre-wrap">{d.review.note}</p>}
            <p className="text-sm text-muted">Review entry: evidence {d.review.evidence_id}</p>
          </div>
        )}
      </section>

      <section aria-label="Metadata">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted">Agent</dt>
          <dd className="mono">{d.agent_key}</dd>
          <dt className="text-muted">Tool</dt>
          <dd className="mono">{d.tool_name ?? '—'}</dd>
          <dt className="text-muted">Outcome</dt>
          <dd>{d.outcome}</dd>
          <dt className="text-muted">Principal</dt>
          <dd>
            {d.principal_kind ?? '—'} <span className="mono">{d.principal_id}</span>
          </dd>
          <dt className="text-muted">Correlation id</dt>
          <dd className="mono break-all">{d.correlation_id ?? '—'}</dd>
          <dt className="text-muted">Duration</dt>
          <dd>{d.duration_ms === null ? '—' : `${formatNumber(d.duration_ms)} ms`}</dd>
          <dt className="text-muted">Output scan</dt>
          <dd>
            {d.output_scan.status === 'none' && 'No tool output'}
            {d.output_scan.status === 'pending' && (
              <Badge tone="flag">Pending: tool output withheld until scanned</Badge>
            )}
            {d.output_scan.status === 'done' && (
              <span className="inline-flex items-center gap-2">
                Scanned <Verdict v={d.output_scan.verdict} />
                {d.output_scan.reasons?.map((r) => (
                  <code key={r} className="mono text-muted">
                    {r}
                  </code>
                ))}
              </span>
            )}
          </dd>
        </dl>
      </section>

      <JudgementPanel id={id} judgement={d.judgement} role={role} />

      <section aria-labelledby={`content-${id}`} className="space-y-3">
        <h3 id={`content-${id}`} className="font-semibold">
          Content
        </h3>
        {d.finding_counts.length > 0 && (
          <ul className="flex flex-wrap gap-2 text-sm">
            {d.finding_counts.flatMap((fc) =>
              Object.entries(fc.counts).map(([type, n]) => (
                <li key={fc.field + type}>
                  <Badge>
                    {FIELD_NAMES[fc.field]}: {type} × {n}
                  </Badge>
                </li>
              )),
            )}
          </ul>
        )}
        {!can.seeContent(role) ? (
          <p role="note" className="rounded border border-line-strong bg-surface p-2" data-testid="no-content">
            The {roleNames[role]} role sees finding types and counts, not stored content.
          </p>
        ) : d.content && d.content.length ? (
          d.content.map((c) => (
            <div key={c.field}>
              <p className="label">{FIELD_NAMES[c.field]}</p>
              {c.text === null ? (
                <p className="text-muted">
                  {c.scan_pending ? 'Withheld until its background scan is done.' : 'Not stored.'}
                </p>
              ) : (
                <Highlighted text={c.text} findings={c.findings ?? []} />
              )}
            </div>
          ))
        ) : (
          <p className="text-muted">No content was stored.</p>
        )}
      </section>

      <section aria-labelledby={`trace-${id}`} className="space-y-2">
        <h3 id={`trace-${id}`} className="font-semibold">
          Trace
        </h3>
        <TreeView
          label={`Trace of invocation ${id}`}
          nodes={nodes}
          onActivate={(nid) => nid !== 'siblings' && onSelect?.(Number(nid))}
        />
        {t.children_truncated && <p className="text-sm text-muted">Only the first 100 children are shown.</p>}
      </section>

      <EvidencePanel evidenceId={d.evidence_id} />
    </div>
  );
}

export function useFocusOnChange(dep: unknown) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [dep]);
  return ref;
}
