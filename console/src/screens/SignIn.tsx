import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, call, setCsrfToken } from '../api/client';

/** E-mail, then the code from the mail; the answer sets the HttpOnly session cookie. */
export function SignIn() {
  const qc = useQueryClient();
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (step === 'code') codeRef.current?.focus();
  }, [step]);

  async function sendCode(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await call(api.POST('/api/v1/accounts/signup', { body: { email } }));
      setStep('code');
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, { title: 'Network error', detail: String(err) }, null));
    } finally {
      setBusy(false);
    }
  }

  async function verify(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const s = await call(api.POST('/api/v1/console/session', { body: { email, code: code.replace(/\s+/g, '') } }));
      setCsrfToken(s.csrf_token);
      qc.setQueryData(['session'], s);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, { title: 'Network error', detail: String(err) }, null));
      setBusy(false);
    }
  }

  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-surface p-4">
      <div className="card w-full max-w-sm p-6 shadow-sm">
        <div className="mb-5 flex items-center gap-2">
          <img src="/console/favicon.svg" alt="" width={28} height={28} />
          <span className="text-lg font-semibold">agent-ledger</span>
        </div>
        <h1 className="text-xl font-semibold">Sign in to the console</h1>
        {step === 'email' ? (
          <form onSubmit={sendCode} className="mt-4 space-y-4" noValidate>
            <p className="text-muted">We e-mail you a one-time code. No password.</p>
            <div>
              <label className="label" htmlFor="email">
                Work e-mail
              </label>
              <input
                id="email"
                className="input w-full"
                type="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'signin-error' : undefined}
              />
            </div>
            {error && <FormError id="signin-error" error={error} />}
            <button className="btn btn-primary w-full justify-center" disabled={busy || !email}>
              {busy ? 'Sending…' : 'Send me a code'}
            </button>
          </form>
        ) : (
          <form onSubmit={verify} className="mt-4 space-y-4" noValidate>
            <p className="text-muted">
              We sent a code to <strong className="text-fg">{email}</strong>. It is valid for 10 minutes.
            </p>
            <div>
              <label className="label" htmlFor="code">
                Sign-in code
              </label>
              <input
                id="code"
                ref={codeRef}
                className="input mono w-full text-lg tracking-widest"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]*"
                maxLength={32}
                required
                value={code}
                onChange={(e) => setCode(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'signin-error' : undefined}
              />
            </div>
            {error && <FormError id="signin-error" error={error} />}
            <button className="btn btn-primary w-full justify-center" disabled={busy || !code}>
              {busy ? 'Signing in…' : 'Sign in'}
            </button>
            <button
              type="button"
              className="btn w-full justify-center"
              onClick={() => {
                setStep('email');
                setCode('');
                setError(null);
              }}
            >
              Use another address
            </button>
          </form>
        )}
      </div>
    </main>
  );
}

function FormError({ id, error }: { id: string; error: ApiError }) {
  return (
    <div id={id} role="alert" className="rounded border border-deny bg-deny-bg p-2 text-sm">
      <strong className="text-deny">{error.title}</strong> {error.detail}
      {error.errors.map((f) => (
        <div key={f.field}>
          {f.field.replace(/^\//, '')}: {f.message}
        </div>
      ))}
    </div>
  );
}
