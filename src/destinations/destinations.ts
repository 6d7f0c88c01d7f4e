import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.ts';
import type { AppContext } from '../core/index.ts';
import type { Db } from '../db/index.ts';
import type { AppendEntryInTx } from '../ledger/index.ts';
import type { Mailer } from '../mail/index.ts';
import { DeliveryWorker, type EventViews } from './engine.ts';
import type { KindSender } from './kind.ts';
import { createSenders } from './kinds/index.ts';
import { destinationRoutes } from './routes.ts';

// Destinations (issue 39): the API admins manage them with (routes.ts) and
// the delivery worker that sends each one the audit trail's events
// (engine.ts). Owns the destinations, destination_cursors and
// destination_deliveries tables.

export interface DestinationsDeps {
  ctx: AppContext;
  /** Seals the signing secrets and tokens; derived from the service secret, never stored. */
  kek: Uint8Array;
  appendInTx: AppendEntryInTx;
  origin(tenantId: string): string;
  /** What the read side shows of invocations and rogue events (review module). */
  views: EventViews;
  /** The kinds by name; when absent, every kind (kinds/index.ts), e-mail through the service's mailer. */
  senders?: ReadonlyMap<string, KindSender>;
  /** The e-mail addresses of a workspace's admins (accounts module): told when a destination becomes failing. */
  adminEmails?: (tenantId: string) => Promise<string[]>;
  /** A pass of the worker failed (a database error; a receiver's failure is no error, it is retried). */
  onError?: (err: unknown, where?: { tenantId: string; destinationId: string }) => void;
  /** A destination was created or changed through this node's API (the service starts delivery if it idles). */
  changed?: () => void;
}

export interface DestinationsModule {
  worker: DeliveryWorker;
  /** Another worker on the same store, as a second node runs one (tests of leases and restarts). */
  newWorker(opts?: { leaseMs?: number }): DeliveryWorker;
  routes(app: FastifyInstance): Promise<void>;
}

/** The service's settings a delivery worker reads: plain data, so a worker thread is given a copy. */
export interface DeliverySettings {
  privateNetworks: 'allow' | 'deny';
  /** The console's address for links in what people read (Slack, e-mail). */
  consoleUrl: string | undefined;
  pollMs: number;
  retryBaseMs: number;
  leaseMs: number;
}

export function deliverySettings(config: Config): DeliverySettings {
  return {
    privateNetworks: config.destinationPrivateNetworks,
    consoleUrl: config.publicUrl && `${config.publicUrl.replace(/\/$/, '')}/console`,
    pollMs: config.destinationPollMs,
    retryBaseMs: config.destinationRetryBaseMs,
    leaseMs: config.destinationLeaseMs,
  };
}

/** What a delivery worker is made of, in the service's thread or in a thread of its own (service/delivery-thread.ts). */
export interface DeliveryWorkerDeps extends Pick<
  DestinationsDeps,
  'kek' | 'appendInTx' | 'origin' | 'views' | 'senders' | 'adminEmails' | 'onError'
> {
  db: Db;
  settings: DeliverySettings;
  now: () => Date;
  mailer: Pick<Mailer, 'send'>;
  leaseMs?: number;
  /** Whose leases the worker's are (DeliveryDeps.owner). */
  owner?: string;
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { settings } = deps;
  return new DeliveryWorker({
    db: deps.db,
    kek: deps.kek,
    senders: deps.senders ?? createSenders({ mailer: deps.mailer }),
    views: deps.views,
    origin: deps.origin,
    appendInTx: deps.appendInTx,
    now: deps.now,
    privateNetworks: settings.privateNetworks,
    consoleUrl: settings.consoleUrl,
    pollMs: settings.pollMs,
    retryBaseMs: settings.retryBaseMs,
    leaseMs: deps.leaseMs ?? settings.leaseMs,
    mailer: deps.mailer,
    ...(deps.owner ? { owner: deps.owner } : {}),
    ...(deps.adminEmails ? { adminEmails: deps.adminEmails } : {}),
    ...(deps.onError ? { onError: deps.onError } : {}),
  });
}

export function createDestinations(deps: DestinationsDeps): DestinationsModule {
  const { ctx } = deps;
  const settings = deliverySettings(ctx.config);
  const senders: ReadonlyMap<string, KindSender> = deps.senders ?? createSenders({ mailer: ctx.mailer });
  const make = (opts: { leaseMs?: number } = {}) =>
    createDeliveryWorker({ ...deps, senders, settings, db: ctx.db, now: ctx.now, mailer: ctx.mailer, ...opts });
  const worker = make();
  const common = {
    kek: deps.kek,
    senders,
    origin: deps.origin,
    appendInTx: deps.appendInTx,
    privateNetworks: settings.privateNetworks,
    consoleUrl: settings.consoleUrl,
  };
  const changed = deps.changed ? { changed: deps.changed } : {};
  return { worker, newWorker: make, routes: (app) => destinationRoutes(app, { ...common, ctx, ...changed }) };
}
