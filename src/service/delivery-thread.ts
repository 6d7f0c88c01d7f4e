// The delivery engine on a thread of its own (node:worker_threads), started
// by delivery-host.ts when the store is PostgreSQL. Reading the log, making
// the payloads and sending them run on another core, through a small pool of
// the thread's own, instead of queueing behind ingest's requests on the
// service's event loop. The engine is the same as in the service's thread:
// leases, cursors and retries are in the database, so the guarantees are too.
// What the thread has no copy of it asks the service's thread for: the mailer
// (e-mail destinations, the failing mails) and the admins' addresses; it tells
// it of a log it appended to (a destination_failing leaf), whose checkpoint
// the ledger there schedules.
import { parentPort, workerData } from 'node:worker_threads';
import { openPostgres } from '../db/index.ts';
import { createDeliveryWorker } from '../destinations/index.ts';
import { appendUnscheduled, originOf } from '../ledger/index.ts';
import { invocationViews, rogueViewsAt } from '../review/index.ts';
import {
  type DeliveryThreadData,
  type FromDeliveryThread,
  fromThreadError,
  type Question,
  threadError,
  type ToDeliveryThread,
} from './delivery-protocol.ts';

const port = parentPort;
if (!port) throw new Error('delivery-thread.ts runs as a worker thread (delivery-host.ts)');
const data = workerData as DeliveryThreadData;
const tell = (m: FromDeliveryThread) => port.postMessage(m);

let asked = 0;
const answers = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
function ask<T>(question: Question): Promise<T> {
  const id = ++asked;
  tell({ type: 'ask', id, question });
  return new Promise<T>((resolve, reject) => answers.set(id, { resolve: resolve as (v: unknown) => void, reject }));
}

const db = await openPostgres(data.databaseUrl, { max: data.poolSize });
const now = () => new Date();
const worker = createDeliveryWorker({
  db,
  kek: data.kek,
  settings: data.settings,
  owner: data.owner,
  now,
  mailer: { send: (message) => ask<void>({ what: 'mail', message }) },
  adminEmails: (tenantId) => ask<string[]>({ what: 'adminEmails', tenantId }),
  views: { invocations: invocationViews, rogueAt: rogueViewsAt },
  origin: (tenantId) => originOf(data.ledgerOrigin, tenantId),
  async appendInTx(tx, tenantId, entry) {
    await appendUnscheduled(tx, tenantId, [entry], now());
    // Scheduled now, signed an interval later: after this transaction's commit.
    tell({ type: 'grew', tenantId });
  },
  onError: (err, where) => tell({ type: 'error', error: threadError(err), ...(where ? { where } : {}) }),
});

// A thread before this one that died held its leases under the same owner: nothing of it sends any more.
// Before the first message is heard, so a drain sees those destinations due.
await worker.releaseOwnLeases();

port.on('message', (m: ToDeliveryThread) => {
  if (m.type === 'answer') {
    const waiting = answers.get(m.id);
    answers.delete(m.id);
    if (m.error) waiting?.reject(fromThreadError(m.error));
    else waiting?.resolve(m.value);
  } else if (m.type === 'drain') {
    worker.drain().then(
      () => tell({ type: 'drained', id: m.id }),
      (err: unknown) => tell({ type: 'drained', id: m.id, error: threadError(err) }),
    );
  } else if (m.type === 'stop') {
    void (async () => {
      try {
        await worker.stop();
        await db.close();
      } catch (err) {
        tell({ type: 'error', error: threadError(err) });
      }
      // Nothing else keeps the thread: it ends.
      port.close();
    })();
  }
});

worker.start();
tell({ type: 'started' });
