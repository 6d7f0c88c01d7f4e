import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { InvocationDetail, useFocusOnChange } from '../components/InvocationDetail';
import { Empty, Loading, PageHeader, ProblemView, useAnnounce, Verdict } from '../components/ui';
import { usePrefs } from '../lib/prefs';
import { clean } from '../lib/search';
import { formatNumber, formatTime, isoToLocalInput, localInputToIso, zoneLabel } from '../lib/time';
import { FirstSteps } from './FirstSteps';

export const INVOCATION_FILTERS = [
  'agent_key',
  'verdict',
  'mode',
  'correlation_id',
  'since',
  'until',
  'occurred_from',
  'occurred_to',
  'cursor',
  'selected',
] as const;
export type InvocationSearch = Partial<Record<(typeof INVOCATION_FILTERS)[number], string>>;

async function fetchPage(s: InvocationSearch) {
  const query = clean({
    agent_key: s.agent_key,
    verdict: s.verdict,
    mode: s.mode,
    correlation_id: s.correlation_id,
    since: s.since,
    until: s.until,
    occurred_from: s.occurred_from,
    occurred_to: s.occurred_to,
    cursor: s.cursor,
    limit: '50',
  }) as Record<string, string>;
  const page = await call(api.GET('/api/v1/invocations', { params: { query: query as never } }));
  // The explorer's render budget is measured from here (data in hand) to the rows on screen.
  performance.mark('explorer:data');
  return page;
}
type Row = Awaited<ReturnType<typeof fetchPage>>['items'][number];

const col = createColumnHelper<Row>();

export function Invocations({ search }: { search: InvocationSearch }) {
  const prefs = usePrefs();
  const navigate = useNavigate();
  const announce = useAnnounce();
  const filters = { ...search, selected: undefined };
  const q = useQuery({
    queryKey: ['invocations', clean({ ...filters })],
    queryFn: () => fetchPage(filters),
    placeholderData: keepPreviousData,
  });
  const set = (patch: InvocationSearch, replace = false) =>
    void navigate({ to: '/invocations', search: clean({ ...search, ...patch }) as never, replace });
  const selected = search.selected ? Number(search.selected) : null;

  const columns = [
    col.accessor('created_at', {
      header: `Recorded (${zoneLabel(prefs.zone)})`,
      cell: (c) => {
        const occurred = c.row.original.occurred_at;
        return (
          <>
            <time dateTime={c.getValue()} title={c.getValue()} className="whitespace-nowrap tabular-nums">
              {formatTime(c.getValue(), prefs.zone)}
            </time>
            {/* An event that says when it happened (an OTLP span's start) shows that time too. */}
            {Date.parse(occurred) !== Date.parse(c.getValue()) && (
              <span className="block text-xs text-muted">
                happened{' '}
                <time dateTime={occurred} title={occurred} className="tabular-nums">
                  {formatTime(occurred, prefs.zone)}
                </time>
              </span>
            )}
          </>
        );
      },
    }),
    col.accessor('invocation_id', { header: 'ID', cell: (c) => <span className="mono">#{c.getValue()}</span> }),
    col.accessor('agent_key', { header: 'Agent', cell: (c) => <span className="mono">{c.getValue()}</span> }),
    col.accessor('tool_name', { header: 'Tool', cell: (c) => <span className="mono">{c.getValue() ?? '—'}</span> }),
    col.accessor('verdict', { header: 'Verdict', cell: (c) => <Verdict v={c.getValue()} /> }),
    col.accessor('mode', { header: 'Mode' }),
    col.accessor('review_status', {
      header: 'Review',
      cell: (c) => {
        const v = c.getValue();
        return v === null ? '—' : v[0]!.toUpperCase() + v.slice(1);
      },
    }),
    col.accessor('pii_count', {
      header: 'PII',
      cell: (c) => <span className="num block">{formatNumber(c.getValue())}</span>,
    }),
  ];
  const table = useReactTable({
    data: q.data?.items ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => String(r.invocation_id),
  });

  // Render time of a page: data in hand → rows committed to the DOM.
  useLayoutEffect(() => {
    if (!q.data || q.isPlaceholderData) return;
    if (performance.getEntriesByName('explorer:data').length === 0) return;
    performance.mark('explorer:rendered');
    performance.measure('explorer:render', 'explorer:data', 'explorer:rendered');
    performance.clearMarks('explorer:data');
  }, [q.data, q.isPlaceholderData]);

  useEffect(() => {
    if (q.data && !q.isPlaceholderData)
      announce(`${q.data.items.length} invocations on this page${q.data.next_cursor ? ', more on the next' : ''}.`);
  }, [q.data, q.isPlaceholderData, announce]);

  const items = q.data?.items ?? [];
  const idx = items.findIndex((r) => r.invocation_id === selected);
  const open = (id: number | null) => set({ selected: id === null ? undefined : String(id) }, true);
  const tableRef = useRef<HTMLDivElement>(null);

  // j/k move through the page, Esc closes the panel; never while typing.
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [role="tree"], dialog') || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'j' || e.key === 'k') {
        if (!items.length) return;
        const next = idx < 0 ? 0 : Math.min(items.length - 1, Math.max(0, idx + (e.key === 'j' ? 1 : -1)));
        open(items[next]!.invocation_id);
        e.preventDefault();
      } else if (e.key === 'Escape' && selected !== null) {
        open(null);
        tableRef.current?.querySelector<HTMLElement>(`[data-row="${selected}"] button`)?.focus();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  const headingRef = useFocusOnChange(selected);

  const hasFilters = Object.keys(clean({ ...filters, cursor: undefined })).length > 0;
  return (
    <div className="flex h-full min-h-0">
      <div className="min-w-0 flex-1">
        <PageHeader title="Invocations">
          <span className="text-sm text-muted">Newest first · keys: j / k next / previous, Esc closes</span>
        </PageHeader>
        <Filters search={search} onApply={(f) => set({ ...f, cursor: undefined, selected: undefined })} />
        {q.error ? (
          <ProblemView error={q.error} retry={() => void q.refetch()} />
        ) : q.isLoading ? (
          <Loading label="Loading invocations" rows={8} />
        ) : items.length === 0 ? (
          hasFilters ? (
            <Empty title="No invocation matches these filters">
              <button
                type="button"
                className="btn btn-sm mt-2"
                onClick={() => void navigate({ to: '/invocations', search: {} })}
              >
                Clear filters
              </button>
            </Empty>
          ) : (
            <FirstSteps />
          )
        ) : (
          <>
            <div ref={tableRef} className="overflow-x-auto" role="region" aria-label="Invocations table" tabIndex={0}>
              <table className="data nowrap" aria-busy={q.isFetching}>
                <caption className="sr-only">Invocations, newest first{hasFilters ? ', filtered' : ''}</caption>
                <thead>
                  {table.getHeaderGroups().map((hg) => (
                    <tr key={hg.id}>
                      {hg.headers.map((h) => (
                        <th
                          key={h.id}
                          scope="col"
                          aria-sort={h.id === 'created_at' ? 'descending' : undefined}
                          className={h.id === 'pii_count' ? 'text-right' : undefined}
                        >
                          {flexRender(h.column.columnDef.header, h.getContext())}
                          {h.id === 'created_at' && <span aria-hidden="true"> ↓</span>}
                        </th>
                      ))}
                    </tr>
                  ))}
                </thead>
                <tbody>
                  {table.getRowModel().rows.map((r) => (
                    <tr
                      key={r.id}
                      data-row={r.id}
                      aria-selected={r.original.invocation_id === selected}
                      onClick={() => open(r.original.invocation_id)}
                      className="cursor-pointer"
                    >
                      {r.getVisibleCells().map((c, i) => (
                        <td key={c.id}>
                          {i === 1 ? (
                            <button
                              type="button"
                              className="mono text-accent underline-offset-2 hover:underline"
                              aria-label={`Open invocation ${r.original.invocation_id}`}
                              onClick={(e) => {
                                e.stopPropagation();
                                open(r.original.invocation_id);
                              }}
                            >
                              #{r.original.invocation_id}
                            </button>
                          ) : (
                            flexRender(c.column.columnDef.cell, c.getContext())
                          )}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <nav aria-label="Pages" className="flex items-center gap-2 px-4 py-3">
              <button
                type="button"
                className="btn btn-sm"
                disabled={!search.cursor}
                onClick={() => set({ cursor: undefined, selected: undefined })}
              >
                ⇤ Newest
              </button>
              <button
                type="button"
                className="btn btn-sm"
                disabled={!search.cursor}
                onClick={() => window.history.back()}
              >
                ← Newer
              </button>
              <button
                type="button"
                className="btn btn-sm"
                disabled={!q.data?.next_cursor}
                onClick={() => set({ cursor: q.data!.next_cursor!, selected: undefined })}
              >
                Older →
              </button>
              <span className="text-sm text-muted">{formatNumber(items.length)} on this page</span>
            </nav>
          </>
        )}
      </div>
      {selected !== null && (
        <aside
          aria-label={`Invocation ${selected}`}
          className="w-[44%] min-w-[360px] max-w-[720px] shrink-0 overflow-y-auto border-l border-line bg-raised"
          data-testid="detail"
        >
          <InvocationDetail
            id={selected}
            onClose={() => open(null)}
            onSelect={(id) => open(id)}
            headingRef={headingRef}
          />
        </aside>
      )}
    </div>
  );
}

function Filters({ search, onApply }: { search: InvocationSearch; onApply: (f: InvocationSearch) => void }) {
  const { zone } = usePrefs();
  const [f, setF] = useState(search);
  // The period is of when invocations were recorded (since/until) or of when they happened (occurred_from/to).
  const basisOf = (x: InvocationSearch) => (x.occurred_from || x.occurred_to ? 'occurred' : 'recorded');
  const [basis, setBasis] = useState<'recorded' | 'occurred'>(basisOf(search));
  const [from, setFrom] = useState(search.occurred_from ?? search.since);
  const [to, setTo] = useState(search.occurred_to ?? search.until);
  useEffect(() => {
    setF(search);
    setBasis(basisOf(search));
    setFrom(search.occurred_from ?? search.since);
    setTo(search.occurred_to ?? search.until);
  }, [search]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const recorded = basis === 'recorded';
    onApply({
      agent_key: f.agent_key?.trim() || undefined,
      verdict: f.verdict || undefined,
      mode: f.mode || undefined,
      correlation_id: f.correlation_id?.trim() || undefined,
      since: recorded ? from : undefined,
      until: recorded ? to : undefined,
      occurred_from: recorded ? undefined : from,
      occurred_to: recorded ? undefined : to,
    });
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Filters"
      className="flex flex-wrap items-end gap-3 border-b border-line px-4 py-3"
    >
      <div>
        <label className="label" htmlFor="f-agent">
          Agent
        </label>
        <input
          id="f-agent"
          className="input w-40"
          value={f.agent_key ?? ''}
          onChange={(e) => setF({ ...f, agent_key: e.target.value })}
        />
      </div>
      <div>
        <label className="label" htmlFor="f-verdict">
          Verdict
        </label>
        <select
          id="f-verdict"
          className="select"
          value={f.verdict ?? ''}
          onChange={(e) => setF({ ...f, verdict: e.target.value })}
        >
          <option value="">Any</option>
          <option value="allow">Allowed</option>
          <option value="flag_for_review">Flagged</option>
          <option value="deny">Denied</option>
        </select>
      </div>
      <div>
        <label className="label" htmlFor="f-mode">
          Mode
        </label>
        <select
          id="f-mode"
          className="select"
          value={f.mode ?? ''}
          onChange={(e) => setF({ ...f, mode: e.target.value })}
        >
          <option value="">Any</option>
          <option value="observed">Observed</option>
          <option value="enforced">Enforced</option>
          <option value="shadow">Shadow</option>
        </select>
      </div>
      <div>
        <label className="label" htmlFor="f-corr">
          Correlation id
        </label>
        <input
          id="f-corr"
          className="input w-44"
          value={f.correlation_id ?? ''}
          onChange={(e) => setF({ ...f, correlation_id: e.target.value })}
        />
      </div>
      <div>
        <label className="label" htmlFor="f-basis">
          Period of
        </label>
        <select
          id="f-basis"
          className="select"
          value={basis}
          onChange={(e) => setBasis(e.target.value as 'recorded' | 'occurred')}
        >
          <option value="recorded">Recording</option>
          <option value="occurred">Occurrence</option>
        </select>
      </div>
      <div>
        <label className="label" htmlFor="f-since">
          From ({zoneLabel(zone)}, inclusive)
        </label>
        <input
          id="f-since"
          type="datetime-local"
          className="input"
          value={isoToLocalInput(from, zone)}
          onChange={(e) => setFrom(localInputToIso(e.target.value, zone))}
        />
      </div>
      <div>
        <label className="label" htmlFor="f-until">
          To (exclusive)
        </label>
        <input
          id="f-until"
          type="datetime-local"
          className="input"
          value={isoToLocalInput(to, zone)}
          onChange={(e) => setTo(localInputToIso(e.target.value, zone))}
        />
      </div>
      <button className="btn btn-primary">Apply filters</button>
    </form>
  );
}
