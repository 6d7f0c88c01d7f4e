import { Type } from 'typebox';
import { ContentText, NullableTimestamp, PageQuery, Timestamp } from '../http/index.ts';

// Field rules of the two event endpoints, to the letter of API.md. Lengths are
// code points (Ajv counts them so), types are strict, unknown fields ignored.

const MAX_TEXT = 32_000;
const text = (description: string) => ContentText({ maxLength: MAX_TEXT, description });

export const InvocationBody = Type.Object({
  agent_key: ContentText({ minLength: 1, maxLength: 512, description: 'First sight registers the agent' }),
  mode: Type.Optional(
    Type.Union([Type.Literal('observed'), Type.Literal('enforced'), Type.Literal('shadow')], { default: 'observed' }),
  ),
  outcome: Type.Optional(
    ContentText({
      minLength: 1,
      maxLength: 64,
      default: 'success',
      description: 'Stored redacted (PII and secrets as typed placeholders)',
    }),
  ),
  duration_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  principal_kind: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('agent')])),
  principal_id: Type.Optional(ContentText({ minLength: 1, maxLength: 512, description: 'Defaults to agent_key' })),
  parent_invocation_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
  correlation_id: Type.Optional(
    ContentText({ maxLength: 64, description: 'Stored redacted (PII and secrets as typed placeholders)' }),
  ),
  // No length rule: API.md makes it a plain string, ignored with API and scoped
  // tokens (whatever it holds); the fallback token needs a workspace's UUID (403 otherwise).
  tenant_id: Type.Optional(ContentText({ description: 'Only read with the fallback ingress token' })),
  prompt: Type.Optional(text('Up to 32,000 characters')),
  response: Type.Optional(text('Up to 32,000 characters')),
  context: Type.Optional(text('Up to 32,000 characters')),
  tool_input: Type.Optional(text('Scanned before the write; PII is redacted before it is stored')),
  tool_output: Type.Optional(text('Stored sealed (encrypted), then scanned in the background and stored redacted')),
  tool_name: Type.Optional(
    ContentText({ maxLength: 256, description: 'Policy and scopes see it as sent; stored redacted' }),
  ),
});

/** The approval a held invocation waits for (a policy rule with "hold": true, enforced mode). */
const HeldApproval = Type.Object(
  {
    approval_id: Type.String({ format: 'uuid' }),
    status: Type.Literal('pending'),
    expires_at: Type.String({ format: 'date-time' }),
  },
  {
    description:
      'Present when a hold rule fired (enforced mode): the call waits for a person. Poll GET /api/v1/approvals/{approval_id}?wait=60 until its status is approved, or denied / expired (both mean: do not act).',
  },
);

/** Why: the ids of the policy rules that made the verdict, answered to enforced calls. */
const EnforcedReasons = Type.Array(Type.String(), {
  description:
    'Enforced mode only: the ids of the policy rules (or persona overrides) that made the verdict, `default` when none fired — as GET /api/v1/invocations/{invocation_id} shows them',
});

export const InvocationCreated = Type.Object({
  invocation_id: Type.Integer(),
  tenant_id: ContentText(),
  verdict: Type.Union([Type.Literal('allow'), Type.Literal('flag_for_review'), Type.Literal('deny')]),
  evidence_id: Type.Optional(Type.Integer()),
  pii_count: Type.Optional(Type.Integer()),
  reasons: Type.Optional(EnforcedReasons),
  approval: Type.Optional(HeldApproval),
});

const ApprovalStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('denied'),
  Type.Literal('expired'),
]);

export const ApprovalView = Type.Object({
  approval_id: Type.String({ format: 'uuid' }),
  invocation_id: Type.Integer(),
  agent_key: Type.String(),
  tool_name: Type.Union([Type.String(), Type.Null()], { description: 'As stored: redacted' }),
  status: ApprovalStatusSchema,
  created_at: Timestamp,
  expires_at: Timestamp,
  evidence_id: Type.Integer({ description: 'The approval_requested leaf' }),
  decided_by: Type.Optional(
    Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'The account that decided; null when it expired',
    }),
  ),
  decided_at: Type.Optional(NullableTimestamp),
  decision_evidence_id: Type.Optional(Type.Integer({ description: 'The approval_decided or approval_expired leaf' })),
  note: Type.Optional(ContentText({ description: "The decider's note as stored (redacted); not shown to viewers" })),
  note_erased: Type.Optional(
    Type.Literal(true, { description: 'The note was deleted by retention or an erasure; the decision stays' }),
  ),
});

export const ApprovalPage = Type.Object({
  items: Type.Array(ApprovalView),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

export const ApprovalQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(ApprovalStatusSchema),
});

export const ApprovalIdParams = Type.Object({ approval_id: Type.String({ format: 'uuid' }) });

export const ApprovalWaitQuery = Type.Object({
  wait: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 60,
      default: 0,
      description: 'Seconds to wait for a pending approval to be decided (long poll); answers as soon as it is',
    }),
  ),
});

export const ApprovalDecisionBody = Type.Object(
  {
    decision: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
    note: Type.Optional(
      ContentText({
        maxLength: 2000,
        default: '',
        description:
          'Up to 2,000 characters; may be empty. Stored redacted like content (PII and secrets as typed placeholders)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RogueBody = Type.Object({
  event_type: ContentText({
    minLength: 1,
    maxLength: 40,
    description: '`oos_tool` = out-of-scope tool call; stored redacted',
  }),
  agent_key: ContentText({ minLength: 1, maxLength: 512 }),
  actor_agent_key: Type.Optional(ContentText({ minLength: 1, maxLength: 512 })),
  tool: Type.Optional(
    ContentText({ maxLength: 256, description: 'Required when event_type is oos_tool; stored redacted' }),
  ),
  user_id: Type.Optional(ContentText({ maxLength: 512 })),
  tenant_id: Type.Optional(ContentText({ description: 'Only read with the fallback ingress token' })),
  severity: Type.Optional(
    ContentText({ maxLength: 64, description: 'Stored redacted (PII and secrets as typed placeholders)' }),
  ),
  source: Type.Optional(
    ContentText({ maxLength: 64, description: 'Stored redacted (PII and secrets as typed placeholders)' }),
  ),
});

export const RogueCreated = Type.Object({
  accepted: Type.Literal(true),
  event_type: ContentText(),
  tenant_id: ContentText(),
});

export const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes a retry safe: 1-255 printable ASCII characters. A later request of this workspace with the same key and the same body gets the first response again (header `Idempotent-Replayed: true`) and records nothing; another body with that key is 422 `idempotency_key_reused`. Keys are kept 24 hours. Keys starting with `otlp:` are reserved (422).',
    }),
  ),
});

const BatchItem = Type.Object({
  kind: Type.Union([Type.Literal('invocation'), Type.Literal('rogue')]),
  event_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7e]+$',
      description: 'Works as an Idempotency-Key for this event (keys starting with `otlp:` are reserved: 422)',
    }),
  ),
  event: Type.Unknown({ description: 'The body the single endpoint of this kind takes (checked per event)' }),
});

/** A batch's body (of events, or of tool results) may be larger than a single event's. */
export const BATCH_BODY_LIMIT = 4 * 1024 * 1024;

export const BatchBody = Type.Object({
  events: Type.Array(BatchItem, { minItems: 1, maxItems: 500 }),
  tenant_id: Type.Optional(
    Type.String({ description: 'Only read with the fallback ingress token: the workspace of every event' }),
  ),
});

const BatchResult = Type.Object(
  {
    index: Type.Integer({ description: 'Position of the event in the request' }),
    event_id: Type.Union([Type.String(), Type.Null()]),
    status: Type.Integer({ description: 'What the single endpoint would have answered: 201, or a problem status' }),
    invocation_id: Type.Optional(Type.Integer()),
    tenant_id: Type.Optional(Type.String()),
    verdict: Type.Optional(Type.Union([Type.Literal('allow'), Type.Literal('flag_for_review'), Type.Literal('deny')])),
    evidence_id: Type.Optional(Type.Integer()),
    pii_count: Type.Optional(Type.Integer()),
    reasons: Type.Optional(EnforcedReasons),
    approval: Type.Optional(HeldApproval),
    accepted: Type.Optional(Type.Literal(true)),
    event_type: Type.Optional(Type.String()),
    code: Type.Optional(Type.String({ description: 'The problem code, when status is not 201' })),
    detail: Type.Optional(Type.String()),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { additionalProperties: false },
);

export const BatchResults = Type.Object({ results: Type.Array(BatchResult) });

export const InvocationIdParams = Type.Object({ invocation_id: Type.Integer({ minimum: 1 }) });

export const AttachOutputBody = Type.Object({
  tool_output: text('Stored sealed (encrypted), then scanned in the background and stored redacted'),
});

export const AttachOutputsBody = Type.Object({
  outputs: Type.Array(
    Type.Object({
      invocation_id: Type.Integer({ minimum: 1 }),
      tool_output: text('Stored sealed (encrypted), then scanned in the background and stored redacted'),
    }),
    { minItems: 1, maxItems: 100 },
  ),
});

export const OutputsAttached = Type.Object({
  results: Type.Array(
    Type.Object(
      {
        index: Type.Integer({ description: 'Position of the result in the request' }),
        invocation_id: Type.Integer(),
        status: Type.Integer({ description: 'What the single endpoint would have answered: 201, or a problem status' }),
        evidence_id: Type.Optional(Type.Integer({ description: 'The tool_output_attached leaf (201)' })),
        code: Type.Optional(Type.String({ description: 'The problem code, when status is not 201' })),
        detail: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
  ),
});

export const OutputAttached = Type.Object({
  invocation_id: Type.Integer(),
  evidence_id: Type.Integer({ description: 'The tool_output_attached leaf' }),
});
