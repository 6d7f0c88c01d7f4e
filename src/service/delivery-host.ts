import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Mailer } from '../mail/index.ts';
import {
  type DeliveryThreadData,
  type FailedAt,
  type FromDeliveryThread,
  fromThreadError,
  type Question,
  threadError,
  type ToDeliveryThread,
} from './delivery-protocol.ts';

// The service's side of the delivery thread (delivery-thread.ts): starts it,
// answers what it asks (mail, admins' addresses), passes on what it tells
// (a log grew, a pass failed), and stops it with the service. A thread that
// dies (it should not) is started again after a while: the cursors and
// leases in the database make that safe, as a node's restart is. Each thread
// is given the same lease owner, so the new one takes back the dead one's
// leases at once (delivery-thread.ts) instead of waiting them out.

/** How long after a thread ended unasked it is started again (by default). */
const RESTART_MS = 5_000;
/** How long stop() waits for the thread to finish its pass before ending it (a pass's sends are bounded by their timeouts). */
const STOP_MS = 60_000;

export interface DeliveryHostDeps {
  data: Omit<DeliveryThreadData, 'owner'>;
  /** How long after a thread ended unasked it is started again (RESTART_MS). */
  restartMs?: number;
  mailer: Pick<Mailer, 'send'>;
  adminEmails(tenantId: string): Promise<string[]>;
  /** A log the thread appended to: its checkpoint is scheduled (LedgerModule.grew). */
  grew(tenantId: string): void;
  onError(err: unknown, where?: FailedAt): void;
}

export class DeliveryThread {
  readonly #deps: DeliveryHostDeps;
  /** The lease owner of every thread this host starts. */
  readonly #owner = randomUUID();
  #thread: Worker | undefined;
  /** The thread has loaded and begun delivering (its first message); before that it holds no work to finish. */
  #started = false;
  #stopping = false;
  #restart: NodeJS.Timeout | undefined;
  #drained = 0;
  readonly #draining = new Map<number, { resolve(): void; reject(e: Error): void }>();

  constructor(deps: DeliveryHostDeps) {
    this.#deps = deps;
  }

  /** Whether the thread is alive (started and not yet ended). */
  get running(): boolean {
    return this.#thread !== undefined;
  }

  /** Starts the thread; it delivers until stop(). */
  start(): void {
    this.#stopping = false;
    clearTimeout(this.#restart);
    if (this.#thread) return;
    const workerData: DeliveryThreadData = { ...this.#deps.data, owner: this.#owner };
    const thread = new Worker(new URL('./delivery-thread.ts', import.meta.url), { workerData });
    this.#thread = thread;
    this.#started = false;
    thread.on('message', (m: FromDeliveryThread) => this.#heard(thread, m));
    thread.on('error', (err) => this.#deps.onError(err));
    thread.on('exit', (code) => {
      if (this.#thread === thread) this.#thread = undefined;
      for (const d of this.#draining.values()) d.reject(new Error(`the delivery thread ended (${code})`));
      this.#draining.clear();
      if (this.#stopping) return;
      const after = this.#deps.restartMs ?? RESTART_MS;
      this.#deps.onError(new Error(`the delivery thread ended (${code}); started again in ${after} ms`));
      this.#restart = setTimeout(() => this.start(), after);
      this.#restart.unref();
    });
  }

  /** Lets the thread finish its pass, then ends it. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#restart);
    const thread = this.#thread;
    if (!thread) return;
    const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    // Still loading the service's modules (seconds of CPU on a busy machine): nothing of a pass to finish, so
    // ended at once — a start that fails (a taken port) or a quick stop does not wait for the load.
    if (!this.#started) {
      await thread.terminate();
      await exited;
      return;
    }
    this.#send(thread, { type: 'stop' });
    const late = setTimeout(() => void thread.terminate(), STOP_MS);
    await exited;
    clearTimeout(late);
  }

  /** For tests: ends the thread as a crash would, in the middle of whatever it does; it is started again after restartMs. */
  async kill(): Promise<void> {
    await this.#thread?.terminate();
  }

  /** Runs the thread's passes until nothing is due (as DeliveryWorker.drain). */
  drain(): Promise<void> {
    const thread = this.#thread;
    if (!thread) return Promise.reject(new Error('the delivery thread is not running'));
    const id = ++this.#drained;
    return new Promise<void>((resolve, reject) => {
      this.#draining.set(id, { resolve, reject });
      this.#send(thread, { type: 'drain', id });
    });
  }

  #send(thread: Worker, m: ToDeliveryThread): void {
    thread.postMessage(m);
  }

  #heard(thread: Worker, m: FromDeliveryThread): void {
    if (m.type === 'started') this.#started = true;
    else if (m.type === 'ask') {
      this.#answer(m.question).then(
        (value) => this.#send(thread, { type: 'answer', id: m.id, value }),
        (err: unknown) => this.#send(thread, { type: 'answer', id: m.id, error: threadError(err) }),
      );
    } else if (m.type === 'grew') this.#deps.grew(m.tenantId);
    else if (m.type === 'error') this.#deps.onError(fromThreadError(m.error), m.where);
    else if (m.type === 'drained') {
      const d = this.#draining.get(m.id);
      this.#draining.delete(m.id);
      if (m.error) d?.reject(fromThreadError(m.error));
      else d?.resolve();
    }
  }

  async #answer(q: Question): Promise<unknown> {
    if (q.what === 'mail') return this.#deps.mailer.send(q.message);
    return this.#deps.adminEmails(q.tenantId);
  }
}
