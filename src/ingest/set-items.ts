import type { PlanCaps } from '../config/index.ts';
import type { PreparedInvocation, RogueRecord } from './prepare.ts';

export type { RogueRecord } from './prepare.ts';

// What the set job (record.ts) takes and answers: decided events, one outcome each.

/** A request's Idempotency-Key (or a batch item's event_id) and the fingerprint of what it asked. */
export interface IdempotencyClaim {
  key: string;
  /** Hex SHA-256 of the endpoint kind and the canonical JSON body. */
  fingerprint: string;
}

interface ItemBase {
  /** When the request is recorded: the day its quota counts on, the age of idempotency keys. */
  now: Date;
  caps: PlanCaps;
  /** The change epoch the request's cached token, plan, policy and scope were read at (undefined: nothing cached). */
  epoch: number | undefined;
  idem?: IdempotencyClaim | undefined;
}

export type RecordItem =
  | (ItemBase & { kind: 'invocation'; prepared: PreparedInvocation })
  | (ItemBase & { kind: 'rogue'; event: RogueRecord });

/** What a request gets for one item. */
export type RecordOutcome =
  /** recordedAt: when the event was recorded (its created_at; a replay's, the first answer's). */
  | { status: 201; body: Record<string, unknown>; replayed: boolean; recordedAt: Date }
  | { refused: 'plan_limit' | 'quota_exceeded' | 'idempotency_key_reused' }
  /** Something the request read from memory changed meanwhile (on any node): decide again with fresh reads. */
  | { stale: true };

/** The first answer to an idempotency key, as stored with it. */
export interface StoredResponse {
  status: 201;
  body: Record<string, unknown>;
}
