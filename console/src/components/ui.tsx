import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';

/** One polite live region for the whole app: counts, "verified", saved, errors. */
const AnnounceCtx = createContext<(msg: string) => void>(() => {});
export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const [msg, setMsg] = useState('');
  const n = useRef(0);
  const announce = useCallback((m: string) => {
    // Alternate a trailing no-break space so the same message is announced again.
    n.current++;
    setMsg(m + (n.current % 2 ? '' : '\u00a0'));
  }, []);
  return (
    <AnnounceCtx.Provider value={announce}>
      {children}
      <div role="status" aria-live="polite" className="sr-only" data-testid="announcer">
        {msg}
      </div>
    </AnnounceCtx.Provider>
  );
}
export const useAnnounce = () => useContext(AnnounceCtx);

type VerdictName = 'allow' | 'flag_for_review' | 'deny';
const VERDICT: Record<VerdictName, { label: string; icon: string; cls: string }> = {
  allow: { label: 'Allowed', icon: '✓', cls: 'text-allow bg-allow-bg border-allow' },
  flag_for_review: { label: 'Flagged', icon: '⚑', cls: 'text-flag bg-flag-bg border-flag' },
  deny: { label: 'Denied', icon: '✕', cls: 'text-deny bg-deny-bg border-deny' },
};

/** A verdict is never told by colour alone: an icon and a word too. */
export function Verdict({ v }: { v: VerdictName | null | undefined }) {
  if (!v) return <span className="text-muted">—</span>;
  const d = VERDICT[v];
  return (
    <span className={`inline-flex items-center gap-1 rounded-full border px-2 py-px text-xs font-semibold ${d.cls}`}>
      <span aria-hidden="true">{d.icon}</span>
      {d.label}
    </span>
  );
}

export function Badge({
  children,
  tone = 'neutral',
}: {
  children: ReactNode;
  tone?: 'neutral' | 'accent' | 'allow' | 'flag' | 'deny';
}) {
  const cls = {
    neutral: 'text-muted border-line-strong',
    accent: 'text-accent border-accent',
    allow: 'text-allow border-allow bg-allow-bg',
    flag: 'text-flag border-flag bg-flag-bg',
    deny: 'text-deny border-deny bg-deny-bg',
  }[tone];
  return (
    <span className={`inline-flex items-center rounded-full border px-2 py-px text-xs font-medium ${cls}`}>
      {children}
    </span>
  );
}

export function Loading({ label = 'Loading…', rows = 4 }: { label?: string; rows?: number }) {
  return (
    <div aria-busy="true" className="space-y-2 p-4">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-5 animate-pulse rounded bg-surface" />
      ))}
    </div>
  );
}

/** A problem+json shown as the API said it: title, detail, request id, and a retry. */
export function ProblemView({ error, retry }: { error: unknown; retry?: () => void }) {
  const p = error instanceof ApiError ? error : null;
  return (
    <div role="alert" className="m-4 rounded-lg border border-deny bg-deny-bg p-4 text-fg">
      <p className="font-semibold text-deny">{p ? p.title : 'Something went wrong'}</p>
      <p className="mt-1">{p ? p.detail : error instanceof Error ? error.message : String(error)}</p>
      {p?.requestId && (
        <p className="mt-1 text-muted">
          Request id <code className="mono">{p.requestId}</code>
        </p>
      )}
      {retry && (
        <button type="button" className="btn btn-sm mt-3" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="m-4 rounded-lg border border-dashed border-line-strong p-6 text-center">
      <p className="font-semibold">{title}</p>
      {children && <div className="mt-2 text-muted">{children}</div>}
    </div>
  );
}

/** What a role cannot do, said plainly instead of an error. */
export function NotAllowed({ role, what }: { role: string; what: string }) {
  return (
    <div className="m-4 rounded-lg border border-line-strong bg-surface p-4" role="note">
      <p className="font-semibold">Not available to your role</p>
      <p className="mt-1 text-muted">
        The {role} role cannot {what}. Ask a workspace admin if you need it.
      </p>
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line px-6 py-4">
      <h1 className="text-xl font-semibold">{title}</h1>
      {children && <div className="flex flex-wrap items-center gap-2">{children}</div>}
    </div>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const announce = useAnnounce();
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-sm"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => {});
        setDone(true);
        announce('Copied to the clipboard');
        setTimeout(() => setDone(false), 1500);
      }}
    >
      {done ? 'Copied' : label}
    </button>
  );
}

/** A hash, middle-truncated, full value on hover and for screen readers. */
export function Hash({ value, keep = 8 }: { value: string; keep?: number }) {
  const short = value.length > keep * 2 + 1 ? `${value.slice(0, keep)}…${value.slice(-keep)}` : value;
  return (
    <code className="mono" title={value} aria-label={value}>
      {short}
    </code>
  );
}
