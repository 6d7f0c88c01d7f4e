import { useState } from 'react';
import { api, call } from '../api/client';
import { useLogIdentity } from '../lib/logkeys';
import { type Checkpoint, verifyEvidence, type Evidence } from '../lib/verify';
import { CopyButton, Hash, useAnnounce } from './ui';

type State = { s: 'idle' } | { s: 'busy' } | { s: 'ok'; cp: Checkpoint; ev: Evidence } | { s: 'fail'; why: string };

/** The evidence of one audit entry, verified on demand with WebCrypto in this browser. */
export function EvidencePanel({ evidenceId, title = 'Evidence' }: { evidenceId: number; title?: string }) {
  const ident = useLogIdentity();
  const announce = useAnnounce();
  const [st, setSt] = useState<State>({ s: 'idle' });
  async function run() {
    setSt({ s: 'busy' });
    try {
      const ev = (await call(
        api.GET('/api/v1/audit/evidence/{evidence_id}', { params: { path: { evidence_id: evidenceId } } }),
      )) as Evidence;
      if (!ident.data) throw new Error('The log key could not be loaded.');
      const cp = await verifyEvidence(ev, ident.data.all, ident.data.origin);
      setSt({ s: 'ok', cp, ev });
      announce(`Entry ${ev.index} verified in this browser against checkpoint of size ${cp.size}.`);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      setSt({ s: 'fail', why });
      announce(`Verification failed: ${why}`);
    }
  }
  return (
    <section aria-labelledby={`ev-${evidenceId}`} className="space-y-2">
      <h3 id={`ev-${evidenceId}`} className="font-semibold">
        {title}
      </h3>
      <p className="text-muted">
        Audit entry <span className="mono text-fg">#{evidenceId - 1}</span> (evidence id {evidenceId}).
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => void run()}
          disabled={st.s === 'busy' || ident.isLoading}
        >
          {st.s === 'busy' ? 'Verifying…' : 'Verify in this browser'}
        </button>
        <a
          className="btn btn-sm"
          href={`/api/v1/audit/evidence/${evidenceId}`}
          download={`evidence-${evidenceId}.json`}
        >
          Download evidence
        </a>
      </div>
      {st.s === 'ok' && (
        <div className="rounded border border-allow bg-allow-bg p-2" data-testid="verified">
          <p className="font-semibold text-allow">
            <span aria-hidden="true">✓ </span>Verified in this browser
          </p>
          <p className="text-sm">
            Leaf {st.ev.index} is included in the checkpoint of size {st.cp.size} (root{' '}
            <Hash value={btoa(String.fromCharCode(...st.cp.root))} />
            ), signed by the log key.
          </p>
          <p className="text-sm">Inclusion proof: {st.ev.inclusion.hashes.length} hashes.</p>
          <details className="mt-1">
            <summary className="cursor-pointer text-sm">The signed entry (canonical JSON)</summary>
            <pre
              tabIndex={0}
              className="mono mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-raised p-2"
            >
              {st.ev.leaf}
            </pre>
          </details>
        </div>
      )}
      {st.s === 'fail' && (
        <div role="alert" className="rounded border border-deny bg-deny-bg p-2" data-testid="verify-failed">
          <p className="font-semibold text-deny">
            <span aria-hidden="true">✕ </span>Verification failed
          </p>
          <p className="text-sm">{st.why}</p>
        </div>
      )}
      <p className="text-xs text-muted">
        This check ran code served by this service. To check without trusting it, download the evidence and run{' '}
        <code className="mono">agent-ledger verify</code> <CopyButton text="agent-ledger verify" label="Copy command" />
      </p>
    </section>
  );
}
