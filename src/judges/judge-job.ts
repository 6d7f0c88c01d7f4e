import type { Db, Queryable } from '../db/index.ts';
import type { JobHandler } from '../jobs/index.ts';
import { commitment, encodeLeaf, LEAF_VERSION, type LogWriter, newSalt, type OpenAppend } from '../ledger/index.ts';
import { type CaseForJudges, loadCase } from './judge-case.ts';
import { type OpenJudge, openJudges, panelOf, type Quorum } from './panel-config.ts';
import type { Dispatcher } from 'undici';
import { callsUsed, reserve } from './quota.ts';
import {
  attemptOfJob,
  finishJudgement,
  insertPending,
  judgementAt,
  type PanelDecision,
  type StoredOpinion,
} from './store.ts';

// The judge job (issue 17): the workspace's panel reviews one invocation in
// the background, never in a request. Three steps, each its own transaction:
//   1. the attempt: an automatic escalation creates its pending judgement
//      (tied to its job, so a retried job finds it again); a reviewer's
//      request created it already;
//   2. the panel is asked (runPanel), every call counted first against the
//      month's cap in a committed transaction keyed by attempt, judge and
//      call number (a retry after a crash counts no call twice);
//   3. the answers, the decision, the judge_verdict leaf and an automatic
//      resolution commit together with the job's deletion (claim), so a
//      finished judgement is never stored or appended twice.

export interface PanelOutcomeLike {
  decision: PanelDecision;
  unanimous: boolean;
  judges: StoredOpinion[];
}

/** judge-runner's runPanel (src/judges/panel.ts), injected so this job can be read and tested apart from HTTP calls. */
export type RunPanel = (
  judges: OpenJudge[],
  quorum: Quorum,
  c: CaseForJudges,
  opts: {
    reserveCall(judge: string): Promise<boolean>;
    timeoutMs?: number;
    maxAttempts?: number;
    backoffBaseMs?: number;
    signal?: AbortSignal;
    dispatcher?: Dispatcher;
  },
) => Promise<PanelOutcomeLike>;

/** Resolves a pending review as the panel (review module); false when it is no longer pending. */
export type ResolveAsPanel = (
  tx: Queryable,
  log: OpenAppend,
  input: { tenantId: string; invocationId: number; decision: 'approve' | 'reject'; note: string; now: Date },
) => Promise<boolean>;

export interface JudgeJobDeps {
  db: Db;
  writer: LogWriter;
  /** Opens the judges' sealed API keys (derived from the service secret). */
  kek: Uint8Array;
  /** The plan's multi_judge_calls_per_month of a workspace. */
  callsCap(tenantId: string): Promise<number>;
  runPanel: RunPanel;
  resolveAsPanel: ResolveAsPanel;
  timeoutMs?: number;
  maxAttempts?: number;
  backoffBaseMs?: number;
  /** The judges' HTTP client with its address guard (JUDGE_PRIVATE_NETWORKS). */
  dispatcher?: Dispatcher;
  now(): Date;
}

/** Job attempts after which a judgement that keeps failing is marked failed instead of retried. */
export const FAILED_AFTER_ATTEMPTS = 6;

export function judgeHandler(deps: JudgeJobDeps): JobHandler {
  return async (job, claim, signal) => {
    const tenantId = job.tenant_id;
    const invocationId = Number(job.payload.invocation_id);
    const requested = typeof job.payload.attempt === 'number' ? job.payload.attempt : undefined;
    // A policy rule asked for the panel (judge: true): judged whether or not the invocation is in the review queue.
    const byRule = job.payload.by_rule === true;

    // Read outside the transaction below: on PGlite (one connection) a read inside it would wait for it.
    const cap = await deps.callsCap(tenantId);
    // 1. The attempt, the panel and the case.
    const start = await deps.db.withTenant(tenantId, async (tx) => {
      const panel = await panelOf(tx, tenantId);
      let attempt = requested ?? (await attemptOfJob(tx, tenantId, job.job_id))?.attempt;
      const loaded = await loadCase(tx, tenantId, invocationId);
      if (attempt === undefined) {
        // An automatic escalation judges what is still waiting for a human (or what a rule asked for), with a panel
        // to ask, on a plan with judge calls.
        if (!panel || !loaded.found || (!loaded.scanPending && !byRule && loaded.reviewStatus !== 'pending'))
          return { skip: true as const };
        if (cap <= 0) return { skip: true as const };
        const made = await insertPending(tx, tenantId, invocationId, {
          trigger: 'flag',
          by: null,
          jobId: job.job_id,
          now: deps.now(),
        });
        // Another attempt (a reviewer's request) is pending already: that one answers. Or the invocation was judged
        // automatically already (a rule asked at write time and again after the tool_output scan): once is enough.
        if (made === null) return { skip: true as const };
        attempt = made;
      }
      const row = await judgementAt(tx, tenantId, invocationId, attempt);
      if (!row || row.status !== 'pending') return { skip: true as const };
      return { skip: false as const, attempt, panel, loaded };
    });
    if (start.skip) {
      await deps.db.transaction(async (tx) => void (await claim(tx)));
      return;
    }
    const { attempt, panel, loaded } = start;
    const finish = (out: Parameters<typeof store>[2]) =>
      store(deps, { tenantId, invocationId, attempt, claim, autoResolve: panel?.auto_resolve ?? false }, out);

    if (!panel || !loaded.found) return finish({ status: 'failed', outcome: null });
    if (loaded.scanPending) {
      if (job.attempts >= FAILED_AFTER_ATTEMPTS) return finish({ status: 'failed', outcome: null });
      throw new Error('waiting for the tool_output scan: the judges see redacted text only');
    }
    const used = await deps.db.withTenant(tenantId, (tx) => callsUsed(tx, tenantId, deps.now()));
    // At the cap nothing is asked; a retried attempt whose calls were all counted already may go on.
    if (used >= cap && (await countedCalls(deps.db, tenantId, invocationId, attempt)) === 0)
      return finish({ status: 'quota_exhausted', outcome: null });

    let judges: OpenJudge[];
    try {
      judges = openJudges(deps.kek, tenantId, panel);
    } catch {
      // A key sealed under another service secret cannot be opened: no retry will.
      return finish({ status: 'failed', outcome: null });
    }
    const calls = new Map<string, number>();
    let refused = false;
    let outcome: PanelOutcomeLike;
    try {
      outcome = await deps.runPanel(judges, panel.quorum, loaded.case, {
        reserveCall: async (judge) => {
          const n = (calls.get(judge) ?? 0) + 1;
          calls.set(judge, n);
          const ok = await reserve(deps.db, tenantId, { invocationId, attempt, judge, n }, cap, deps.now());
          if (!ok) refused = true;
          return ok;
        },
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
        ...(deps.maxAttempts !== undefined ? { maxAttempts: deps.maxAttempts } : {}),
        ...(deps.backoffBaseMs !== undefined ? { backoffBaseMs: deps.backoffBaseMs } : {}),
        ...(deps.dispatcher !== undefined ? { dispatcher: deps.dispatcher } : {}),
        signal,
      });
    } catch (err) {
      // Stopped (shutdown): the attempt stays pending and runs again, its counted calls kept.
      if (signal.aborted) throw err;
      if (job.attempts >= FAILED_AFTER_ATTEMPTS) return finish({ status: 'failed', outcome: null });
      throw err;
    }
    return finish({ status: refused ? 'quota_exhausted' : 'done', outcome });
  };
}

async function countedCalls(db: Db, tenantId: string, invocationId: number, attempt: number): Promise<number> {
  return db.withTenant(tenantId, async (tx) => {
    const [row] = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM judge_calls WHERE tenant_id = $1 AND invocation_id = $2 AND attempt = $3',
      [tenantId, invocationId, attempt],
    );
    return row!.n;
  });
}

/**
 * Step 3: stores the outcome with the job's deletion. The leaf holds the
 * decision and each judge's verdict in the clear and one salted commitment
 * to the answers as stored (names, rationales, rubric points): the row
 * keeps the salt, so the stored answers can be shown to match the leaf, and
 * erasing both leaves the log intact.
 */
async function store(
  deps: JudgeJobDeps,
  at: {
    tenantId: string;
    invocationId: number;
    attempt: number;
    claim: (tx: Queryable) => Promise<boolean>;
    autoResolve: boolean;
  },
  out: { status: 'done' | 'quota_exhausted' | 'failed'; outcome: PanelOutcomeLike | null },
): Promise<void> {
  const { tenantId, invocationId, attempt } = at;
  await deps.writer.submit(
    tenantId,
    async (tx, log) => {
      if (!(await at.claim(tx))) return;
      const row = await judgementAt(tx, tenantId, invocationId, attempt);
      if (!row || row.status !== 'pending') return;
      const now = deps.now();
      const o = out.outcome;
      if (o === null) {
        await finishJudgement(tx, tenantId, invocationId, attempt, {
          status: out.status,
          decision: null,
          unanimous: null,
          judges: null,
          salt: null,
          logIndex: null,
          autoResolved: false,
          now,
        });
        return;
      }
      const judges: StoredOpinion[] = o.judges.map((j) => ({
        name: j.name,
        verdict: j.verdict,
        rationale: j.rationale,
        rubric_points: j.rubric_points,
        calls: j.calls,
        ...(j.error !== undefined ? { error: j.error } : {}),
      }));
      // A unanimous allow or deny of a complete panel may close the review, if the workspace said so; only an
      // invocation in the review queue has one (resolveAsPanel leaves any other alone: a rule's escalation only advises).
      const resolves = at.autoResolve && out.status === 'done' && o.unanimous && o.decision !== 'uncertain';
      let autoResolved = false;
      const salt = newSalt();
      const index = log.add(
        {
          v: LEAF_VERSION,
          kind: 'judge_verdict',
          invocation_id: invocationId,
          attempt,
          status: out.status,
          decision: o.decision,
          unanimous: o.unanimous,
          verdicts: judges.map((j) => j.verdict),
          opinions: commitment(salt, encodeLeaf({ judges })),
        },
        now,
      );
      if (resolves) {
        autoResolved = await deps.resolveAsPanel(tx, log, {
          tenantId,
          invocationId,
          decision: o.decision === 'allow' ? 'approve' : 'reject',
          note: `Resolved by the judge panel: unanimous ${o.decision} (judgement attempt ${attempt}).`,
          now,
        });
      }
      await finishJudgement(tx, tenantId, invocationId, attempt, {
        status: out.status,
        decision: o.decision,
        unanimous: o.unanimous,
        judges,
        salt,
        logIndex: index,
        autoResolved,
        now,
      });
    },
    { background: true },
  );
}
