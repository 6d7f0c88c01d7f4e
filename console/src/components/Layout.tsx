import { Link, Outlet } from '@tanstack/react-router';
import { usePendingApprovalCount } from '../lib/approvals';
import { usePrefs } from '../lib/prefs';
import { roleNames } from '../lib/roles';
import { useSession, useSignOut } from '../lib/session';
import { zoneLabel } from '../lib/time';

const NAV = [
  { to: '/', label: 'Overview' },
  { to: '/invocations', label: 'Invocations' },
  { to: '/reviews', label: 'Review queue' },
  { to: '/approvals', label: 'Approvals' },
  { to: '/agents', label: 'Agents' },
  { to: '/rogue', label: 'Rogue events' },
  { to: '/audit', label: 'Audit trail' },
  { to: '/reports', label: 'Reports' },
  { to: '/settings', label: 'Settings' },
] as const;

/** The zones offered: UTC, this browser's, the one chosen, then every zone the browser knows. */
function zones(local: string, current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', local, current, ...all])];
}

export function Layout() {
  const s = useSession();
  const prefs = usePrefs();
  const signOut = useSignOut();
  const utc = prefs.zone === 'UTC';
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-raised focus:p-2"
      >
        Skip to content
      </a>
      <header className="flex flex-wrap items-center gap-3 border-b border-line bg-raised px-4 py-2">
        <Link to="/" className="flex items-center gap-2 font-semibold">
          <img src="/console/favicon.svg" alt="" width={22} height={22} />
          agent-ledger
        </Link>
        <div className="ml-auto flex flex-wrap items-center gap-2 text-sm">
          <label className="flex items-center gap-1 text-muted" data-testid="zone">
            Times in
            <select
              className="select w-44 py-0 text-fg"
              value={prefs.zone}
              onChange={(e) => prefs.setZone(e.target.value)}
            >
              {zones(prefs.localZone, prefs.zone).map((z) => (
                <option key={z} value={z}>
                  {zoneLabel(z)}
                </option>
              ))}
            </select>
          </label>
          {!(utc && prefs.localZone === 'UTC') && (
            <button type="button" className="btn btn-sm" onClick={() => prefs.setZone(utc ? prefs.localZone : 'UTC')}>
              {utc ? `Local time (${zoneLabel(prefs.localZone)})` : 'UTC'}
            </button>
          )}
          <button
            type="button"
            className="btn btn-sm"
            aria-label={prefs.theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme'}
            onClick={() => prefs.setTheme(prefs.theme === 'dark' ? 'light' : 'dark')}
          >
            {prefs.theme === 'dark' ? '☀ Light' : '☾ Dark'}
          </button>
          <span className="text-muted">
            <span className="text-fg">{s.account.email}</span> · {roleNames[s.account.role]}
          </span>
          <button type="button" className="btn btn-sm" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <div className="flex flex-1">
        <nav aria-label="Console" className="w-48 shrink-0 border-r border-line bg-surface p-2">
          <ul className="space-y-0.5">
            {NAV.map((n) => (
              <li key={n.to}>
                <Link
                  to={n.to}
                  activeOptions={{ exact: n.to === '/', includeSearch: false }}
                  className="block rounded px-3 py-1.5 text-fg hover:bg-raised"
                  activeProps={{ className: 'bg-accent-soft font-semibold text-accent', 'aria-current': 'page' }}
                >
                  {n.label}
                  {n.to === '/approvals' && <PendingBadge />}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 outline-none">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/** The number of held calls waiting for a person, beside "Approvals"; nothing when none. */
function PendingBadge() {
  const q = usePendingApprovalCount();
  if (!q.data?.count) return null;
  return (
    <>
      {' '}
      <span
        className="ml-1 rounded-full bg-flag-bg px-1.5 text-xs font-semibold text-flag"
        data-testid="pending-approvals"
      >
        {q.data.count}
        {q.data.more ? '+' : ''}
        <span className="sr-only"> pending</span>
      </span>
    </>
  );
}
