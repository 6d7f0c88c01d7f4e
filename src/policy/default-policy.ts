import type { PolicyDocument } from './engine.ts';

/**
 * The policy of a new workspace: allow by default; review anything that
 * carries PII or injection; deny secrets handed to a tool and injected
 * instructions in enforced mode.
 */
export const DEFAULT_POLICY: PolicyDocument = {
  default_verdict: 'allow',
  rules: [
    {
      id: 'secret-in-tool-input',
      description: 'A credential was passed to a tool.',
      when: { finding_types: ['SECRET'], fields: ['tool_input'] },
      verdict: 'deny',
    },
    {
      id: 'secret-in-content',
      description: 'A credential appears in a prompt, response, context or tool output.',
      when: { finding_types: ['SECRET'], fields: ['prompt', 'response', 'context', 'tool_output'] },
      verdict: 'flag_for_review',
    },
    {
      id: 'pii-in-tool-input',
      description: 'Personal data was passed to a tool.',
      when: {
        finding_types: ['CREDIT_CARD', 'IBAN_CODE', 'US_SSN', 'UK_NHS', 'CRYPTO', 'MEDICAL_LICENSE', 'US_PASSPORT', 'US_BANK_NUMBER', 'US_DRIVER_LICENSE', 'US_ITIN'],
        fields: ['tool_input'],
      },
      verdict: 'flag_for_review',
    },
    {
      id: 'prompt-injection-enforced',
      description: 'Injected instructions reached an agent that asks before acting.',
      when: { finding_types: ['PROMPT_INJECTION'], modes: ['enforced'], min_score: 0.5 },
      verdict: 'deny',
    },
    {
      id: 'prompt-injection',
      description: 'Injected instructions reached an agent.',
      when: { finding_types: ['PROMPT_INJECTION'], min_score: 0.5 },
      verdict: 'flag_for_review',
    },
  ],
};
