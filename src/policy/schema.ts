import { Type } from 'typebox';

// The JSON Schema of a policy document: what PUT /api/v1/policy validates and
// what the OpenAPI document publishes. Bounded everywhere: a policy is
// evaluated on every event.

const VerdictSchema = Type.Union([Type.Literal('allow'), Type.Literal('flag_for_review'), Type.Literal('deny')]);
const FieldSchema = Type.Union([
  Type.Literal('prompt'),
  Type.Literal('response'),
  Type.Literal('context'),
  Type.Literal('tool_input'),
  Type.Literal('tool_output'),
]);
const Glob = Type.String({ minLength: 1, maxLength: 512, description: 'Glob: * any run, ? one character' });
const list = <T extends Parameters<typeof Type.Array>[0]>(item: T, max = 100) =>
  Type.Optional(Type.Array(item, { minItems: 1, maxItems: max }));

export const RuleConditionSchema = Type.Object(
  {
    finding_types: list(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Z][A-Z0-9_]*$' })),
    finding_categories: list(Type.Union([Type.Literal('pii'), Type.Literal('secret'), Type.Literal('injection')]), 3),
    fields: list(FieldSchema, 5),
    min_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    agents: list(Glob),
    tools: list(Glob),
    modes: list(Type.Union([Type.Literal('observed'), Type.Literal('enforced'), Type.Literal('shadow')]), 3),
    outcomes: list(Glob),
    principal_kinds: list(Type.Union([Type.Literal('user'), Type.Literal('agent')]), 2),
    principal_ids: list(Glob),
  },
  { additionalProperties: false, description: 'Every condition given must hold; an empty condition always fires.' },
);

export const RuleSchema = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z0-9][a-z0-9_.-]*$',
      description: 'Stored as the reason when the rule fires',
    }),
    // Client content under the text rule (http/validation.ts): keeps line breaks, never NUL.
    description: Type.Optional(Type.String({ maxLength: 500, 'x-text': 'content' })),
    when: RuleConditionSchema,
    verdict: VerdictSchema,
    judge: Type.Optional(
      Type.Boolean({
        description:
          "true: an invocation this rule fires on goes to the workspace's judge panel whatever its verdict (not in shadow mode; with a panel and a plan with judge calls). The panel advises; it resolves a review only of an invocation in the review queue.",
      }),
    ),
    hold: Type.Optional(
      Type.Boolean({
        description:
          'true: in enforced mode an invocation this rule fires on is held for a person (verdict flag_for_review and a pending approval, GET /api/v1/approvals/{approval_id}), unless another rule denies it. In observed and shadow mode the rule gives its verdict as usual.',
      }),
    ),
    hold_seconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 86_400,
        description:
          'How long a held invocation waits for a decision before it expires (a deny); default 300. With several hold rules firing, the longest.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PolicyDocumentSchema = Type.Object(
  {
    default_verdict: VerdictSchema,
    rules: Type.Array(RuleSchema, { maxItems: 200 }),
  },
  { additionalProperties: false },
);

export const PolicyView = Type.Object({
  version: Type.Integer({ description: '0 is the built-in default of a workspace that has not stored a policy' }),
  default_verdict: VerdictSchema,
  rules: Type.Array(RuleSchema),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
