import { NullableJudgement } from '../judges/index.ts';
import { Type } from 'typebox';
import { ContentText, NullableTimestamp, PageQuery, Timestamp } from '../http/index.ts';
import { OtelDetailsSchema } from '../otlp/index.ts';

// Response and query shapes of the read side.

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);
const NullableStr = Type.Union([Type.String(), Type.Null()]);

export const VerdictSchema = Type.Union([Type.Literal('allow'), Type.Literal('flag_for_review'), Type.Literal('deny')]);
export const ModeSchema = Type.Union([Type.Literal('observed'), Type.Literal('enforced'), Type.Literal('shadow')]);
export const ReviewStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
]);
export const DecisionSchema = Type.Union([Type.Literal('approve'), Type.Literal('reject')]);
const ContentFieldSchema = Type.Union([
  Type.Literal('prompt'),
  Type.Literal('response'),
  Type.Literal('context'),
  Type.Literal('tool_input'),
  Type.Literal('tool_output'),
]);

const DateTime = (description: string) => Type.Optional(Type.String({ format: 'date-time', description }));
const Since = DateTime('Only rows created at or after this instant (ISO 8601 date-time with offset)');
const Until = DateTime('Only rows created before this instant (exclusive)');

export const InvocationQuery = Type.Object({
  ...PageQuery,
  agent_key: Type.Optional(ContentText({ minLength: 1, maxLength: 512 })),
  verdict: Type.Optional(VerdictSchema),
  mode: Type.Optional(ModeSchema),
  since: Since,
  until: Until,
  correlation_id: Type.Optional(ContentText({ maxLength: 64 })),
  occurred_from: DateTime(
    'Only invocations that happened at or after this instant (occurred_at; ISO 8601 date-time with offset)',
  ),
  occurred_to: DateTime('Only invocations that happened before this instant (occurred_at, exclusive)'),
});

export const RogueQuery = Type.Object({
  ...PageQuery,
  agent_key: Type.Optional(ContentText({ minLength: 1, maxLength: 512 })),
  event_type: Type.Optional(ContentText({ minLength: 1, maxLength: 40 })),
  since: Since,
  until: Until,
});

export const ReviewQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(ReviewStatusSchema),
});

export const AgentsQuery = Type.Object({ ...PageQuery });

export const InvocationIdParams = Type.Object({
  invocation_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});

export const AgentKeyParams = Type.Object({ agent_key: ContentText({ minLength: 1, maxLength: 512 }) });

const page = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({ items: Type.Array(item), next_cursor: Nullable(Type.String()) });

/** An invocation's metadata: what every role may see, in lists and in the record. */
const invocationFields = {
  invocation_id: Type.Integer(),
  agent_key: Type.String(),
  mode: ModeSchema,
  outcome: Type.String(),
  duration_ms: NullableInt,
  principal_kind: Type.Union([Type.Literal('user'), Type.Literal('agent'), Type.Null()]),
  principal_id: Type.String(),
  parent_invocation_id: NullableInt,
  correlation_id: NullableStr,
  tool_name: NullableStr,
  verdict: VerdictSchema,
  reasons: Type.Array(Type.String(), { description: 'Ids of the policy rules that decided the verdict' }),
  policy_version: Type.Integer(),
  pii_count: NullableInt,
  review_status: Type.Union([ReviewStatusSchema, Type.Null()], { description: 'null: never in the review queue' }),
  output_scan_verdict: Type.Union([VerdictSchema, Type.Null()], {
    description: 'Verdict of the tool_output scan, once done',
  }),
  evidence_id: Type.Integer({
    description: 'The audit-trail entry of the invocation: GET /api/v1/audit/evidence/{evidence_id}',
  }),
  created_at: Type.Unsafe<Date | string>({
    type: 'string',
    format: 'date-time',
    description:
      "When the service recorded the invocation: its audit leaf's time, what lists are ordered by and `since`/`until`, reports, quotas, retention and erasure periods go by",
  }),
  occurred_at: Type.Unsafe<Date | string>({
    type: 'string',
    format: 'date-time',
    description:
      "When the invocation happened, as its event says (an OTLP span's start time, never before the workspace existed nor after created_at; committed in its leaf's `meta`); created_at for an event that names no time of its own",
  }),
};

export const InvocationSummary = Type.Object(invocationFields);
export const InvocationPage = page(InvocationSummary);

const TraceItem = Type.Object({
  invocation_id: Type.Integer(),
  parent_invocation_id: NullableInt,
  agent_key: Type.String(),
  tool_name: NullableStr,
  mode: ModeSchema,
  outcome: Type.String(),
  verdict: VerdictSchema,
  evidence_id: Type.Integer(),
  created_at: Timestamp,
});

const FindingSchema = Type.Object({
  type: Type.String(),
  start: Type.Integer({ description: 'Offset (UTF-16 code units) into the stored text' }),
  end: Type.Integer(),
  score: Type.Number(),
  category: Type.Optional(Type.String()),
});

export const ReviewDecisionView = Type.Object({
  decision: DecisionSchema,
  note: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'Omitted for viewers; null once erased' }),
  ),
  note_erased: Type.Optional(Type.Boolean({ description: 'The note was deleted by retention or an erasure' })),
  decided_by: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: 'The account that decided; null when the judge panel did',
  }),
  decided_by_panel: Type.Boolean({
    description: "The judge panel resolved it on its own (unanimous, with the workspace's auto_resolve on)",
  }),
  decided_at: Timestamp,
  evidence_id: Type.Integer({ description: 'The review entry in the audit trail' }),
});

export const InvocationRecord = Type.Object({
  ...invocationFields,
  output_scan: Type.Object({
    status: Type.Union([Type.Literal('none'), Type.Literal('pending'), Type.Literal('done')], {
      description: 'none: no tool_output; pending: stored, awaiting its background scan',
    }),
    verdict: Type.Union([VerdictSchema, Type.Null()]),
    reasons: Type.Union([Type.Array(Type.String()), Type.Null()]),
    scanned_at: NullableTimestamp,
  }),
  review: Type.Union([ReviewDecisionView, Type.Null()]),
  judgement: NullableJudgement,
  finding_counts: Type.Array(
    Type.Object({
      field: ContentFieldSchema,
      counts: Type.Record(Type.String(), Type.Integer(), { description: 'type → findings' }),
    }),
    { description: 'Finding types and counts per stored field (every role)' },
  ),
  content: Type.Optional(
    Type.Array(
      Type.Object({
        field: ContentFieldSchema,
        text: Type.Union([Type.String(), Type.Null()], {
          description: 'The stored (redacted) text; null while a tool_output awaits its scan, or once erased',
        }),
        findings: Type.Union([Type.Array(FindingSchema), Type.Null()]),
        scan_pending: Type.Boolean(),
        erased: Type.Boolean({
          description:
            'Deleted by retention or an erasure: text and finding positions are gone (types stay in finding_counts)',
        }),
      }),
      { description: 'Stored content per field, findings with offsets into it. Omitted for viewers.' },
    ),
  ),
  trace: Type.Object({
    parent: Type.Union([TraceItem, Type.Null()], { description: 'null when there is none in this workspace' }),
    children: Type.Array(TraceItem, {
      description: 'Invocations naming this one as parent, oldest first (at most 100)',
    }),
    children_truncated: Type.Boolean(),
    siblings: Type.Array(TraceItem, {
      description: 'Other invocations with the same correlation_id, oldest first (at most 100)',
    }),
    siblings_truncated: Type.Boolean(),
  }),
  otel: Type.Union([OtelDetailsSchema, Type.Null()], {
    description: 'The span facts when recorded over OTLP (/api/v1/otel/v1/traces); null otherwise',
  }),
});

export const RogueEventView = Type.Object({
  rogue_event_id: Type.Integer(),
  event_type: Type.String(),
  agent_key: Type.String(),
  actor_agent_key: NullableStr,
  tool: NullableStr,
  user_id: NullableStr,
  severity: NullableStr,
  source: NullableStr,
  invocation_id: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Set when the service recorded it for an invocation',
  }),
  evidence_id: Type.Integer(),
  created_at: Timestamp,
});
export const RoguePage = page(RogueEventView);

const RiskView = Type.Object({
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  denies: Type.Integer(),
  flags: Type.Integer(),
  rogue_events: Type.Integer(),
  pii_findings: Type.Integer(),
  clean_invocations: Type.Integer(),
});

export const AgentSummary = Type.Object({
  agent_key: Type.String(),
  first_seen_at: NullableTimestamp,
  last_seen_at: NullableTimestamp,
  invocations: Type.Integer(),
  rogue_events: Type.Integer(),
  risk_score: Type.Integer({ minimum: 0, maximum: 100 }),
});
export const AgentPage = page(AgentSummary);

const Counts = Type.Record(Type.String(), Type.Integer());

export const AgentView = Type.Object({
  agent_key: Type.String(),
  first_seen_at: NullableTimestamp,
  last_seen_at: NullableTimestamp,
  invocations: Type.Integer(),
  by_verdict: Type.Object({ allow: Type.Integer(), flag_for_review: Type.Integer(), deny: Type.Integer() }),
  by_outcome: Counts,
  by_mode: Type.Object({ observed: Type.Integer(), enforced: Type.Integer(), shadow: Type.Integer() }),
  pii_findings: Type.Integer({ description: 'PII findings in tool_input, summed' }),
  rogue_events: Type.Object({ total: Type.Integer(), by_type: Counts }),
  allowed_tools: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'Glob patterns; null: unrestricted',
  }),
  risk: RiskView,
});

export const ReviewBody = Type.Object({
  decision: DecisionSchema,
  note: Type.Optional(
    ContentText({
      maxLength: 2000,
      default: '',
      description:
        'Up to 2,000 characters; may be empty. Stored redacted like content (PII and secrets as typed placeholders)',
    }),
  ),
});

export const ReviewDone = Type.Object({
  invocation_id: Type.Integer(),
  review_status: Type.Union([Type.Literal('approved'), Type.Literal('rejected')]),
  decision: DecisionSchema,
  note: Type.String(),
  decided_by: Type.String({ format: 'uuid' }),
  decided_at: Timestamp,
  evidence_id: Type.Integer({ description: 'The review entry in the audit trail' }),
});

export const ReviewItem = Type.Object({
  ...invocationFields,
  review: Type.Union([ReviewDecisionView, Type.Null()], { description: 'null while pending' }),
  judgement: NullableJudgement,
});
export const ReviewPage = page(ReviewItem);
