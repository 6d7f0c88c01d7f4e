import type { PolicyDocument } from './engine.ts';

/**
 * The policy of a new workspace (version 0 until the workspace stores its
 * own): allow by default; deny credentials handed to a tool and injected
 * instructions reaching an agent in enforced mode; send other secrets,
 * sensitive PII given to tools and injections to review.
 */
export const DEFAULT_POLICY: PolicyDocument = {
  default_verdict: 'allow',
  rules: [
    {
      id: 'secret-in-tool-input',
      description: 'A credential was passed to a tool.',
      when: { finding_categories: ['secret'], fields: ['tool_input'] },
      verdict: 'deny',
    },
    {
      id: 'secret-in-content',
      description: 'A credential appears in a prompt, response, context or tool output.',
      when: { finding_categories: ['secret'], fields: ['prompt', 'response', 'context', 'tool_output'] },
      verdict: 'flag_for_review',
    },
    {
      id: 'sensitive-pii-in-tool-input',
      description: 'Payment, bank or national-id data was passed to a tool.',
      when: {
        finding_types: [
          'CREDIT_CARD',
          'IBAN_CODE',
          'US_SSN',
          'UK_NHS',
          'US_BANK_NUMBER',
          'US_PASSPORT',
          'US_DRIVER_LICENSE',
          'US_ITIN',
          'CRYPTO',
        ],
        fields: ['tool_input'],
      },
      verdict: 'flag_for_review',
    },
    {
      id: 'prompt-injection-enforced',
      description: 'Injected instructions reached an agent that asks before acting.',
      when: { finding_categories: ['injection'], modes: ['enforced'], min_score: 0.5 },
      verdict: 'deny',
    },
    {
      id: 'prompt-injection',
      description: 'Injected instructions reached an agent.',
      when: { finding_categories: ['injection'], min_score: 0.5 },
      verdict: 'flag_for_review',
    },
  ],
};
