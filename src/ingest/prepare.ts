import type { Static } from 'typebox';
import { commitment, newSalt } from '../ledger/index.ts';
import type { ContentField, Decision, FieldFindings, Finding } from '../policy/index.ts';
import { sealText, type SealedText } from './sealed-output.ts';
import type { InvocationBody, RogueBody } from './schemas.ts';

export const CONTENT_FIELDS: readonly ContentField[] = ['prompt', 'response', 'context', 'tool_input', 'tool_output'];

/** What the detectors say of one text: findings, and the text to store (redacted). */
export interface ScanResult {
  /** Findings in the original text (what policy decides on). */
  findings: Finding[];
  /** The text to store, PII and secrets replaced by typed placeholders. */
  stored: string;
  /** Findings re-indexed into the stored text. */
  storedFindings: Finding[];
  pii_count: number;
}

export type Scanner = (field: ContentField, text: string) => ScanResult;

export interface StoredText {
  field: ContentField;
  body: string;
  salt: Uint8Array;
  commitment: string;
  /** Findings with offsets into body; null while the text awaits its background scan. */
  findings: Finding[] | null;
  /** A text awaiting its scan: sealed (sealed-output.ts), its body stored empty. */
  sealed?: SealedText;
}

/** An invocation ready to write. Free-form metadata (outcome, correlationId, toolName) are stored redacted. */
export interface PreparedInvocation {
  tenantId: string;
  agentKey: string;
  /** The agent's pseudonym in the workspace log (ledger/pseudonyms.ts). */
  agentPseudonym: string;
  mode: 'observed' | 'enforced' | 'shadow';
  outcome: string;
  durationMs: number | undefined;
  principalKind: 'user' | 'agent' | undefined;
  principalId: string;
  parentInvocationId: number | undefined;
  correlationId: string | undefined;
  toolName: string | undefined;
  content: StoredText[];
  findings: FieldFindings[];
  /** PII findings in tool_input; undefined when it held none (the response then omits pii_count). */
  piiCount: number | undefined;
  decision: Decision;
  policyVersion: number;
  toolInScope: boolean | undefined;
  /** Salt of the leaf's commitment to the metadata, stored in the row. */
  metaSalt: Uint8Array;
  /**
   * The leaf's commitment to the metadata (leaves.ts metaCommitmentOf), taken
   * before the write transaction so that its hashing is not done while the
   * workspace's log is locked; computed there when absent.
   */
  metaCommitment?: string;
  /** The rogue oos_tool event to record with it when the tool is outside the agent's scope. */
  outOfScope: RogueRecord | undefined;
  /** When the event says it happened (ISO 8601, an OTLP span's start); undefined: when it was received. */
  occurredAt?: string | undefined;
  /** The API or ingress token that recorded it (the owner of its approval, when it is held). */
  recordedBy?: string | undefined;
}

export type InvocationInput = Static<typeof InvocationBody>;
export type RogueInput = Static<typeof RogueBody>;

/** A rogue event as stored: free-form fields already redacted, pseudonyms of its agent and type taken. */
export interface RogueRecord extends Omit<RogueInput, 'tenant_id'> {
  invocation_id?: number;
  pseudonyms: { agent: string; type: string };
}

/**
 * Scans, redacts and commits each text field: everything before the write
 * that needs no database. tool_output is scanned later by a background job,
 * so the agent is not kept waiting for it; until then it is stored sealed
 * under `kek` (sealed-output.ts), never in clear. Its leaf commitment is to
 * the text as sent; the tool_output_scan leaf commits to the redacted text.
 */
export function scanContent(body: InvocationInput, scan: Scanner, sealing: { kek: Uint8Array; tenantId: string }) {
  const content: StoredText[] = [];
  const findings: FieldFindings[] = [];
  let piiCount: number | undefined;
  for (const field of CONTENT_FIELDS) {
    const text = body[field];
    if (text === undefined) continue;
    const salt = newSalt();
    if (field === 'tool_output') {
      const sealed = sealText(sealing.kek, sealing.tenantId, text);
      content.push({ field, body: '', salt, commitment: commitment(salt, text), findings: null, sealed });
      continue;
    }
    const r = scan(field, text);
    if (r.findings.length > 0) findings.push({ field, findings: r.findings });
    if (field === 'tool_input' && r.pii_count > 0) piiCount = r.pii_count;
    content.push({ field, body: r.stored, salt, commitment: commitment(salt, r.stored), findings: r.storedFindings });
  }
  return { content, findings, piiCount };
}

/**
 * scanContent, with the detectors run by `scanMany` (the scan scheduler: on
 * the event loop in turn, or on a worker) for the text fields that are
 * scanned before the write.
 */
export async function scanContentWith(
  body: InvocationInput,
  scanMany: (fields: Array<[ContentField, string]>) => Promise<ScanResult[]>,
  sealing: { kek: Uint8Array; tenantId: string },
) {
  const scanned = CONTENT_FIELDS.filter((f) => f !== 'tool_output' && body[f] !== undefined);
  const results = await scanMany(scanned.map((f) => [f, body[f]!]));
  const byField = new Map(scanned.map((f, i) => [f, results[i]!]));
  return scanContent(body, (field) => byField.get(field)!, sealing);
}

/**
 * Which of these fields hold strings PostgreSQL cannot store as text: a NUL,
 * or a lone UTF-16 surrogate. Only fields that are stored are checked: unknown
 * fields (and an ignored tenant_id) must never be a reason to refuse.
 */
export function unstorableFields(body: Record<string, unknown>, fields: readonly string[]): string[] {
  return fields.filter((k) => {
    const v = body[k];
    return typeof v === 'string' && (v.includes('\u0000') || !v.isWellFormed());
  });
}
