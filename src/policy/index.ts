// The policy module's face: what other modules may use. Nothing else of policy/ is imported from outside it.

export { HOLD_SECONDS_DEFAULT, OUT_OF_SCOPE_REASON, decide, globMatch } from './engine.ts';
export type {
  ContentField,
  Decision,
  Facts,
  FieldFindings,
  Finding,
  PersonaFacts,
  PolicyDocument,
  Rule,
} from './engine.ts';
export { createPolicy } from './policy.ts';
export { checkRules } from './rule-checks.ts';
export { RuleSchema } from './schema.ts';
export { agentScope, policyVersions } from './store.ts';
