import type { Static } from 'typebox';
import type { AppContext } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import type { JudgementSchema } from '../judges/index.ts';
import type { LogWriter } from '../ledger/index.ts';
import type { OtelDetailsSchema } from '../otlp/index.ts';

/** What the read side is given by the service. */
export interface ReviewModuleDeps {
  ctx: AppContext;
  writer: LogWriter;
  /** The OTLP span facts of an invocation recorded from a span (src/otlp), shown in its detail. */
  otelDetails?: (
    tx: Queryable,
    tenantId: string,
    invocation: { id: number; createdAt: Date },
    withTexts: boolean,
  ) => Promise<Static<typeof OtelDetailsSchema> | null>;
  /** The judge panel's latest judgement of each invocation (src/judges); rationales only withRationale. */
  judgements?: (
    tx: Queryable,
    tenantId: string,
    ids: readonly number[],
    withRationale: boolean,
  ) => Promise<Map<number, Static<typeof JudgementSchema>>>;
}
