import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { paths } from '@agent-ledger/client/schema';
import { useEffect, useRef, useState } from 'react';
import { api, ApiError, call } from '../api/client';
import { Highlighted, useInvocation } from '../components/InvocationDetail';
import { Badge, Empty, Loading, PageHeader, ProblemView, useAnnounce, Verdict } from '../components/ui';
import { APPROVALS_PAGE } from '../lib/approvals';
import { usePrefs } from '../lib/prefs';
import { useReasonText } from '../lib/reasons';
import { can, roleNames } from '../lib/roles';
import { clean } from '../lib/search';
import { useSession } from '../lib/session';
import { formatTime, zoneLabel } from '../lib/time';

/** An approval as the API answers it (the generated API types, not a copy that could drift from them). */
type ApprovalItem = paths['/api/v1/approvals/{approval_id}']['get']['responses'][200]['content']['application/json'];
type Status = ApprovalItem['status'];
const STATUSES: ReadonlyArray<[Status, string]> = [
  ['pending', 'Pending'],
  ['approved', 'Approved'],
  ['denied', 'Denied'],
  ['expired', 'Expired'],
];

/** Now, moving every second: the countdowns. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** "4:05", "1:02:09"; what is left of a hold, to the second. */
export function formatLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}
/** The same in words, for screen readers. */
function spokenLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [h && `${h} hour${h === 1 ? '' : 's'}`, m && `${m} minute${m === 1 ? '' : 's'}`, `${s % 60} seconds`];
  return `${parts.filter(Boolean).join(' ')} left`;
}

export function Approvals({ search }: { search: Record<string, string | undefined> }) {
  const session = useSession();
  const role = session.account.role;
  const canDecide = can.decideApprovals(role);
  const navigate = useNavigate();
  const announce = useAnnounce();
  const qc = useQueryClient();
  const prefs = usePrefs();
  const now = useNow();
  const status: Status = STATUSES.some(([s]) => s === search.status) ? (search.status as Status) : 'pending';
  const set = (p: Record<string, string | undefined>, replace = false) =>
    void navigate({
      to: '/approvals',
      search: clean({ status: search.status, cursor: search.cursor, selected: search.selected, ...p }) as never,
      replace,
    });

  const q = useQuery({
    queryKey: ['approvals', status, search.cursor],
    queryFn: () =>
      call(
        api.GET('/api/v1/approvals', {
          params: { query: clean({ status, cursor: search.cursor, limit: String(APPROVALS_PAGE) }) as never },
        }),
      ),
    // New held calls arrive while the inbox is open.
    refetchInterval: status === 'pending' ? 5_000 : 30_000,
  });
  // Decided here: gone from the pending list at once, before the list is read again.
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());
  const listed = (q.data?.items ?? []).filter((a) => a.status !== 'pending' || !decided.has(a.approval_id));
  // Pending: the one that runs out first on top. Decided: newest first, as the API answers.
  const items =
    status === 'pending' ? [...listed].sort((a, b) => Date.parse(a.expires_at) - Date.parse(b.expires_at)) : listed;
  const selectedId = search.selected ?? items[0]?.approval_id ?? null;
  const idx = items.findIndex((a) => a.approval_id === selectedId);
  // A deep link to an approval not on this page (another status, or decided since): read it alone.
  const single = useQuery({
    queryKey: ['approval', selectedId],
    enabled: selectedId !== null && idx < 0 && !q.isLoading,
    queryFn: () => call(api.GET('/api/v1/approvals/{approval_id}', { params: { path: { approval_id: selectedId! } } })),
  });
  const current: ApprovalItem | null = idx >= 0 ? items[idx]! : (single.data ?? null);

  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [last, setLast] = useState<ApprovalItem | null>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const regionRef = useRef<HTMLDivElement>(null);
  const moved = useRef(false);

  // A new item: its own note, no old error; focus follows a move made from the keyboard.
  useEffect(() => {
    setNote('');
    setNoteError(null);
    setError(null);
    if (moved.current) {
      regionRef.current?.focus();
      moved.current = false;
    }
  }, [current?.approval_id]);

  const leftMs = current ? Date.parse(current.expires_at) - now : 0;
  const open = current?.status === 'pending' && leftMs > 0;
  // Run out on this screen: ask the service, which expires it then and there (expiry is a deny).
  const expiredHere = current?.status === 'pending' && leftMs <= 0 ? current.approval_id : null;
  useEffect(() => {
    if (!expiredHere) return;
    const t = setTimeout(async () => {
      await call(api.GET('/api/v1/approvals/{approval_id}', { params: { path: { approval_id: expiredHere } } })).catch(
        () => {},
      );
      void qc.invalidateQueries({ queryKey: ['approvals'] });
    }, 1000);
    return () => clearTimeout(t);
  }, [expiredHere, qc]);

  function move(by: number) {
    if (!items.length) return;
    const next = idx < 0 ? 0 : Math.min(items.length - 1, Math.max(0, idx + by));
    moved.current = true;
    set({ selected: items[next]!.approval_id }, true);
  }

  async function decide(decision: 'approve' | 'deny') {
    if (!current || !open || busy || !canDecide) return;
    if (!note.trim()) {
      setNoteError('Write a note before you approve or deny.');
      announce('A note is required.');
      noteRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const r = await call(
        api.POST('/api/v1/approvals/{approval_id}/decision', {
          params: { path: { approval_id: current.approval_id } },
          body: { decision, note },
        }),
      );
      setLast(r);
      setDecided((d) => new Set(d).add(current.approval_id));
      announce(
        `${decision === 'approve' ? 'Approved' : 'Denied'} ${current.tool_name ?? 'the call'} for ${current.agent_key}. Decision recorded.`,
      );
      // The next one in the list takes its place.
      const rest = items.filter((a) => a.approval_id !== current.approval_id);
      const next = rest[Math.min(Math.max(idx, 0), rest.length - 1)];
      moved.current = true;
      set({ selected: next?.approval_id }, true);
      await qc.invalidateQueries({ queryKey: ['approvals'] });
    } catch (e) {
      setError(e);
      if (e instanceof ApiError && e.status === 409) void qc.invalidateQueries({ queryKey: ['approvals'] });
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const t = e.target as HTMLElement;
      if (t === noteRef.current) {
        if (e.key === 'Escape') {
          regionRef.current?.focus();
          e.preventDefault();
        } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          void decide(e.shiftKey ? 'deny' : 'approve');
          e.preventDefault();
        }
        return;
      }
      if (t.closest('input, textarea, select, [role="tree"], dialog') || e.metaKey || e.ctrlKey || e.altKey) return;
      const k = e.key;
      if (k === 'j' || k === 'ArrowDown') move(1);
      else if (k === 'k' || k === 'ArrowUp') move(-1);
      else if (k === 'a') void decide('approve');
      else if (k === 'd' || k === 'r') void decide('deny');
      else if (k === 'e' && open && canDecide) noteRef.current?.focus();
      else return;
      e.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <div>
      <PageHeader title="Approvals">
        <div role="group" aria-label="Status" className="flex gap-1">
          {STATUSES.map(([s, label]) => (
            <button
              key={s}
              type="button"
              className={`btn btn-sm ${status === s ? 'btn-primary' : ''}`}
              aria-pressed={status === s}
              onClick={() =>
                void navigate({ to: '/approvals', search: (s === 'pending' ? {} : { status: s }) as never })
              }
            >
              {label}
            </button>
          ))}
        </div>
      </PageHeader>
      {q.error ? (
        <ProblemView error={q.error} retry={() => void q.refetch()} />
      ) : q.isLoading ? (
        <Loading label="Loading approvals" />
      ) : (
        <div className="grid gap-4 p-4 lg:grid-cols-[minmax(260px,360px)_1fr_260px]">
          <section aria-labelledby="approvals-list">
            <h2 id="approvals-list" className="mb-2 text-sm font-semibold text-muted">
              {items.length}
              {q.data?.next_cursor ? '+' : ''} {STATUSES.find(([s]) => s === status)![1].toLowerCase()}
              {status === 'pending' ? ', soonest to expire first' : `, newest first (${zoneLabel(prefs.zone)})`}
            </h2>
            {items.length === 0 ? (
              <Empty title={status === 'pending' ? 'Nothing waits for a decision' : `No ${status} approvals`}>
                Calls held by a policy rule with <code className="mono">"hold": true</code> appear here.
              </Empty>
            ) : (
              <ul className="space-y-1" data-testid="approvals">
                {items.map((a) => {
                  const ms = Date.parse(a.expires_at) - now;
                  const selected = a.approval_id === current?.approval_id;
                  return (
                    <li key={a.approval_id}>
                      <button
                        type="button"
                        data-approval={a.approval_id}
                        aria-current={selected ? 'true' : undefined}
                        className={`w-full rounded border px-3 py-2 text-left ${selected ? 'border-accent bg-accent-soft' : 'border-line hover:bg-raised'}`}
                        onClick={() => set({ selected: a.approval_id }, true)}
                      >
                        <span className="flex justify-between gap-2">
                          <span className="mono font-semibold">{a.tool_name ?? '—'}</span>
                          <span className="mono text-sm text-muted">#{a.invocation_id}</span>
                        </span>
                        <span className="flex flex-wrap justify-between gap-2 text-sm">
                          <span className="mono">{a.agent_key}</span>
                          {a.status === 'pending' ? (
                            <span className={`tabular-nums ${ms < 60_000 ? 'font-semibold text-deny' : 'text-muted'}`}>
                              {ms > 0 ? `${formatLeft(ms)} left` : 'time is up'}
                            </span>
                          ) : (
                            <span className="tabular-nums text-muted">{formatTime(a.decided_at, prefs.zone)}</span>
                          )}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
            {(search.cursor || q.data?.next_cursor) && (
              <nav aria-label="Pages" className="flex gap-2 py-3">
                <button
                  type="button"
                  className="btn btn-sm"
                  disabled={!search.cursor}
                  onClick={() => set({ cursor: undefined, selected: undefined })}
                >
                  ⇤ First page
                </button>
                <button
                  type="button"
                  className="btn btn-sm"
                  disabled={!q.data?.next_cursor}
                  onClick={() => set({ cursor: q.data!.next_cursor!, selected: undefined })}
                >
                  Older →
                </button>
              </nav>
            )}
          </section>
          <div>
            {current ? (
              <div
                ref={regionRef}
                tabIndex={-1}
                role="region"
                aria-label={`Approval of ${current.tool_name ?? 'a call'} by ${current.agent_key}`}
                className="card outline-none focus-visible:outline-2"
                data-testid="approval"
              >
                <ApprovalDetail approval={current} leftMs={leftMs} />
                {current.status === 'pending' && (
                  <div className="space-y-3 border-t border-line p-4">
                    {canDecide ? (
                      <>
                        <label className="label" htmlFor="approval-note">
                          Note (required; kept with the decision, committed to in the audit trail, the agent reads it)
                        </label>
                        <textarea
                          id="approval-note"
                          ref={noteRef}
                          className="textarea"
                          value={note}
                          maxLength={2000}
                          disabled={!open}
                          aria-invalid={noteError ? true : undefined}
                          aria-describedby="approval-note-help"
                          onChange={(e) => {
                            setNote(e.target.value);
                            if (e.target.value.trim()) setNoteError(null);
                          }}
                        />
                        <p
                          id="approval-note-help"
                          className={`text-sm ${noteError ? 'font-semibold text-deny' : 'text-muted'}`}
                        >
                          {noteError ?? 'Ctrl+Enter approves, Ctrl+Shift+Enter denies, Esc leaves the note.'}
                        </p>
                      </>
                    ) : (
                      <p id="no-decide" role="note" className="rounded border border-line-strong bg-surface p-2">
                        The {roleNames[role]} role can see approvals but not decide them: admins and operators decide.
                      </p>
                    )}
                    {!open && canDecide && (
                      <p role="note" className="text-sm text-muted">
                        Its time is up: it is being expired (expiry is a deny).
                      </p>
                    )}
                    {error !== null && <ProblemView error={error} />}
                    <div className="flex flex-wrap gap-2">
                      <button
                        type="button"
                        className="btn btn-primary"
                        disabled={busy || !open || !canDecide}
                        aria-describedby={canDecide ? undefined : 'no-decide'}
                        onClick={() => void decide('approve')}
                      >
                        Approve <kbd className="text-xs">a</kbd>
                      </button>
                      <button
                        type="button"
                        className="btn btn-danger"
                        disabled={busy || !open || !canDecide}
                        aria-describedby={canDecide ? undefined : 'no-decide'}
                        onClick={() => void decide('deny')}
                      >
                        Deny <kbd className="text-xs">d</kbd>
                      </button>
                    </div>
                  </div>
                )}
              </div>
            ) : single.error ? (
              <ProblemView error={single.error} />
            ) : items.length > 0 || single.isLoading ? (
              <Loading label="Loading the approval" />
            ) : null}
          </div>
          <aside aria-label="Keys and your last decision" className="space-y-3">
            <div className="card p-3 text-sm">
              <h2 className="font-semibold">Keys</h2>
              <ul className="mt-1 space-y-0.5 text-muted">
                <li>
                  <kbd>j</kbd>/<kbd>↓</kbd> next · <kbd>k</kbd>/<kbd>↑</kbd> previous
                </li>
                <li>
                  <kbd>e</kbd> write the note · <kbd>Esc</kbd> leave it
                </li>
                <li>
                  <kbd>a</kbd> approve · <kbd>d</kbd> deny (<kbd>r</kbd> too, as in the review queue)
                </li>
              </ul>
              <p className="mt-2 text-muted">
                A held call waits for one decision; when its time is up it is expired, which is a deny.
              </p>
            </div>
            {last && (
              <div className="card p-3 text-sm" data-testid="last-decision">
                <p className="font-semibold">
                  {last.status === 'approved' ? 'Approved' : 'Denied'} {last.tool_name ?? 'the call'} for{' '}
                  <span className="mono">{last.agent_key}</span>
                </p>
                <p className="text-muted">
                  Invocation #{last.invocation_id} · decision entry: evidence {last.decision_evidence_id}
                </p>
              </div>
            )}
          </aside>
        </div>
      )}
    </div>
  );
}

/** What the agent wants to do: the tool and its input as stored (redacted), who asks, why it is held, the time left. */
function ApprovalDetail({ approval: a, leftMs }: { approval: ApprovalItem; leftMs: number }) {
  const session = useSession();
  const role = session.account.role;
  const prefs = usePrefs();
  const inv = useInvocation(a.invocation_id);
  const reason = useReasonText(role);
  const d = inv.data;
  const input = d?.content?.find((c) => c.field === 'tool_input');
  return (
    <div className="space-y-4 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold">
            <span className="mono">{a.tool_name ?? 'A tool call'}</span>{' '}
            <span className="font-normal text-muted">by</span> <span className="mono">{a.agent_key}</span>
          </h2>
          <p className="text-muted">
            Held <time dateTime={a.created_at}>{formatTime(a.created_at, prefs.zone)}</time> · invocation{' '}
            <a className="mono text-accent underline" href={`/console/invocations?selected=${a.invocation_id}`}>
              #{a.invocation_id}
            </a>
          </p>
        </div>
        {a.status === 'pending' ? (
          <p className="text-right">
            <span className="block text-sm text-muted">Time left</span>
            <span
              role="timer"
              aria-label={spokenLeft(leftMs)}
              className={`text-2xl font-semibold tabular-nums ${leftMs < 60_000 ? 'text-deny' : ''}`}
              data-testid="time-left"
            >
              {formatLeft(leftMs)}
            </span>
          </p>
        ) : (
          <Badge tone={a.status === 'approved' ? 'allow' : 'deny'}>
            {a.status === 'approved' ? 'Approved' : a.status === 'denied' ? 'Denied' : 'Expired (a deny)'}
          </Badge>
        )}
      </div>

      {a.status !== 'pending' && (
        <section aria-label="Decision" className="rounded border border-line p-2" data-testid="decision">
          <p>
            {a.status === 'expired' ? (
              <>Nobody decided before {formatTime(a.expires_at, prefs.zone)}: expired, which is a deny.</>
            ) : (
              <>
                <strong>{a.status === 'approved' ? 'Approved' : 'Denied'}</strong> by{' '}
                {a.decided_by === session.account.id ? 'you' : <span className="mono">{a.decided_by}</span>}{' '}
                {formatTime(a.decided_at, prefs.zone)}
              </>
            )}
          </p>
          {a.note !== undefined && a.note !== '' && <p className="mt-1 whitespace-pre-wrap">{a.note}</p>}
          {a.note_erased && <p className="mt-1 text-muted">The note was deleted by retention or an erasure.</p>}
          {a.status !== 'expired' && a.note === undefined && !a.note_erased && !can.seeContent(role) && (
            <p className="mt-1 text-muted">The {roleNames[role]} role does not see notes.</p>
          )}
          <p className="text-sm text-muted">Decision entry: evidence {a.decision_evidence_id}</p>
        </section>
      )}

      {inv.isLoading ? (
        <Loading label="Loading what the agent asked" rows={2} />
      ) : inv.error ? (
        <ProblemView error={inv.error} retry={() => void inv.refetch()} />
      ) : (
        d && (
          <>
            <section aria-label="Why it is held" className="space-y-1">
              <div className="flex flex-wrap items-center gap-2">
                <Verdict v={d.verdict} />
                <Badge>{d.mode}</Badge>
                <span className="text-muted">policy v{d.policy_version}</span>
              </div>
              <ul className="list-disc space-y-1 pl-5">
                {d.reasons.map((r) => (
                  <li key={r}>
                    {reason(r)} <code className="mono text-muted">{r}</code>
                  </li>
                ))}
              </ul>
            </section>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
              <dt className="text-muted">Agent</dt>
              <dd className="mono">{d.agent_key}</dd>
              <dt className="text-muted">Principal</dt>
              <dd>
                {d.principal_kind ?? '—'} <span className="mono">{d.principal_id}</span>
              </dd>
              <dt className="text-muted">Tool</dt>
              <dd className="mono">{d.tool_name ?? '—'}</dd>
            </dl>
            <section aria-labelledby={`input-${a.approval_id}`}>
              <h3 id={`input-${a.approval_id}`} className="label">
                Tool input (as stored: redacted)
              </h3>
              {!can.seeContent(role) ? (
                <p role="note" className="rounded border border-line-strong bg-surface p-2" data-testid="no-content">
                  The {roleNames[role]} role sees finding types and counts, not stored content.
                </p>
              ) : input?.text ? (
                <div data-testid="tool-input">
                  <Highlighted text={input.text} findings={input.findings ?? []} />
                </div>
              ) : input?.erased ? (
                <p className="text-muted">Erased.</p>
              ) : (
                <p className="text-muted">No tool input was recorded.</p>
              )}
              {d.finding_counts
                .filter((fc) => fc.field === 'tool_input')
                .flatMap((fc) => Object.entries(fc.counts))
                .map(([type, n]) => (
                  <span key={type} className="mr-1 mt-1 inline-block">
                    <Badge>
                      {type} × {n}
                    </Badge>
                  </span>
                ))}
            </section>
          </>
        )
      )}
    </div>
  );
}
