import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { paths } from '@agent-ledger/client/schema';
import { api, ApiError, call } from '../api/client';
import { Badge, CopyButton, Empty, Loading, NotAllowed, PageHeader, ProblemView, useAnnounce } from '../components/ui';
import { usePrefs } from '../lib/prefs';
import { can, roleNames } from '../lib/roles';
import { clean } from '../lib/search';
import { useSession } from '../lib/session';
import { formatTime, zoneLabel } from '../lib/time';

// Settings → Destinations: where the workspace's audit-trail events are
// delivered (docs/api.md#destinations). Admins only, as the API decides.

type Destination = Awaited<ReturnType<typeof listDestinations>>['destinations'][number];
type Delivery = Awaited<ReturnType<typeof listDeliveries>>['deliveries'][number];
type TestResult = Awaited<ReturnType<typeof sendTest>>;

const listDestinations = () => call(api.GET('/api/v1/destinations'));
const listDeliveries = (id: string, limit: number) =>
  call(
    api.GET('/api/v1/destinations/{destination_id}/deliveries', {
      params: { path: { destination_id: id }, query: { limit } },
    }),
  );
const sendTest = (id: string) =>
  call(api.POST('/api/v1/destinations/{destination_id}/test', { params: { path: { destination_id: id } } }));

/** An event type a destination may ask for: the API's enum (its generated types), "*" aside. */
type EventType = Exclude<DestinationIn['events'][number], '*'>;
type DestinationIn = NonNullable<paths['/api/v1/destinations']['post']['requestBody']>['content']['application/json'];

// Keyed by the API's enum, so the compiler refuses a type the API does not
// have and a type it has that this list lacks; in the order the form shows them.
const EVENT_TYPE_KEYS: Record<EventType, null> = {
  'invocation.denied': null,
  'invocation.flagged': null,
  'invocation.allowed': null,
  'rogue.recorded': null,
  'output_scan.flagged': null,
  'review.decided': null,
  'judgement.completed': null,
  'approval.requested': null,
  'approval.decided': null,
  'policy.changed': null,
  'token.created': null,
  'token.revoked': null,
  'member.changed': null,
  'witness.failed': null,
  'quota.reached': null,
  'destination.failing': null,
};
export const EVENT_TYPES = Object.keys(EVENT_TYPE_KEYS) as EventType[];

const KINDS = {
  webhook: { label: 'Webhook (Standard Webhooks, signed)', url: 'https://siem.example.com/hooks/agent-ledger' },
  slack: { label: 'Slack (incoming webhook)', url: 'https://hooks.slack.com/services/T000/B000/XXXX' },
  splunk_hec: { label: 'Splunk HEC', url: 'https://splunk.example.com:8088/services/collector/event' },
  syslog: { label: 'Syslog (RFC 5424 over TLS or TCP)', url: 'syslog+tls://siem.example.com:6514' },
  email: { label: 'E-mail', url: 'mailto:security@example.com,oncall@example.com' },
} as const;
type Kind = keyof typeof KINDS;
const JSON_KINDS: readonly string[] = ['webhook', 'splunk_hec', 'syslog'];
const MODES = ['observed', 'enforced', 'shadow'] as const;

const REFRESH_MS = 10_000;

export function Destinations({ search }: { search: Record<string, string | undefined> }) {
  const s = useSession();
  const role = s.account.role;
  return (
    <div>
      <PageHeader title="Destinations">
        <Link to="/settings" className="btn btn-sm">
          ← Settings
        </Link>
      </PageHeader>
      {can.admin(role) ? (
        <Manage selected={search.selected} />
      ) : (
        <NotAllowed role={roleNames[role]} what="see or manage destinations (admins only)" />
      )}
    </div>
  );
}

/** The state a person reads: disabled and paused before failing, never by colour alone. */
export function stateOf(d: Pick<Destination, 'state' | 'paused'>): {
  label: string;
  icon: string;
  tone: 'allow' | 'flag' | 'deny' | 'neutral';
} {
  if (d.state === 'disabled') return { label: 'Disabled', icon: '✕', tone: 'deny' };
  if (d.paused) return { label: 'Paused', icon: '‖', tone: 'neutral' };
  if (d.state === 'failing') return { label: 'Failing', icon: '!', tone: 'flag' };
  return { label: 'Active', icon: '✓', tone: 'allow' };
}

function StateBadge({ d }: { d: Pick<Destination, 'state' | 'paused'> }) {
  const st = stateOf(d);
  return (
    <Badge tone={st.tone}>
      <span aria-hidden="true" className="mr-1">
        {st.icon}
      </span>
      {st.label}
    </Badge>
  );
}

const DELIVERY = {
  delivered: { label: 'Delivered', icon: '✓', tone: 'allow' },
  retrying: { label: 'Retrying', icon: '↻', tone: 'flag' },
  failed: { label: 'Failed', icon: '✕', tone: 'deny' },
} as const;

function DeliveryBadge({ status }: { status: Delivery['status'] }) {
  const d = DELIVERY[status];
  return (
    <Badge tone={d.tone}>
      <span aria-hidden="true" className="mr-1">
        {d.icon}
      </span>
      {d.label}
    </Badge>
  );
}

function eventsText(events: readonly string[]): string {
  if (events.includes('*')) return 'All events';
  return events.length <= 3 ? events.join(', ') : `${events.slice(0, 3).join(', ')} and ${events.length - 3} more`;
}

function Manage({ selected }: { selected: string | undefined }) {
  const { zone } = usePrefs();
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<{ name: string; kind: string; signing: string; secret: string } | null>(null);
  const list = useQuery({ queryKey: ['destinations'], queryFn: listDestinations, refetchInterval: REFRESH_MS });
  const items = list.data?.destinations ?? [];
  const last = useQueries({
    queries: items.map((d) => ({
      queryKey: ['destination-deliveries', d.destination_id, 1],
      queryFn: () => listDeliveries(d.destination_id, 1),
      refetchInterval: REFRESH_MS,
    })),
  });
  const select = (id: string | undefined) =>
    void navigate({ to: '/settings/destinations', search: clean({ selected: id }) as never });
  const current = items.find((d) => d.destination_id === selected);
  return (
    <div className="space-y-4 p-4">
      <p className="max-w-3xl text-muted">
        Each destination receives the audit trail&apos;s events as they are recorded — at least once, in log order,
        retried for 72 hours — each naming its audit-trail entry so the receiver can check it against a signed
        checkpoint.
      </p>
      {created && (
        <ShownOnce
          name={created.name}
          kind={created.kind}
          signing={created.signing}
          secret={created.secret}
          onDone={() => setCreated(null)}
        />
      )}
      <section aria-labelledby="dest-list-h" className="card">
        <div className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
          <h2 id="dest-list-h" className="text-base font-semibold">
            Destinations of this workspace
          </h2>
          <button
            type="button"
            className="btn btn-primary"
            aria-expanded={adding}
            aria-controls="dest-add"
            onClick={() => setAdding((a) => !a)}
          >
            {adding ? 'Close the form' : 'Add destination'}
          </button>
        </div>
        {adding && (
          <AddForm
            onCreated={(d) => {
              setCreated({ name: d.name, kind: d.kind, signing: d.signing, secret: d.secret });
              setAdding(false);
              select(d.destination_id);
            }}
          />
        )}
        {list.error ? (
          <ProblemView error={list.error} retry={() => void list.refetch()} />
        ) : list.isLoading ? (
          <Loading rows={3} />
        ) : items.length === 0 ? (
          <Empty title="No destinations yet">
            Add one to send denies, flags and rogue events to a webhook, Slack, Splunk, syslog or e-mail.
          </Empty>
        ) : (
          <div className="overflow-x-auto" role="region" aria-label="Destinations table" tabIndex={0}>
            <table className="data">
              <caption className="sr-only">Destinations, by name</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">State</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Events</th>
                  <th scope="col">Last delivery ({zoneLabel(zone)})</th>
                </tr>
              </thead>
              <tbody>
                {items.map((d, i) => {
                  const ld = last[i]?.data?.deliveries[0];
                  return (
                    <tr key={d.destination_id} aria-selected={d.destination_id === selected}>
                      <td>
                        <button
                          type="button"
                          className="text-accent underline-offset-2 hover:underline"
                          aria-label={`Open destination ${d.name}`}
                          onClick={() => select(d.destination_id)}
                        >
                          {d.name}
                        </button>
                      </td>
                      <td data-testid={`state-${d.name}`}>
                        <StateBadge d={d} />
                        {d.state === 'failing' && d.failing_since && (
                          <span className="text-muted"> since {formatTime(d.failing_since, zone)}</span>
                        )}
                      </td>
                      <td className="mono">{d.kind}</td>
                      <td className="wrap">{eventsText(d.events)}</td>
                      <td className="tabular-nums">
                        {ld ? (
                          <>
                            {formatTime(ld.last_attempt_at, zone)} · {DELIVERY[ld.status].label.toLowerCase()}
                            {ld.http_status !== null && ` (HTTP ${ld.http_status})`}
                          </>
                        ) : (
                          <span className="text-muted">none yet</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {selected && !list.isLoading && !current && !list.error && (
        <Empty title="No such destination">It may have been deleted.</Empty>
      )}
      {current && <Detail key={current.destination_id} d={current} onGone={() => select(undefined)} />}
    </div>
  );
}

/** The verification secret, shown once after creation, with a copy button and a plain warning. */
function ShownOnce(p: { name: string; kind: string; signing: string; secret: string; onDone: () => void }) {
  const webhook = p.kind === 'webhook';
  const what = !webhook
    ? 'Signing secret'
    : p.signing === 'ed25519'
      ? 'Public key your receiver verifies signatures with'
      : 'Secret your receiver verifies signatures with';
  return (
    <div role="alert" className="rounded border border-flag bg-flag-bg p-3" data-testid="secret-once">
      <p className="font-semibold">
        Destination {p.name} added. {what}: copy it now, it is shown only this once and cannot be shown again.
      </p>
      <p className="mt-1 text-sm">
        {webhook
          ? 'Give it to your receiver: a Standard Webhooks library checks the webhook-signature header with it.'
          : `A ${p.kind} destination does not sign its messages; the secret is only used by webhooks.`}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="mono break-all rounded bg-raised px-2 py-1" data-testid="secret-value">
          {p.secret}
        </code>
        <CopyButton text={p.secret} label="Copy the secret" />
        <button type="button" className="btn btn-sm" onClick={p.onDone}>
          I have copied it
        </button>
      </div>
    </div>
  );
}

/** Which form field a problem's JSON pointer names. */
function fieldOf(pointer: string): string {
  const first = pointer.split('/')[1] ?? '';
  return ['name', 'kind', 'url', 'events', 'format', 'signing', 'token', 'filter'].includes(first) ? first : '';
}

const FIELD_LABEL: Record<string, string> = {
  name: 'Name',
  kind: 'Kind',
  url: 'URL',
  events: 'Events',
  format: 'Format',
  signing: 'Signing',
  token: 'Token',
  filter: 'Filter',
};

function FieldError({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="mt-1 text-sm text-deny">
      {messages.join('; ')}
    </p>
  );
}

const splitGlobs = (s: string) =>
  s
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

function AddForm({ onCreated }: { onCreated: (d: Destination & { secret: string }) => void }) {
  const qc = useQueryClient();
  const announce = useAnnounce();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('webhook');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set(['invocation.denied', 'invocation.flagged']));
  const [format, setFormat] = useState<'native' | 'ocsf'>('native');
  const [signing, setSigning] = useState<'hmac' | 'ed25519'>('hmac');
  const [token, setToken] = useState('');
  const [agents, setAgents] = useState('');
  const [tools, setTools] = useState('');
  const [modes, setModes] = useState<Set<string>>(new Set());
  const nameRef = useRef<HTMLInputElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  useEffect(() => nameRef.current?.focus(), []);
  const all = events.has('*');
  const create = useMutation({
    mutationFn: () => {
      const f: { agents?: string[]; tools?: string[]; modes?: Array<(typeof MODES)[number]> } = {};
      if (splitGlobs(agents).length > 0) f.agents = splitGlobs(agents);
      if (splitGlobs(tools).length > 0) f.tools = splitGlobs(tools);
      if (modes.size > 0) f.modes = MODES.filter((m) => modes.has(m));
      return call(
        api.POST('/api/v1/destinations', {
          body: {
            name: name.trim(),
            kind,
            url: url.trim(),
            events: all ? ['*'] : EVENT_TYPES.filter((e) => events.has(e)),
            ...(JSON_KINDS.includes(kind) ? { format } : {}),
            ...(kind === 'webhook' ? { signing } : {}),
            ...(token ? { token } : {}),
            ...(Object.keys(f).length > 0 ? { filter: f } : {}),
          },
        }),
      );
    },
    onSuccess: (d) => {
      announce(`Destination ${d.name} added. Copy its secret now.`);
      void qc.invalidateQueries({ queryKey: ['destinations'] });
      onCreated(d);
    },
    onError: () => {
      // The summary first: a screen reader hears it, the fields below say which is wrong.
      setTimeout(() => summaryRef.current?.focus(), 0);
    },
  });
  const err = create.error;
  // Each field error beside its field too (the summary lists them all).
  const byField: Record<string, string[]> = {};
  if (err instanceof ApiError)
    for (const e of err.errors) {
      const f = fieldOf(e.field);
      if (f) (byField[f] ??= []).push(e.field.split('/').length > 2 ? `${e.field}: ${e.message}` : e.message);
    }
  const invalid = (f: string) =>
    byField[f] ? { 'aria-invalid': true as const, 'aria-describedby': `dest-${f}-err` } : {};
  const toggle = (set: Set<string>, v: string, on: boolean) => {
    const n = new Set(set);
    if (on) n.add(v);
    else n.delete(v);
    return n;
  };
  return (
    <form
      id="dest-add"
      aria-labelledby="dest-add-h"
      className="space-y-4 border-t border-line px-4 py-4"
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h3 id="dest-add-h" className="font-semibold">
        Add a destination
      </h3>
      {err && (
        <div
          ref={summaryRef}
          tabIndex={-1}
          role="alert"
          className="rounded border border-deny bg-deny-bg p-3"
          data-testid="dest-errors"
        >
          <p className="font-semibold text-deny">
            {err instanceof ApiError ? err.title : 'The destination was not added'}
          </p>
          <p>{err instanceof ApiError ? err.detail : (err as Error).message}</p>
          {err instanceof ApiError && err.errors.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {err.errors.map((f, i) => (
                <li key={i}>
                  <strong>{FIELD_LABEL[fieldOf(f.field)] ?? f.field}</strong>{' '}
                  {fieldOf(f.field) && f.field.split('/').length > 2 && <code className="mono">{f.field} </code>}
                  {f.message}
                </li>
              ))}
            </ul>
          )}
          {err instanceof ApiError && err.requestId && (
            <p className="mt-1 text-sm text-muted">
              Request id <code className="mono">{err.requestId}</code>
            </p>
          )}
        </div>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <label className="label" htmlFor="dest-name">
            Name
          </label>
          <input
            id="dest-name"
            ref={nameRef}
            className="input w-full"
            value={name}
            maxLength={64}
            required
            onChange={(e) => setName(e.target.value)}
            {...invalid('name')}
          />
          <FieldError id="dest-name-err" messages={byField.name} />
        </div>
        <div>
          <label className="label" htmlFor="dest-kind">
            Kind
          </label>
          <select
            id="dest-kind"
            className="select w-full"
            value={kind}
            onChange={(e) => setKind(e.target.value as Kind)}
            {...invalid('kind')}
          >
            {(Object.keys(KINDS) as Kind[]).map((k) => (
              <option key={k} value={k}>
                {KINDS[k].label}
              </option>
            ))}
          </select>
          <FieldError id="dest-kind-err" messages={byField.kind} />
        </div>
        <div className="md:col-span-2">
          <label className="label" htmlFor="dest-url">
            {kind === 'email' ? 'Addresses (mailto: URL)' : 'URL'}
          </label>
          <input
            id="dest-url"
            className="input mono w-full"
            value={url}
            maxLength={2048}
            required
            placeholder={KINDS[kind].url}
            aria-describedby={byField.url ? 'dest-url-err' : 'dest-url-hint'}
            aria-invalid={byField.url ? true : undefined}
            onChange={(e) => setUrl(e.target.value)}
          />
          <p id="dest-url-hint" className="mt-1 text-sm text-muted">
            For example <code className="mono">{KINDS[kind].url}</code>. Stored encrypted and afterwards shown only as
            far as the host. Link-local and cloud-metadata addresses are always refused.
          </p>
          <FieldError id="dest-url-err" messages={byField.url} />
        </div>
      </div>
      <fieldset
        className="rounded border border-line p-3"
        aria-describedby={byField.events ? 'dest-events-err' : undefined}
      >
        <legend className="px-1 text-sm font-semibold">Events</legend>
        <label className="flex items-center gap-2 font-medium">
          <input type="checkbox" checked={all} onChange={(e) => setEvents((s) => toggle(s, '*', e.target.checked))} />
          All events (<code className="mono">*</code>), including types added later
        </label>
        <div className="mt-2 grid gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-3" data-testid="event-types">
          {EVENT_TYPES.map((t) => (
            <label key={t} className={`flex items-center gap-2 ${all ? 'text-muted' : ''}`}>
              <input
                type="checkbox"
                value={t}
                disabled={all}
                checked={all || events.has(t)}
                onChange={(e) => setEvents((s) => toggle(s, t, e.target.checked))}
              />
              <span className="mono">{t}</span>
            </label>
          ))}
        </div>
        <FieldError id="dest-events-err" messages={byField.events} />
      </fieldset>
      <div className="grid gap-4 md:grid-cols-3">
        {JSON_KINDS.includes(kind) && (
          <div>
            <label className="label" htmlFor="dest-format">
              Format
            </label>
            <select
              id="dest-format"
              className="select w-full"
              value={format}
              onChange={(e) => setFormat(e.target.value as 'native' | 'ocsf')}
              {...invalid('format')}
            >
              <option value="native">Native JSON with evidence</option>
              <option value="ocsf">OCSF 1.x (API Activity, Detection Finding)</option>
            </select>
            <FieldError id="dest-format-err" messages={byField.format} />
          </div>
        )}
        {kind === 'webhook' && (
          <div>
            <label className="label" htmlFor="dest-signing">
              Signing
            </label>
            <select
              id="dest-signing"
              className="select w-full"
              value={signing}
              onChange={(e) => setSigning(e.target.value as 'hmac' | 'ed25519')}
              {...invalid('signing')}
            >
              <option value="hmac">HMAC-SHA256 (shared secret, whsec_…)</option>
              <option value="ed25519">Ed25519 (public key, whpk_…)</option>
            </select>
            <FieldError id="dest-signing-err" messages={byField.signing} />
          </div>
        )}
        {(kind === 'splunk_hec' || byField.token) && (
          <div>
            <label className="label" htmlFor="dest-token">
              HEC token
            </label>
            <input
              id="dest-token"
              type="password"
              autoComplete="off"
              className="input mono w-full"
              value={token}
              maxLength={4096}
              onChange={(e) => setToken(e.target.value)}
              aria-describedby={byField.token ? 'dest-token-err' : 'dest-token-hint'}
              aria-invalid={byField.token ? true : undefined}
            />
            <p id="dest-token-hint" className="mt-1 text-sm text-muted">
              Stored encrypted, never shown again.
            </p>
            <FieldError id="dest-token-err" messages={byField.token} />
          </div>
        )}
      </div>
      <fieldset
        className="rounded border border-line p-3"
        aria-describedby={byField.filter ? 'dest-filter-err dest-filter-hint' : 'dest-filter-hint'}
      >
        <legend className="px-1 text-sm font-semibold">Filter (optional)</legend>
        <p id="dest-filter-hint" className="mb-2 text-sm text-muted">
          Narrows the events about an agent (invocations, rogue events, scans, reviews, judgements); events about the
          workspace always pass. Globs with <code className="mono">*</code> and <code className="mono">?</code>,
          separated by commas.
        </p>
        <div className="grid gap-4 md:grid-cols-3">
          <div>
            <label className="label" htmlFor="dest-agents">
              Agents
            </label>
            <input
              id="dest-agents"
              className="input mono w-full"
              value={agents}
              placeholder="billing-*, ops-bot"
              onChange={(e) => setAgents(e.target.value)}
            />
          </div>
          <div>
            <label className="label" htmlFor="dest-tools">
              Tools
            </label>
            <input
              id="dest-tools"
              className="input mono w-full"
              value={tools}
              placeholder="stripe.*, shell"
              onChange={(e) => setTools(e.target.value)}
            />
          </div>
          <div role="group" aria-labelledby="dest-modes-l">
            <span id="dest-modes-l" className="label">
              Modes
            </span>
            <div className="flex flex-wrap gap-3">
              {MODES.map((m) => (
                <label key={m} className="flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={modes.has(m)}
                    onChange={(e) => setModes((s) => toggle(s, m, e.target.checked))}
                  />
                  {m}
                </label>
              ))}
            </div>
          </div>
        </div>
        <FieldError id="dest-filter-err" messages={byField.filter} />
      </fieldset>
      <button className="btn btn-primary" disabled={create.isPending}>
        {create.isPending ? 'Adding…' : 'Add destination'}
      </button>
    </form>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex gap-3 py-1">
      <dt className="w-32 shrink-0 text-muted">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function Detail({ d, onGone }: { d: Destination; onGone: () => void }) {
  const { zone } = usePrefs();
  const qc = useQueryClient();
  const announce = useAnnounce();
  const [test, setTest] = useState<TestResult | null>(null);
  const [deleting, setDeleting] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (deleting) dialog.current?.showModal();
    else dialog.current?.close();
  }, [deleting]);
  const deliveries = useQuery({
    queryKey: ['destination-deliveries', d.destination_id, 50],
    queryFn: () => listDeliveries(d.destination_id, 50),
    refetchInterval: REFRESH_MS,
  });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['destinations'] });
    void qc.invalidateQueries({ queryKey: ['destination-deliveries', d.destination_id] });
  };
  const runTest = useMutation({
    mutationFn: () => sendTest(d.destination_id),
    onSuccess: (r) => {
      setTest(r);
      announce(r.ok ? `The receiver took the test event: HTTP ${r.status ?? 'ok'}.` : 'The test event failed.');
      refresh();
    },
  });
  const pause = useMutation({
    mutationFn: (paused: boolean) =>
      call(
        api.PATCH('/api/v1/destinations/{destination_id}', {
          params: { path: { destination_id: d.destination_id } },
          body: { paused },
        }),
      ),
    onSuccess: (r) => {
      announce(r.paused ? `${r.name} paused.` : `${r.name} resumed.`);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () =>
      call(
        api.DELETE('/api/v1/destinations/{destination_id}', {
          params: { path: { destination_id: d.destination_id } },
        }),
      ),
    onSuccess: () => {
      announce(`Destination ${d.name} deleted.`);
      setDeleting(false);
      void qc.invalidateQueries({ queryKey: ['destinations'] });
      onGone();
    },
  });
  const stopped = d.paused || d.state === 'disabled';
  const items = deliveries.data?.deliveries ?? [];
  return (
    <section aria-labelledby="dest-detail-h" className="card space-y-4 p-4" data-testid="destination-detail">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="dest-detail-h" className="text-base font-semibold">
          {d.name}
        </h2>
        <StateBadge d={d} />
        <div className="ml-auto flex flex-wrap gap-2">
          <button type="button" className="btn" disabled={runTest.isPending} onClick={() => runTest.mutate()}>
            {runTest.isPending ? 'Sending…' : 'Send test event'}
          </button>
          <button type="button" className="btn" disabled={pause.isPending} onClick={() => pause.mutate(!stopped)}>
            {d.state === 'disabled' ? 'Re-enable' : d.paused ? 'Resume' : 'Pause'}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
      </div>
      {(d.state === 'failing' || d.state === 'disabled') && (
        <div role="note" className="rounded border border-deny bg-deny-bg p-3" data-testid="destination-problem">
          <p className="font-semibold text-deny">
            {d.state === 'failing'
              ? `Failing since ${formatTime(d.failing_since, zone)}: deliveries are being retried.`
              : `Disabled${d.disabled_reason ? `: ${d.disabled_reason}` : ''}. Nothing is delivered until it is re-enabled; it then goes on where it stopped.`}
          </p>
          {d.last_error && (
            <p className="mt-1">
              Last error: <code className="mono break-all">{d.last_error}</code>
            </p>
          )}
        </div>
      )}
      <div role="status" aria-live="polite" data-testid="test-result">
        {runTest.error ? (
          <ProblemView error={runTest.error} />
        ) : test ? (
          <div className={`rounded border p-3 ${test.ok ? 'border-allow bg-allow-bg' : 'border-deny bg-deny-bg'}`}>
            <p className="font-semibold">
              {test.ok ? '✓ The receiver took the test event' : '✕ The test event was not taken'}
              {test.status !== null ? `: HTTP ${test.status}` : ''} in {test.latency_ms} ms
            </p>
            {test.error && (
              <p className="mt-1">
                <code className="mono break-all">{test.error}</code>
              </p>
            )}
            <p className="mt-1 text-sm">
              Event <code className="mono">{test.event_id}</code>
            </p>
          </div>
        ) : null}
      </div>
      {pause.error && <ProblemView error={pause.error} />}
      <dl className="text-sm">
        <Row term="Kind">
          <span className="mono">{d.kind}</span>
        </Row>
        <Row term={d.kind === 'email' ? 'Addresses' : 'URL'}>
          <code className="mono break-all">{d.url}</code>
          {d.kind !== 'email' && <span className="text-muted"> (stored encrypted, shown shortened)</span>}
        </Row>
        <Row term="Events">{d.events.includes('*') ? 'All events (*)' : d.events.join(', ')}</Row>
        <Row term="Format">{d.format}</Row>
        {d.kind === 'webhook' && (
          <Row term="Signing">
            {d.signing === 'ed25519' ? 'Ed25519' : 'HMAC-SHA256'}
            {d.public_key && (
              <>
                {' '}
                · public key <code className="mono break-all">{d.public_key}</code>
              </>
            )}
          </Row>
        )}
        {Boolean(d.filter.agents?.length || d.filter.tools?.length || d.filter.modes?.length) && (
          <Row term="Filter">
            {[
              d.filter.agents?.length && `agents ${d.filter.agents.join(', ')}`,
              d.filter.tools?.length && `tools ${d.filter.tools.join(', ')}`,
              d.filter.modes?.length && `modes ${d.filter.modes.join(', ')}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Row>
        )}
        {d.token_set && <Row term="Token">set (stored encrypted, never shown)</Row>}
        <Row term="Next entry">audit-trail index {d.next_index}</Row>
        <Row term="Created">{formatTime(d.created_at, zone)}</Row>
      </dl>
      <div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="font-semibold" id="dest-log-h">
            Delivery log
          </h3>
          <button type="button" className="btn btn-sm" onClick={refresh}>
            Refresh
          </button>
        </div>
        <p className="text-sm text-muted">Recent attempts, newest first, one row per event (kept 7 days).</p>
        {deliveries.error ? (
          <ProblemView error={deliveries.error} retry={() => void deliveries.refetch()} />
        ) : deliveries.isLoading ? (
          <Loading rows={2} />
        ) : items.length === 0 ? (
          <p className="py-2 text-muted">Nothing delivered yet.</p>
        ) : (
          <div className="overflow-x-auto" role="region" aria-labelledby="dest-log-h" tabIndex={0}>
            <table className="data" data-testid="delivery-log">
              <caption className="sr-only">Delivery attempts of {d.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Type</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="text-right">
                    HTTP
                  </th>
                  <th scope="col" className="text-right">
                    Attempts
                  </th>
                  <th scope="col" className="text-right">
                    Latency
                  </th>
                  <th scope="col">Last attempt ({zoneLabel(zone)})</th>
                  <th scope="col">Last error</th>
                </tr>
              </thead>
              <tbody>
                {items.map((x) => (
                  <tr key={x.event_id}>
                    <td className="mono">
                      {x.event_id}
                      {x.log_index !== null && <span className="ml-1 text-muted">(entry {x.log_index})</span>}
                    </td>
                    <td className="mono">{x.event_type}</td>
                    <td>
                      <DeliveryBadge status={x.status} />
                    </td>
                    <td className="num">{x.http_status ?? '—'}</td>
                    <td className="num">{x.attempts}</td>
                    <td className="num">{x.latency_ms === null ? '—' : `${x.latency_ms} ms`}</td>
                    <td className="tabular-nums">{formatTime(x.last_attempt_at, zone)}</td>
                    <td className="wrap">
                      {x.last_error ? (
                        <code className="mono break-all">{x.last_error}</code>
                      ) : (
                        <span className="text-muted">—</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <dialog
        ref={dialog}
        role="alertdialog"
        aria-labelledby="dest-rm-title"
        aria-describedby="dest-rm-desc"
        onClose={() => setDeleting(false)}
        className="max-w-md p-5"
      >
        <h3 id="dest-rm-title" className="font-semibold">
          Delete destination {d.name}?
        </h3>
        <p id="dest-rm-desc" className="mt-2 text-muted">
          Nothing more is delivered to it and its delivery log is removed. The audit trail keeps the change. To stop it
          for a while, pause it instead.
        </p>
        {remove.error && <ProblemView error={remove.error} />}
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={() => setDeleting(false)} autoFocus>
            Cancel
          </button>
          <button type="button" className="btn btn-danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Delete destination
          </button>
        </div>
      </dialog>
    </section>
  );
}
