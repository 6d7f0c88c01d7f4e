import { Type } from 'typebox';
import { PII_TYPES } from '../detect/index.ts';
import { RuleSchema } from '../policy/index.ts';

// The JSON Schemas of a persona: what the routes validate and the OpenAPI
// document publishes. Bounded everywhere: a persona takes part in the verdict
// of every event of its agents.

const Glob = Type.String({ minLength: 1, maxLength: 256, description: 'Glob: * any run, ? one character' });
// The shape only: a type no detector emits is a 422 naming it (routes.ts), which the schema's enum error would not say.
const PiiType = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Z][A-Z0-9_]*$',
  description: `A PII finding type the detectors emit: ${PII_TYPES.join(', ')}`,
});

export const PersonaBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64 }),
    // Client content under the text rule (http/validation.ts): keeps line breaks, never NUL.
    description: Type.Optional(
      Type.String({ maxLength: 4000, description: "The agent's purpose", 'x-text': 'content' }),
    ),
    allowed_tools: Type.Optional(
      Type.Union([Type.Array(Glob, { maxItems: 500, uniqueItems: true }), Type.Null()], {
        description:
          'The tools an agent of this persona may call; a call outside is a deny and an oos_tool rogue event. Absent or null: no limit.',
      }),
    ),
    allowed_pii_types: Type.Optional(
      Type.Union([Type.Array(PiiType, { maxItems: 100, uniqueItems: true }), Type.Null()], {
        description:
          'PII types an agent of this persona may handle (e.g. EMAIL_ADDRESS); PII of another type is a reason to flag. A type no detector emits is a 422. Absent or null: no limit.',
      }),
    ),
    overrides: Type.Optional(
      Type.Array(RuleSchema, {
        maxItems: 50,
        description:
          "Policy rules for this persona's agents: a rule with the id of a policy rule replaces it, others are added.",
      }),
    ),
    rubric: Type.Optional(
      Type.String({ maxLength: 8000, description: 'What judges apply to this persona', 'x-text': 'content' }),
    ),
  },
  { additionalProperties: false },
);

export const PersonaView = Type.Object({
  persona_id: Type.String({ format: 'uuid' }),
  version: Type.Integer({ minimum: 1, description: 'Moves on every change; verdict reasons name it' }),
  name: Type.String(),
  description: Type.String(),
  allowed_tools: Type.Union([Type.Array(Type.String()), Type.Null()]),
  allowed_pii_types: Type.Union([Type.Array(Type.String()), Type.Null()]),
  overrides: Type.Array(RuleSchema),
  rubric: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const PersonaList = Type.Object({ personas: Type.Array(PersonaView) });

export const PersonaIdParams = Type.Object({ persona_id: Type.String({ format: 'uuid' }) });

export const AgentPersonaBody = Type.Object(
  {
    persona_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'null removes the persona' }),
  },
  { additionalProperties: false },
);

export const AgentPersonaView = Type.Object({
  agent_key: Type.String(),
  persona_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  updated_at: Type.String({ format: 'date-time' }),
});
