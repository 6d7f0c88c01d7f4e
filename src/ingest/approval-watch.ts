import type { Db } from '../db/index.ts';
import { APPROVALS_CHANNEL } from './approvals.ts';

/**
 * The long polls of this node, woken by the NOTIFY every decision and expiry
 * sends (on any node; PGlite: in process). A waiter holds no database
 * connection: one listening connection per node serves them all.
 */
export class ApprovalWatch {
  readonly #waiters = new Map<string, Set<() => void>>();
  #stop: (() => Promise<void>) | undefined;

  async start(db: Db): Promise<void> {
    if (!db.listen) return;
    this.#stop = await db.listen(APPROVALS_CHANNEL, (payload) => {
      // null: notifications may have been missed; every waiter reads again.
      if (payload === null) for (const set of this.#waiters.values()) for (const wake of set) wake();
      else for (const wake of this.#waiters.get(payload) ?? []) wake();
    });
  }

  async close(): Promise<void> {
    await this.#stop?.();
  }

  /** How many requests wait here now (a metric, and the tests' way to see a poll is parked). */
  waiting(): number {
    let n = 0;
    for (const set of this.#waiters.values()) n += set.size;
    return n;
  }

  /**
   * Arms a wake-up for the approval before its state is read, so that a
   * decision committed between the read and the wait is not missed. `woken`
   * settles on the approval's announcement; `cancel` must always be called.
   */
  arm(tenantId: string, approvalId: string): { woken: Promise<void>; cancel: () => void } {
    const key = `${tenantId}:${approvalId}`;
    let wake!: () => void;
    const woken = new Promise<void>((r) => (wake = r));
    let set = this.#waiters.get(key);
    if (!set) this.#waiters.set(key, (set = new Set()));
    set.add(wake);
    return {
      woken,
      cancel: () => {
        const s = this.#waiters.get(key);
        if (!s) return;
        s.delete(wake);
        if (s.size === 0) this.#waiters.delete(key);
      },
    };
  }
}
