import type { FastifyInstance } from 'fastify';
import type { PlanCaps } from '../config/index.ts';
import type { AppContext } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import { type JobHandler, JUDGE_JOB } from '../jobs/index.ts';
import type { AppendEntryInTx, LogWriter } from '../ledger/index.ts';
import { outboundDispatcher } from '../outbound/index.ts';
import { judgeHandler, type ResolveAsPanel } from './judge-job.ts';
import { judgementsOf, type JudgementView } from './judgement-view.ts';
import { runPanel } from './panel.ts';
import { callsCapOf } from './quota.ts';
import { judgeRoutes } from './routes.ts';

// The judge panel of a workspace (issue 17): its configuration and on-demand
// requests (routes.ts), the background judge job (judge-job.ts: the panel asked
// through runPanel, every call counted against the plan's monthly cap in
// quota.ts) and the judgements the read side shows (judgement-view.ts). Owns the
// judge_panels, judgements, judge_calls and judge_usage tables.

/** GET /me's multi_judge_calls_used_this_month: needs nothing but the database, so accounts (made first) are given it. */
export { judgeCallsThisMonth } from './quota.ts';

export interface JudgesModuleDeps {
  ctx: AppContext;
  writer: LogWriter;
  appendInTx: AppendEntryInTx;
  /** Opens the judges' sealed API keys; derived from the service secret, never stored. */
  kek: Uint8Array;
  /** The workspace's plan (accounts): its multi_judge_calls_per_month caps the calls. */
  workspacePlan(tenantId: string): Promise<{ caps: PlanCaps } | null>;
  /** Closes a pending review as the panel when it decides unanimously and the workspace lets it (review module). */
  resolveAsPanel: ResolveAsPanel;
  /** A judge job was enqueued on this node (the job worker's bell, jobs/jobs.ts JobBell). */
  jobsEnqueued(): void;
}

export interface JudgesModule {
  /** The background jobs this module runs, by kind: the judge job. */
  jobs: Record<string, JobHandler>;
  /** The latest judgement of each invocation (the read side's `judgement`); rationales only withRationale. */
  judgements(
    tx: Queryable,
    tenantId: string,
    ids: readonly number[],
    withRationale: boolean,
  ): Promise<Map<number, JudgementView>>;
  routes(app: FastifyInstance): Promise<void>;
}

export function createJudges(deps: JudgesModuleDeps): JudgesModule {
  const { ctx } = deps;
  const callsCap = callsCapOf(deps.workspacePlan);
  return {
    jobs: {
      [JUDGE_JOB]: judgeHandler({
        db: ctx.db,
        writer: deps.writer,
        kek: deps.kek,
        callsCap,
        runPanel,
        resolveAsPanel: deps.resolveAsPanel,
        timeoutMs: ctx.config.judgeTimeoutMs,
        maxAttempts: ctx.config.judgeMaxAttempts,
        dispatcher: outboundDispatcher(ctx.config.judgePrivateNetworks),
        now: ctx.now,
      }),
    },
    judgements: judgementsOf,
    routes: (app) =>
      judgeRoutes(app, { ctx, appendInTx: deps.appendInTx, kek: deps.kek, callsCap, enqueued: deps.jobsEnqueued }),
  };
}
