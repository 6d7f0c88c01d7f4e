import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiError, call } from '../api/client';
import { CopyButton, Loading, NotAllowed, PageHeader, ProblemView, useAnnounce } from '../components/ui';
import { usePrefs } from '../lib/prefs';
import { can, roleNames, type Role } from '../lib/roles';
import { useMe, useSession } from '../lib/session';
import { formatNumber, formatTime } from '../lib/time';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="card space-y-3 p-4">
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A secret shown once, with a copy button and a plain warning. */
function ShownOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  return (
    <div role="alert" className="rounded border border-flag bg-flag-bg p-3" data-testid="secret-once">
      <p className="font-semibold">{label}: copy it now, it is shown only this once.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="mono break-all rounded bg-raised px-2 py-1" data-testid="secret-value">
          {secret}
        </code>
        <CopyButton text={secret} />
        <button type="button" className="btn btn-sm" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

export function Settings() {
  const s = useSession();
  const role = s.account.role;
  return (
    <div>
      <PageHeader title="Settings" />
      <div className="grid gap-4 p-4 2xl:grid-cols-2">
        <Plan />
        <ApiTokens />
        <Sessions />
        {can.admin(role) ? (
          <Members />
        ) : (
          <Section id="members-h" title="Members and invitations">
            <NotAllowed role={roleNames[role]} what="manage members" />
          </Section>
        )}
        {can.admin(role) ? (
          <IngressTokens />
        ) : (
          <Section id="ingress-h" title="Ingress tokens">
            <NotAllowed role={roleNames[role]} what="manage ingress tokens" />
          </Section>
        )}
        <Section id="destinations-h" title="Destinations">
          {can.admin(role) ? (
            <p>
              Where the audit trail&apos;s events are delivered: signed webhooks, Slack, Splunk HEC, syslog, e-mail.{' '}
              <Link to="/settings/destinations" className="text-accent underline underline-offset-2">
                Manage destinations
              </Link>
            </p>
          ) : (
            <NotAllowed role={roleNames[role]} what="see or manage destinations (admins only)" />
          )}
        </Section>
        {can.policy(role) ? (
          <PolicyEditor />
        ) : (
          <Section id="policy-h" title="Policy">
            <NotAllowed role={roleNames[role]} what="read or edit the policy" />
          </Section>
        )}
      </div>
    </div>
  );
}

function Plan() {
  const me = useMe();
  return (
    <Section id="plan-h" title="Plan and quotas">
      {me.isLoading ? (
        <Loading rows={3} />
      ) : me.error ? (
        <ProblemView error={me.error} />
      ) : (
        <>
          <p>
            Plan <strong>{me.data!.plan_tier}</strong> · subscription {me.data!.subscription_status}
            {me.data!.trial_days_remaining !== null && ` · ${me.data!.trial_days_remaining} trial days left`}
          </p>
          <Quotas q={me.data!.quotas} />
        </>
      )}
    </Section>
  );
}

export function Quotas({
  q,
}: {
  q: { invocations_used_today: number; invocations_cap_per_day: number; agents_registered: number; agents_cap: number };
}) {
  const rows = [
    { label: 'Invocations today', used: q.invocations_used_today, cap: q.invocations_cap_per_day },
    { label: 'Agents', used: q.agents_registered, cap: q.agents_cap },
  ];
  return (
    <ul className="space-y-2">
      {rows.map((r) => {
        const pct = r.cap > 0 ? Math.min(100, Math.round((100 * r.used) / r.cap)) : 0;
        return (
          <li key={r.label}>
            <div className="flex justify-between text-sm">
              <span>{r.label}</span>
              <span className="tabular-nums">
                {formatNumber(r.used)} of {formatNumber(r.cap)} ({pct}%)
              </span>
            </div>
            <div
              className="mt-1 h-2 rounded bg-surface"
              role="progressbar"
              aria-label={r.label}
              aria-valuenow={pct}
              aria-valuemin={0}
              aria-valuemax={100}
            >
              <div className={`h-2 rounded ${pct >= 90 ? 'bg-deny' : 'bg-accent'}`} style={{ width: `${pct}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function ApiTokens() {
  const qc = useQueryClient();
  const { zone } = usePrefs();
  const announce = useAnnounce();
  const list = useQuery({ queryKey: ['api-tokens'], queryFn: () => call(api.GET('/api/v1/accounts/tokens')) });
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const issue = useMutation({
    mutationFn: () => call(api.POST('/api/v1/accounts/tokens', { body: { name } })),
    onSuccess: (t) => {
      setSecret(t.token);
      setName('');
      announce('API token issued. Copy it now.');
      void qc.invalidateQueries({ queryKey: ['api-tokens'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      call(api.DELETE('/api/v1/accounts/tokens/{token_id}', { params: { path: { token_id: id } } })),
    onSuccess: () => {
      announce('Token revoked.');
      void qc.invalidateQueries({ queryKey: ['api-tokens'] });
    },
  });
  const live = (list.data?.tokens ?? []).filter((t) => !t.revoked_at);
  return (
    <Section id="tokens-h" title="Your API tokens">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          issue.mutate();
        }}
      >
        <div>
          <label className="label" htmlFor="token-name">
            Name
          </label>
          <input
            id="token-name"
            className="input w-56"
            value={name}
            maxLength={64}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <button className="btn btn-primary" disabled={!name.trim() || issue.isPending}>
          Issue token
        </button>
      </form>
      {issue.error && <ProblemView error={issue.error} />}
      {secret && <ShownOnce label="Your new API token" secret={secret} onDone={() => setSecret(null)} />}
      {list.isLoading ? (
        <Loading rows={2} />
      ) : list.error ? (
        <ProblemView error={list.error} />
      ) : (
        <table className="data">
          <caption className="sr-only">Your live API tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {live.map((t) => (
              <tr key={t.token_id}>
                <td>{t.name}</td>
                <td className="mono">{t.prefix}…</td>
                <td className="tabular-nums">{formatTime(t.created_at, zone)}</td>
                <td className="tabular-nums">{formatTime(t.last_used_at, zone)}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-sm btn-danger"
                    onClick={() => revoke.mutate(t.token_id)}
                    aria-label={`Revoke token ${t.name}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
            {live.length === 0 && (
              <tr>
                <td colSpan={5} className="text-muted">
                  No live tokens.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function Sessions() {
  const qc = useQueryClient();
  const { zone } = usePrefs();
  const list = useQuery({ queryKey: ['sessions'], queryFn: () => call(api.GET('/api/v1/console/sessions')) });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      call(api.DELETE('/api/v1/console/sessions/{session_id}', { params: { path: { session_id: id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['sessions'] }),
  });
  return (
    <Section id="sessions-h" title="Console sessions">
      {list.isLoading ? (
        <Loading rows={2} />
      ) : list.error ? (
        <ProblemView error={list.error} />
      ) : (
        <table className="data">
          <caption className="sr-only">Your signed-in console sessions</caption>
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Signed in</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data!.sessions.map((x) => (
              <tr key={x.session_id}>
                <td className="wrap max-w-xs" title={x.user_agent}>
                  {x.current ? <strong>This browser</strong> : x.user_agent.slice(0, 60) || 'unknown'}
                </td>
                <td className="tabular-nums">{formatTime(x.created_at, zone)}</td>
                <td className="tabular-nums">{formatTime(x.expires_at, zone)}</td>
                <td>
                  {!x.current && (
                    <button type="button" className="btn btn-sm btn-danger" onClick={() => revoke.mutate(x.session_id)}>
                      Sign out
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

const ROLES: Role[] = ['admin', 'operator', 'viewer', 'auditor'];

function Members() {
  const qc = useQueryClient();
  const { zone } = usePrefs();
  const announce = useAnnounce();
  const members = useQuery({
    queryKey: ['members'],
    queryFn: () => call(api.GET('/api/v1/workspace/members', { params: { query: { limit: 200 } } })),
  });
  const invites = useQuery({ queryKey: ['invites'], queryFn: () => call(api.GET('/api/v1/workspace/invites')) });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const invite = useMutation({
    mutationFn: () => call(api.POST('/api/v1/workspace/invites', { body: { email, role } })),
    onSuccess: () => {
      announce(`Invitation sent to ${email}.`);
      setEmail('');
      void qc.invalidateQueries({ queryKey: ['invites'] });
    },
  });
  const withdraw = useMutation({
    mutationFn: (id: string) =>
      call(api.DELETE('/api/v1/workspace/invites/{invitation_id}', { params: { path: { invitation_id: id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['invites'] }),
  });
  const [removing, setRemoving] = useState<{ id: string; email: string } | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (removing) dialog.current?.showModal();
    else dialog.current?.close();
  }, [removing]);
  const remove = useMutation({
    mutationFn: (id: string) =>
      call(api.DELETE('/api/v1/workspace/members/{account_id}', { params: { path: { account_id: id } } })),
    onSuccess: () => {
      announce(`${removing?.email ?? 'The member'} was removed.`);
      setRemoving(null);
      void qc.invalidateQueries({ queryKey: ['members'] });
    },
  });
  const change = useMutation({
    mutationFn: (v: { id: string; role: Role }) =>
      call(
        api.PATCH('/api/v1/workspace/members/{account_id}', {
          params: { path: { account_id: v.id } },
          body: { role: v.role } as never,
        }),
      ),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['members'] }),
  });
  return (
    <Section id="members-h" title="Members and invitations">
      {members.isLoading ? (
        <Loading rows={2} />
      ) : members.error ? (
        <ProblemView error={members.error} />
      ) : (
        <table className="data">
          <caption className="sr-only">Members</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data!.items.map((m) => (
              <tr key={m.account_id}>
                <td>{m.email}</td>
                <td>
                  <select
                    className="select"
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    onChange={(e) => change.mutate({ id: m.account_id, role: e.target.value as Role })}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {roleNames[r]}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="tabular-nums">{formatTime(m.created_at, zone)}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-sm btn-danger"
                    onClick={() => setRemoving({ id: m.account_id, email: m.email })}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {change.error && <ProblemView error={change.error} />}
      <dialog
        ref={dialog}
        role="alertdialog"
        aria-labelledby="rm-title"
        aria-describedby="rm-desc"
        onClose={() => setRemoving(null)}
        className="max-w-md p-5"
      >
        <h3 id="rm-title" className="font-semibold">
          Remove {removing?.email}?
        </h3>
        <p id="rm-desc" className="mt-2 text-muted">
          Their account, API tokens and console sessions stop working at once. The audit trail keeps what they did.
        </p>
        {remove.error && <ProblemView error={remove.error} />}
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={() => setRemoving(null)} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={remove.isPending}
            onClick={() => removing && remove.mutate(removing.id)}
          >
            Remove member
          </button>
        </div>
      </dialog>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <div>
          <label className="label" htmlFor="inv-email">
            Invite by e-mail
          </label>
          <input
            id="inv-email"
            type="email"
            className="input w-64"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div>
          <label className="label" htmlFor="inv-role">
            Role
          </label>
          <select id="inv-role" className="select" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {roleNames[r]}
              </option>
            ))}
          </select>
        </div>
        <button className="btn btn-primary" disabled={!email || invite.isPending}>
          Send invitation
        </button>
      </form>
      {invite.error && <ProblemView error={invite.error} />}
      {(invites.data?.items.length ?? 0) > 0 && (
        <table className="data">
          <caption className="text-left">Open invitations</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invites.data!.items.map((i) => (
              <tr key={i.invitation_id}>
                <td>{i.email}</td>
                <td>{roleNames[i.role]}</td>
                <td className="tabular-nums">{formatTime(i.expires_at, zone)}</td>
                <td>
                  <button type="button" className="btn btn-sm" onClick={() => withdraw.mutate(i.invitation_id)}>
                    Withdraw
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function IngressTokens() {
  const qc = useQueryClient();
  const { zone } = usePrefs();
  const list = useQuery({
    queryKey: ['ingress'],
    queryFn: () => call(api.GET('/api/v1/workspace/ingress-tokens', { params: { query: { limit: 100 } } })),
  });
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const issue = useMutation({
    mutationFn: () => call(api.POST('/api/v1/workspace/ingress-tokens', { body: { name } })),
    onSuccess: (t) => {
      setSecret(t.token);
      setName('');
      void qc.invalidateQueries({ queryKey: ['ingress'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      call(api.DELETE('/api/v1/workspace/ingress-tokens/{token_id}', { params: { path: { token_id: id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['ingress'] }),
  });
  const live = (list.data?.items ?? []).filter((t) => !t.revoked_at);
  return (
    <Section id="ingress-h" title="Ingress tokens (for agents sending events)">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          issue.mutate();
        }}
      >
        <div>
          <label className="label" htmlFor="ingress-name">
            Name
          </label>
          <input
            id="ingress-name"
            className="input w-56"
            value={name}
            maxLength={64}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <button className="btn btn-primary" disabled={!name.trim() || issue.isPending}>
          Issue ingress token
        </button>
      </form>
      {issue.error && <ProblemView error={issue.error} />}
      {secret && <ShownOnce label="Your new ingress token" secret={secret} onDone={() => setSecret(null)} />}
      {list.isLoading ? (
        <Loading rows={2} />
      ) : list.error ? (
        <ProblemView error={list.error} />
      ) : (
        <table className="data">
          <caption className="sr-only">Live ingress tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {live.map((t) => (
              <tr key={t.token_id}>
                <td>{t.name}</td>
                <td className="mono">{t.prefix}…</td>
                <td className="tabular-nums">{formatTime(t.created_at, zone)}</td>
                <td className="tabular-nums">{formatTime(t.last_used_at, zone)}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-sm btn-danger"
                    onClick={() => revoke.mutate(t.token_id)}
                    aria-label={`Revoke ingress token ${t.name}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
            {live.length === 0 && (
              <tr>
                <td colSpan={5} className="text-muted">
                  No live ingress tokens.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function PolicyEditor() {
  const qc = useQueryClient();
  const announce = useAnnounce();
  const policy = useQuery({ queryKey: ['policy'], queryFn: () => call(api.GET('/api/v1/policy')) });
  const [text, setText] = useState('');
  const [error, setError] = useState<ApiError | Error | null>(null);
  useEffect(() => {
    if (policy.data)
      setText(JSON.stringify({ default_verdict: policy.data.default_verdict, rules: policy.data.rules }, null, 2));
  }, [policy.data]);
  const save = useMutation({
    mutationFn: async () => {
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch (e) {
        throw new Error(`Not valid JSON: ${(e as Error).message}`);
      }
      return call(api.PUT('/api/v1/policy', { body: doc as never }));
    },
    onSuccess: (p) => {
      setError(null);
      announce(`Policy saved as version ${p.version}.`);
      void qc.invalidateQueries({ queryKey: ['policy'] });
    },
    onError: (e) => setError(e as Error),
  });
  return (
    <Section id="policy-h" title="Policy">
      {policy.isLoading ? (
        <Loading rows={4} />
      ) : policy.error ? (
        <ProblemView error={policy.error} />
      ) : (
        <>
          <p className="text-muted">
            Version {policy.data!.version}
            {policy.data!.version === 0 ? ' (the built-in default)' : ''}. Rules are checked in order; the first to fire
            decides.
          </p>
          <label className="label" htmlFor="policy-text">
            Policy document (JSON)
          </label>
          <textarea
            id="policy-text"
            className="textarea min-h-80"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'policy-errors' : undefined}
          />
          {error && (
            <div id="policy-errors" role="alert" className="rounded border border-deny bg-deny-bg p-2">
              <p className="font-semibold text-deny">{error instanceof ApiError ? error.title : 'Cannot save'}</p>
              <p>{error instanceof ApiError ? error.detail : error.message}</p>
              {error instanceof ApiError && error.errors.length > 0 && (
                <ul className="mt-1 list-disc pl-5">
                  {error.errors.map((f, i) => (
                    <li key={i}>
                      <code className="mono">{f.field}</code> {f.message}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <button type="button" className="btn btn-primary" disabled={save.isPending} onClick={() => save.mutate()}>
            Save policy
          </button>
        </>
      )}
    </Section>
  );
}
