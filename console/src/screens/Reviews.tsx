import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { api, ApiError, call } from '../api/client';
import { EvidencePanel } from '../components/EvidencePanel';
import { InvocationDetail } from '../components/InvocationDetail';
import { Empty, Loading, NotAllowed, PageHeader, ProblemView, useAnnounce, Verdict } from '../components/ui';
import { usePrefs } from '../lib/prefs';
import { can, roleNames } from '../lib/roles';
import { clean } from '../lib/search';
import { useSession } from '../lib/session';
import { formatNumber, formatTime, zoneLabel } from '../lib/time';

type Search = { status?: string; cursor?: string; view?: string };

export function Reviews({ search }: { search: Record<string, string | undefined> }) {
  const s = search as Search;
  const session = useSession();
  const navigate = useNavigate();
  const view = s.view === 'list' ? 'list' : 'queue';
  const canReview = can.review(session.account.role);
  return (
    <div>
      <PageHeader title="Review queue">
        <div role="group" aria-label="View" className="flex gap-1">
          <button
            type="button"
            className={`btn btn-sm ${view === 'queue' ? 'btn-primary' : ''}`}
            aria-pressed={view === 'queue'}
            onClick={() => void navigate({ to: '/reviews', search: {} })}
          >
            Review one by one
          </button>
          <button
            type="button"
            className={`btn btn-sm ${view === 'list' ? 'btn-primary' : ''}`}
            aria-pressed={view === 'list'}
            onClick={() => void navigate({ to: '/reviews', search: { view: 'list' } as never })}
          >
            List and bulk actions
          </button>
        </div>
      </PageHeader>
      {view === 'queue' ? (
        canReview ? (
          <Queue />
        ) : (
          <NotAllowed
            role={roleNames[session.account.role]}
            what="decide reviews; the list shows the queue and past decisions"
          />
        )
      ) : (
        <ReviewList search={s} canReview={canReview} />
      )}
    </div>
  );
}

interface Decided {
  invocation_id: number;
  decision: 'approve' | 'reject';
  evidence_id: number;
}

/** One item at a time, oldest first, leased so no other reviewer gets it. Keyboard first. */
function Queue() {
  const announce = useAnnounce();
  const qc = useQueryClient();
  const [exclude, setExclude] = useState<number[]>([]);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const [done, setDone] = useState<Decided[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const regionRef = useRef<HTMLDivElement>(null);
  const lease = useQuery({
    queryKey: ['review-lease', exclude],
    queryFn: () => call(api.POST('/api/v1/reviews/lease', { body: { exclude } })),
    gcTime: 0,
  });
  const current = lease.data?.invocation_id ?? null;
  useEffect(() => {
    if (current !== null) {
      announce(`Reviewing invocation ${current}. ${lease.data?.pending ?? 0} pending.`);
      regionRef.current?.focus();
    }
  }, [current, announce, lease.data?.pending]);

  async function decide(decision: 'approve' | 'reject') {
    if (current === null || busy) return;
    if (!note.trim()) {
      setNoteError('Write a note before you approve or reject.');
      announce('A note is required.');
      noteRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const r = await call(
        api.POST('/api/v1/reviews/{invocation_id}', {
          params: { path: { invocation_id: current } },
          body: { decision, note },
        }),
      );
      setDone((d) => [{ invocation_id: current, decision, evidence_id: r.evidence_id }, ...d]);
      announce(`${decision === 'approve' ? 'Approved' : 'Rejected'} invocation ${current}. Review entry recorded.`);
      setNote('');
      setNoteError(null);
      await qc.invalidateQueries({ queryKey: ['review-lease'] });
      void qc.invalidateQueries({ queryKey: ['reviews'] });
    } catch (e) {
      setError(e);
      if (e instanceof ApiError && e.status === 409) await qc.invalidateQueries({ queryKey: ['review-lease'] });
    } finally {
      setBusy(false);
    }
  }
  const skip = () => current !== null && setExclude((x) => [...x, current]);
  const back = () => setExclude((x) => x.slice(0, -1));

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const t = e.target as HTMLElement;
      if (t === noteRef.current) {
        if (e.key === 'Escape') {
          regionRef.current?.focus();
          e.preventDefault();
        } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          void decide(e.shiftKey ? 'reject' : 'approve');
          e.preventDefault();
        }
        return;
      }
      if (t.closest('input, textarea, select, [role="tree"], dialog, button, a') || e.metaKey || e.ctrlKey || e.altKey)
        return;
      const k = e.key;
      if (k === 'a') void decide('approve');
      else if (k === 'r') void decide('reject');
      else if (k === 'n' || k === 'ArrowRight' || k === 'j') skip();
      else if (k === 'p' || k === 'ArrowLeft' || k === 'k') back();
      else if (k === 'e') noteRef.current?.focus();
      else return;
      e.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (lease.isLoading) return <Loading label="Taking the next item" />;
  if (lease.error) return <ProblemView error={lease.error} retry={() => void lease.refetch()} />;
  const last = done[0];
  return (
    <div className="grid gap-4 p-4 lg:grid-cols-[1fr_320px]">
      <div>
        <p className="mb-2 text-sm text-muted" aria-live="off">
          {formatNumber(lease.data?.pending ?? 0)} pending · {done.length} decided by you this session
          {exclude.length ? ` · ${exclude.length} skipped` : ''}
        </p>
        {current === null ? (
          <Empty title={exclude.length ? 'No more items beyond the ones you skipped' : 'All items reviewed'}>
            {exclude.length > 0 && (
              <button type="button" className="btn btn-sm mt-2" onClick={() => setExclude([])}>
                Go back to the skipped items
              </button>
            )}
          </Empty>
        ) : (
          <div
            ref={regionRef}
            tabIndex={-1}
            aria-label={`Review of invocation ${current}`}
            role="region"
            className="card outline-none focus-visible:outline-2"
          >
            <InvocationDetail id={current} />
            <div className="space-y-3 border-t border-line p-4">
              <label className="label" htmlFor="review-note">
                Note (required; kept with the decision, committed to in the audit trail)
              </label>
              <textarea
                id="review-note"
                ref={noteRef}
                className="textarea"
                value={note}
                maxLength={2000}
                aria-invalid={noteError ? true : undefined}
                aria-describedby="note-help"
                onChange={(e) => {
                  setNote(e.target.value);
                  if (e.target.value.trim()) setNoteError(null);
                }}
              />
              <p id="note-help" className={`text-sm ${noteError ? 'text-deny font-semibold' : 'text-muted'}`}>
                {noteError ?? 'Ctrl+Enter approves, Ctrl+Shift+Enter rejects, Esc leaves the note.'}
              </p>
              {error !== null && <ProblemView error={error} />}
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={busy}
                  onClick={() => void decide('approve')}
                >
                  Approve <kbd className="text-xs">a</kbd>
                </button>
                <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void decide('reject')}>
                  Reject <kbd className="text-xs">r</kbd>
                </button>
                <button type="button" className="btn" onClick={skip}>
                  Skip <kbd className="text-xs">n</kbd>
                </button>
                <button type="button" className="btn" onClick={back} disabled={!exclude.length}>
                  Previous skipped <kbd className="text-xs">p</kbd>
                </button>
              </div>
            </div>
          </div>
        )}
      </div>
      <aside aria-label="Your decisions" className="space-y-3">
        <div className="card p-3 text-sm">
          <h2 className="font-semibold">Keys</h2>
          <ul className="mt-1 space-y-0.5 text-muted">
            <li>
              <kbd>e</kbd> write the note · <kbd>Esc</kbd> leave it
            </li>
            <li>
              <kbd>a</kbd> approve · <kbd>r</kbd> reject
            </li>
            <li>
              <kbd>n</kbd>/<kbd>→</kbd> skip · <kbd>p</kbd>/<kbd>←</kbd> previous skipped
            </li>
          </ul>
          <p className="mt-2 text-muted">Items are leased to you for 5 minutes so no other reviewer takes them.</p>
        </div>
        {last && (
          <div className="card p-3" data-testid="last-decision">
            <p className="font-semibold">
              {last.decision === 'approve' ? 'Approved' : 'Rejected'} invocation #{last.invocation_id}
            </p>
            <EvidencePanel evidenceId={last.evidence_id} title="Signed review entry" />
          </div>
        )}
      </aside>
    </div>
  );
}

function ReviewList({ search, canReview }: { search: Search; canReview: boolean }) {
  const prefs = usePrefs();
  const navigate = useNavigate();
  const announce = useAnnounce();
  const qc = useQueryClient();
  const status = (search.status ?? 'pending') as 'pending' | 'approved' | 'rejected';
  const q = useQuery({
    queryKey: ['reviews', status, search.cursor],
    queryFn: () =>
      call(
        api.GET('/api/v1/reviews', {
          params: { query: clean({ status, cursor: search.cursor, limit: 50 as unknown as string }) as never },
        }),
      ),
  });
  const [sel, setSel] = useState<Set<number>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [note, setNote] = useState('');
  const [progress, setProgress] = useState<string | null>(null);
  const set = (p: Search) =>
    void navigate({ to: '/reviews', search: clean({ view: 'list', status, cursor: search.cursor, ...p }) as never });
  const items = q.data?.items ?? [];

  async function bulk(decision: 'approve' | 'reject') {
    if (!note.trim()) {
      setProgress('Write a note for the bulk decision first.');
      return;
    }
    let ids = [...sel];
    if (allMatching) {
      ids = [];
      let cursor: string | undefined;
      do {
        const page = await call(
          api.GET('/api/v1/reviews', {
            params: { query: clean({ status: 'pending', cursor, limit: 200 as unknown as string }) as never },
          }),
        );
        ids.push(...page.items.map((i) => i.invocation_id));
        cursor = page.next_cursor ?? undefined;
      } while (cursor && ids.length < 10_000);
    }
    let ok = 0;
    const failed: string[] = [];
    for (const id of ids) {
      try {
        await call(
          api.POST('/api/v1/reviews/{invocation_id}', {
            params: { path: { invocation_id: id } },
            body: { decision, note },
          }),
        );
        ok++;
      } catch (e) {
        failed.push(`#${id}: ${e instanceof ApiError ? e.detail : String(e)}`);
      }
      setProgress(`${ok + failed.length} of ${ids.length} done`);
    }
    const msg = `${decision === 'approve' ? 'Approved' : 'Rejected'} ${ok} of ${ids.length}.${failed.length ? ` ${failed.length} failed: ${failed.slice(0, 3).join('; ')}` : ''}`;
    setProgress(msg);
    announce(msg);
    setSel(new Set());
    setAllMatching(false);
    await qc.invalidateQueries({ queryKey: ['reviews'] });
  }

  return (
    <div>
      <div className="flex flex-wrap items-end gap-3 border-b border-line px-4 py-3">
        <div>
          <label className="label" htmlFor="r-status">
            Status
          </label>
          <select
            id="r-status"
            className="select"
            value={status}
            onChange={(e) => set({ status: e.target.value, cursor: undefined })}
          >
            <option value="pending">Pending</option>
            <option value="approved">Approved</option>
            <option value="rejected">Rejected</option>
          </select>
        </div>
        {canReview && status === 'pending' && (
          <div className="flex flex-wrap items-end gap-2" role="group" aria-label="Bulk decision">
            <div>
              <label className="label" htmlFor="bulk-note">
                Note for the selected items
              </label>
              <input id="bulk-note" className="input w-64" value={note} onChange={(e) => setNote(e.target.value)} />
            </div>
            <label className="flex items-center gap-1 text-sm">
              <input type="checkbox" checked={allMatching} onChange={(e) => setAllMatching(e.target.checked)} /> All
              pending items
            </label>
            <button
              type="button"
              className="btn btn-sm"
              disabled={!sel.size && !allMatching}
              onClick={() => void bulk('approve')}
            >
              Approve {allMatching ? 'all' : sel.size}
            </button>
            <button
              type="button"
              className="btn btn-sm btn-danger"
              disabled={!sel.size && !allMatching}
              onClick={() => void bulk('reject')}
            >
              Reject {allMatching ? 'all' : sel.size}
            </button>
          </div>
        )}
      </div>
      {progress && (
        <p className="px-4 py-2 text-sm" role="status">
          {progress}
        </p>
      )}
      {q.error ? (
        <ProblemView error={q.error} retry={() => void q.refetch()} />
      ) : q.isLoading ? (
        <Loading />
      ) : items.length === 0 ? (
        <Empty title={status === 'pending' ? 'Nothing awaits review' : `No ${status} reviews yet`}>
          Flagged invocations appear here.
        </Empty>
      ) : (
        <div className="overflow-x-auto" role="region" aria-label="Reviews table" tabIndex={0}>
          <table className="data">
            <caption className="sr-only">Reviews with status {status}, newest first</caption>
            <thead>
              <tr>
                {canReview && status === 'pending' && (
                  <th scope="col">
                    <span className="sr-only">Select</span>
                  </th>
                )}
                <th scope="col" aria-sort="descending">
                  Time ({zoneLabel(prefs.zone)})
                </th>
                <th scope="col">ID</th>
                <th scope="col">Agent</th>
                <th scope="col">Tool</th>
                <th scope="col">Verdict</th>
                <th scope="col">Judge panel</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.invocation_id}>
                  {canReview && status === 'pending' && (
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select invocation ${r.invocation_id}`}
                        checked={sel.has(r.invocation_id)}
                        onChange={(e) => {
                          const n = new Set(sel);
                          if (e.target.checked) n.add(r.invocation_id);
                          else n.delete(r.invocation_id);
                          setSel(n);
                        }}
                      />
                    </td>
                  )}
                  <td className="whitespace-nowrap tabular-nums">{formatTime(r.created_at, prefs.zone)}</td>
                  <td className="mono">#{r.invocation_id}</td>
                  <td className="mono">{r.agent_key}</td>
                  <td className="mono">{r.tool_name ?? '—'}</td>
                  <td>
                    <Verdict v={r.verdict} />
                  </td>
                  <td>{panelText(r.judgement)}</td>
                  <td className="wrap">
                    {r.review
                      ? `${r.review.decision === 'approve' ? 'Approved' : 'Rejected'}${r.review.decided_by_panel ? ' by the panel' : ''}${r.review.note !== undefined ? `: ${r.review.note}` : ''}`
                      : 'Pending'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label="Pages" className="flex gap-2 px-4 py-3">
            <button
              type="button"
              className="btn btn-sm"
              disabled={!search.cursor}
              onClick={() => set({ cursor: undefined })}
            >
              ⇤ Newest
            </button>
            <button
              type="button"
              className="btn btn-sm"
              disabled={!q.data?.next_cursor}
              onClick={() => set({ cursor: q.data!.next_cursor! })}
            >
              Older →
            </button>
          </nav>
        </div>
      )}
    </div>
  );
}

/** The panel's opinion in a table cell: its decision and how the judges split. */
function panelText(j: { status: string; decision: string | null; judges: { verdict: string }[] } | null): string {
  if (j === null) return '—';
  if (j.status === 'pending') return 'Reviewing…';
  if (j.status === 'failed') return 'Could not run';
  if (j.decision === null) return 'No calls left';
  const split = ['allow', 'deny', 'uncertain', 'abstained']
    .map((v) => [v, j.judges.filter((x) => x.verdict === v).length] as const)
    .filter(([, n]) => n > 0);
  return `${j.decision} (${split.map(([v, n]) => `${n} ${v}`).join(', ')})`;
}
