import type { Queryable } from '../db/index.ts';
import type { LogEntry } from './append.ts';
import { LEAF_VERSION } from './leaf.ts';
import { pseudonymInTx } from './pseudonyms.ts';

/** Appends one entry to a workspace's log inside the caller's transaction, at the clock's time. */
export type AppendEntryInTx = (tx: Queryable, tenantId: string, entry: LogEntry) => Promise<void>;

/** The one part of the ledger module the appenders use (LedgerModule.appendInTx). */
interface AppendsInTx {
  appendInTx(tx: Queryable, tenantId: string, entries: LogEntry[], time: Date): Promise<number[]>;
}

/** The appendInTx that policy, personas, ingest and judges take: one entry, timed by `now`. */
export function entryAppender(ledger: AppendsInTx, now: () => Date): AppendEntryInTx {
  return async (tx, tenantId, entry) => {
    await ledger.appendInTx(tx, tenantId, [entry], now());
  };
}

/**
 * The same for account-side entries, which name members by e-mail address: the log gets the address's
 * pseudonym (leaf format v2, pseudonyms.ts), the accounts tables keep the address.
 */
export function accountEntryAppender(ledger: AppendsInTx, now: () => Date): AppendEntryInTx {
  const append = entryAppender(ledger, now);
  return async (tx, tenantId, entry) => {
    const email = entry.email;
    const leaf =
      typeof email === 'string'
        ? { ...entry, v: LEAF_VERSION, email: await pseudonymInTx(tx, tenantId, 'email', email) }
        : entry;
    await append(tx, tenantId, leaf);
  };
}
