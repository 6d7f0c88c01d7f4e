/**
 * The loop every background worker runs: one round at a time, another at once
 * while rounds find work, otherwise the next one after `pollMs`. A poke (work
 * was just queued on this node) runs a round now instead of at the next poll,
 * or right after the round in flight. One round is in flight at most; stop()
 * waits for it. The worker owns what a round does; this owns when it runs.
 */
export interface PollerOptions {
  /** One round; how many items it took (more than 0: run again at once). */
  round: () => Promise<number>;
  /** The wait between rounds that found nothing. */
  pollMs: number;
  /** How long after a poke the round starts (the poking transaction commits first). Default 0. */
  pokeDelayMs?: number;
  /** A round that threw; the loop goes on at the next poll. */
  onError: (err: unknown) => void;
}

export class Poller {
  readonly #opts: PollerOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #started = false;
  #stopped = false;
  #wake = false;

  constructor(opts: PollerOptions) {
    this.#opts = opts;
  }

  /** Starts polling: the first round after `delayMs`. */
  start(delayMs = 0): void {
    if (this.#stopped) return;
    this.#started = true;
    this.#schedule(delayMs);
  }

  /** Work is waiting: look now rather than at the next poll. A poller not started stays idle. */
  readonly poke = (): void => {
    if (this.#stopped || !this.#started) return;
    if (this.#running) this.#wake = true;
    else this.#schedule(this.#opts.pokeDelayMs ?? 0);
  };

  /** Stops polling and waits for the round in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** Runs rounds until one finds nothing, outside the timer; for tests and shutdown. */
  async drain(): Promise<void> {
    while ((await this.#opts.round()) > 0) {
      // keep going
    }
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      if (this.#running) return;
      this.#running = this.#opts.round().catch((err: unknown) => {
        this.#opts.onError(err);
        return 0;
      });
      void this.#running.then((n) => {
        this.#running = undefined;
        const again = n > 0 || this.#wake;
        this.#wake = false;
        this.#schedule(again ? 0 : this.#opts.pollMs);
      });
    }, ms);
    this.#timer.unref();
  }
}
