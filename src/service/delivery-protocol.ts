import type { DeliverySettings } from '../destinations/index.ts';
import type { MailMessage } from '../mail/index.ts';

// The messages between the service's thread (delivery-host.ts) and the
// delivery thread (delivery-thread.ts). Plain data only: they are copied.

/** What the delivery thread is started with (its workerData). */
export interface DeliveryThreadData {
  databaseUrl: string;
  /** Connections of the thread's own pool. */
  poolSize: number;
  ledgerOrigin: string;
  /** Opens destinations' URLs, signing secrets and tokens. */
  kek: Uint8Array;
  settings: DeliverySettings;
  /** Whose leases the thread's are: the same for a thread started again after one died, which takes them back. */
  owner: string;
}

/** Where a pass failed, as the engine names it. */
export interface FailedAt {
  tenantId: string;
  destinationId: string;
}

/** An error as it crosses threads: what a log line shows of it. */
export interface ThreadError {
  message: string;
  stack?: string;
  code?: string;
}

export type ToDeliveryThread =
  | { type: 'stop' }
  | { type: 'drain'; id: number }
  | { type: 'answer'; id: number; value?: unknown; error?: ThreadError };

export type FromDeliveryThread =
  | { type: 'started' }
  | { type: 'drained'; id: number; error?: ThreadError }
  | { type: 'ask'; id: number; question: Question }
  | { type: 'grew'; tenantId: string }
  | { type: 'error'; error: ThreadError; where?: FailedAt };

/** What the delivery thread asks the service's thread, which has the mailer and the accounts. */
export type Question = { what: 'mail'; message: MailMessage } | { what: 'adminEmails'; tenantId: string };

export function threadError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { message: String(err) };
  const out: ThreadError = { message: err.message };
  if (err.stack) out.stack = err.stack;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') out.code = code;
  return out;
}

/** The error again on the receiving side (its stack the sender's). */
export function fromThreadError(e: ThreadError): Error {
  const err = new Error(e.message);
  if (e.stack) err.stack = e.stack;
  if (e.code) Object.assign(err, { code: e.code });
  return err;
}
