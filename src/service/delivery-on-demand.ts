import { Poller } from '../core/index.ts';
import type { DeliveryThread } from './delivery-host.ts';

// The delivery thread only while there is something to deliver to. A thread
// costs a node even idle: it loads the service's modules (~170 MB) and polls
// the database every DESTINATION_POLL_MS. Most nodes' workspaces have no
// destination, so the thread is started when one exists — on start-up, when
// one is created or changed through this node's API (wake), and, for one
// created through another node, at the next of a cheap check on the
// service's thread (one indexed EXISTS every CHECK_MS) — and stopped, after
// its pass, once the checks have found none for IDLE_MS.

/** How often the service's thread looks for a destination (a destination made on another node waits up to this). */
const CHECK_MS = 2_000;
/**
 * How long no destination must have been found before the thread is stopped: long, since an idle thread costs
 * little and starting one seconds of loading, which destinations deleted and made again soon after (a benchmark's
 * cases, a receiver being moved) would otherwise pay each time.
 */
const IDLE_MS = 600_000;

export interface DeliveryOnDemandDeps {
  thread: Pick<DeliveryThread, 'start' | 'stop' | 'drain' | 'running'>;
  /** Whether any workspace has a destination to deliver to (destinations' anyActiveDestination). */
  anyDestination(): Promise<boolean>;
  onError(err: unknown): void;
  checkMs?: number;
  idleMs?: number;
}

export class DeliveryOnDemand {
  readonly #deps: DeliveryOnDemandDeps;
  /** The checks: core's Poller, one every CHECK_MS after the last ended. */
  readonly #checks: Poller;
  #started = false;
  #checking = false;
  /** Since when the checks have found no destination (undefined: one was found last). */
  #noneSince: number | undefined;
  /** The thread's starts and stops, one after the other: a stop still finishing its pass is never raced by a start. */
  #turns: Promise<void> = Promise.resolve();

  constructor(deps: DeliveryOnDemandDeps) {
    this.#deps = deps;
    this.#checks = new Poller({
      round: async () => {
        await this.check();
        return 0;
      },
      pollMs: deps.checkMs ?? CHECK_MS,
      onError: deps.onError,
    });
  }

  /** Whether the delivery thread is alive now. */
  get running(): boolean {
    return this.#deps.thread.running;
  }

  /** Starts checking (the first check now); the thread starts with the first destination found. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#checks.start();
  }

  /** Stops checking and stops the thread (after its pass). */
  async stop(): Promise<void> {
    this.#started = false;
    await this.#checks.stop();
    await this.#turn(() => this.#deps.thread.stop());
  }

  /** A destination was created or changed here: the thread starts now rather than at the next check. */
  wake(): void {
    if (!this.#started) return;
    this.#noneSince = undefined;
    if (!this.#deps.thread.running) void this.#turn(async () => this.#startThread());
  }

  /** Runs delivery passes until nothing is due; with no destination there is nothing to run (tests). */
  async drain(): Promise<void> {
    if (!this.#deps.thread.running) {
      if (!(await this.#deps.anyDestination())) return;
      await this.#turn(async () => this.#deps.thread.start());
    }
    await this.#deps.thread.drain();
  }

  /** One check: starts the thread if a destination exists, stops it once none has for IDLE_MS. */
  async check(): Promise<void> {
    if (this.#checking) return;
    this.#checking = true;
    try {
      const some = await this.#deps.anyDestination();
      if (!this.#started) return;
      if (some) {
        this.#noneSince = undefined;
        if (!this.#deps.thread.running) await this.#turn(async () => this.#startThread());
        return;
      }
      const now = performance.now();
      this.#noneSince ??= now;
      if (this.#deps.thread.running && now - this.#noneSince >= (this.#deps.idleMs ?? IDLE_MS))
        await this.#turn(() => this.#deps.thread.stop());
    } catch (err) {
      this.#deps.onError(err);
    } finally {
      this.#checking = false;
    }
  }

  #startThread(): void {
    // A stop() may have come in while this waited its turn.
    if (this.#started) this.#deps.thread.start();
  }

  #turn(step: () => Promise<void>): Promise<void> {
    const next = this.#turns.then(step);
    this.#turns = next.catch((err: unknown) => this.#deps.onError(err));
    return next;
  }
}
