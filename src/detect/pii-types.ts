// The PII types the detectors emit: what a persona's allowed_pii_types may
// name (src/personas), so that a type no detector emits (say "EMAIL" for
// EMAIL_ADDRESS) is refused instead of silently never matching.
//
// The rule tables' types are read from the tables. The hand-written detectors
// (e-mail, URL, IP, MAC, crypto, IBAN, phone, names) have no table: their
// types are named here, and pii-types.test.ts holds this list to their code
// (every type a detector file emits is listed, every listed type is emitted).

import * as numericRules from './numbers/rules.ts';
import * as piiModule from './pii/index.ts';
import * as typesModule from './types.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { NUMERIC_RULES } = numericRules;
const { PATTERN_RULES } = piiModule;
const { INJECTION_TYPE, SECRET_TYPES } = typesModule;

const HAND_WRITTEN_DETECTOR_TYPES = [
  'EMAIL_ADDRESS',
  'URL',
  'IP_ADDRESS',
  'MAC_ADDRESS',
  'CRYPTO',
  'IBAN_CODE',
  'PHONE_NUMBER',
  'PERSON',
  'LOCATION',
  'STREET_ADDRESS',
];

/** Every PII finding type the detectors can emit, sorted. */
export const PII_TYPES: readonly string[] = [
  ...new Set([
    ...HAND_WRITTEN_DETECTOR_TYPES,
    ...NUMERIC_RULES.map((r) => r.type),
    ...PATTERN_RULES.map((r) => r.type),
  ]),
].sort();

const KNOWN: ReadonlySet<string> = new Set(PII_TYPES);

export function isKnownPiiType(type: string): boolean {
  return KNOWN.has(type);
}

/** Every finding type the detectors emit: the PII types, the secret types and PROMPT_INJECTION. */
export const FINDING_TYPES: readonly string[] = [...PII_TYPES, ...SECRET_TYPES, INJECTION_TYPE].sort();

const KNOWN_FINDINGS: ReadonlySet<string> = new Set(FINDING_TYPES);

export function isKnownFindingType(type: string): boolean {
  return KNOWN_FINDINGS.has(type);
}
