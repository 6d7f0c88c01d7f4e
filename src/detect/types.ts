/** Which part of an agent action a text is (the content fields of an invocation). */
export type ContentField = 'prompt' | 'response' | 'context' | 'tool_input' | 'tool_output';

/** What a finding is about: personal data, a credential, or an instruction aimed at the model. */
export type FindingCategory = 'pii' | 'secret' | 'injection';

/**
 * A detected span: the one finding type of the service (detectors, storage, policy, reports).
 * `start`/`end` are JavaScript string indices (UTF-16 code units), end exclusive.
 */
export interface Finding {
  type: string;
  start: number;
  end: number;
  /** Confidence in [0, 1]. */
  score: number;
  /** Set once the finding leaves the detectors (storage scan, policy); always `categoryOf(type)`. */
  category?: FindingCategory;
}

/** A pure detector: text in, findings out. Must run in time linear in `text.length`. */
export type Detector = (text: string) => Finding[];

export const INJECTION_TYPE = 'PROMPT_INJECTION';

/** Secret types (names follow the shared corpus; AGENT_LEDGER_TOKEN is our own `svc_live_` token). */
export const SECRET_TYPES: ReadonlySet<string> = new Set([
  'AWS_ACCESS_KEY',
  'AWS_SECRET_KEY',
  'AZURE_KEY',
  'GOOGLE_API_KEY',
  'GCP_SERVICE_ACCOUNT_KEY',
  'GITHUB_TOKEN',
  'GITLAB_TOKEN',
  'SLACK_TOKEN',
  'SLACK_WEBHOOK',
  'STRIPE_KEY',
  'NPM_TOKEN',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'HUGGINGFACE_TOKEN',
  'AGENT_LEDGER_TOKEN',
  'PRIVATE_KEY',
  'JWT',
  'GENERIC_SECRET',
]);

export function isSecretType(type: string): boolean {
  return SECRET_TYPES.has(type);
}

export function isInjectionType(type: string): boolean {
  return type === INJECTION_TYPE;
}

/** Everything that is neither a secret nor an injection finding is PII (Presidio entity names). */
export function isPiiType(type: string): boolean {
  return !isSecretType(type) && !isInjectionType(type);
}

export function categoryOf(type: string): FindingCategory {
  return isInjectionType(type) ? 'injection' : isSecretType(type) ? 'secret' : 'pii';
}
