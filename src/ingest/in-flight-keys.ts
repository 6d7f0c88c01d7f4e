import { HttpProblem } from '../core/index.ts';

/**
 * Idempotency keys in flight on this node: a request whose key is being
 * recorded by another waits for it, then finds its response stored (or
 * nothing, when the first failed) in the write transaction. Across nodes the
 * log head's row lock does the same.
 */
export class InFlightKeys {
  readonly #keys = new Map<string, Promise<void>>();
  readonly #waitMs: number;

  /** `waitMs`: how long a request waits for another with its key (IDEMPOTENCY_WAIT_MS). */
  constructor(waitMs: number) {
    this.#waitMs = waitMs;
  }

  /**
   * Waits until none of these keys is in flight, then holds them until
   * release() is called. After the configured wait: 409 idempotency_key_in_flight.
   */
  async claim(tenantId: string, keys: readonly string[]): Promise<() => void> {
    if (keys.length === 0) return () => {};
    const ids = [...new Set(keys.map((k) => `${tenantId}\u0000${k}`))];
    const deadline = Date.now() + this.#waitMs;
    for (;;) {
      const busy = ids.map((id) => this.#keys.get(id)).filter((p) => p !== undefined);
      if (busy.length === 0) break;
      const left = deadline - Date.now();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        Promise.all(busy).then(() => false),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(true), Math.max(0, left)))),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        throw new HttpProblem(
          'idempotency_key_in_flight',
          'A request with this idempotency key is still being recorded; retry later.',
          {
            headers: { 'retry-after': '1' },
          },
        );
      }
    }
    let done!: () => void;
    const held = new Promise<void>((r) => (done = r));
    for (const id of ids) this.#keys.set(id, held);
    return () => {
      for (const id of ids) if (this.#keys.get(id) === held) this.#keys.delete(id);
      done();
    };
  }
}
