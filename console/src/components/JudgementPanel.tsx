import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api/client';
import { usePrefs } from '../lib/prefs';
import { can, type Role } from '../lib/roles';
import { formatTime } from '../lib/time';
import type { InvocationDetailData } from './InvocationDetail';
import { Badge, ProblemView } from './ui';

// The judge panel's opinion of an invocation (GET /api/v1/invocations/{id}
// `judgement`), shown beside its content so a reviewer decides with it; and,
// for the roles that decide reviews, asking the panel (POST …/judge).

type Judgement = NonNullable<InvocationDetailData['judgement']>;

const DECISION: Record<
  'allow' | 'deny' | 'uncertain' | 'abstained',
  { label: string; tone: 'allow' | 'deny' | 'flag' | 'neutral' }
> = {
  allow: { label: 'Allow', tone: 'allow' },
  deny: { label: 'Deny', tone: 'deny' },
  uncertain: { label: 'Uncertain', tone: 'flag' },
  abstained: { label: 'Abstained', tone: 'neutral' },
};

export function JudgementPanel({ id, judgement, role }: { id: number; judgement: Judgement | null; role: Role }) {
  const prefs = usePrefs();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function ask() {
    setBusy(true);
    setError(null);
    try {
      await call(api.POST('/api/v1/invocations/{invocation_id}/judge', { params: { path: { invocation_id: id } } }));
      await qc.invalidateQueries({ queryKey: ['invocation', id] });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }
  const askButton = can.review(role) && judgement?.status !== 'pending' && (
    <button type="button" className="btn btn-sm" disabled={busy} onClick={() => void ask()}>
      {judgement ? 'Ask the judge panel again' : 'Ask the judge panel'}
    </button>
  );
  return (
    <section aria-labelledby={`judgement-${id}`} className="space-y-2" data-testid="judgement">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`judgement-${id}`} className="font-semibold">
          Judge panel
        </h3>
        {askButton}
      </div>
      {error !== null && <ProblemView error={error} />}
      {judgement === null ? (
        <p className="text-muted">Not sent to the judge panel.</p>
      ) : judgement.status === 'pending' ? (
        <p role="status">The panel is reviewing this invocation…</p>
      ) : judgement.status === 'quota_exhausted' && judgement.judges.length === 0 ? (
        <p>Not judged: the plan's judge calls for this month are used up.</p>
      ) : judgement.status === 'failed' ? (
        <p>The panel could not run for this invocation.</p>
      ) : (
        <div className="space-y-2">
          <p className="flex flex-wrap items-center gap-2">
            <span>Panel decision:</span>
            <Badge tone={DECISION[judgement.decision ?? 'uncertain'].tone}>
              {DECISION[judgement.decision ?? 'uncertain'].label}
            </Badge>
            {judgement.unanimous && <Badge>Unanimous</Badge>}
            {judgement.status === 'quota_exhausted' && <Badge tone="flag">Cut short: no judge calls left</Badge>}
            {judgement.auto_resolved && <Badge tone="accent">Resolved the review</Badge>}
          </p>
          <ul className="space-y-2">
            {judgement.judges.map((j) => (
              <li key={j.name} className="rounded border border-line p-2">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="mono">{j.name}</span>
                  <Badge tone={DECISION[j.verdict].tone}>{DECISION[j.verdict].label}</Badge>
                  {j.rubric_points.length > 0 && (
                    <span className="text-sm text-muted">rubric {j.rubric_points.join(', ')}</span>
                  )}
                </p>
                {j.rationale !== null && <p className="mt-1 whitespace-pre-wrap">{j.rationale}</p>}
              </li>
            ))}
          </ul>
          {judgement.rationales_erased && (
            <p className="text-sm text-muted">
              The rationales were deleted with the content (retention or an erasure).
            </p>
          )}
          <p className="text-sm text-muted">
            {judgement.trigger === 'flag' ? 'Escalated by the flag' : 'Asked by a reviewer'}
            {judgement.finished_at ? `, ${formatTime(judgement.finished_at, prefs.zone)}` : ''}
            {judgement.evidence_id !== null ? ` · judge_verdict entry: evidence ${judgement.evidence_id}` : ''}
          </p>
        </div>
      )}
    </section>
  );
}
