import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/index.ts';
import type { AppendEntryInTx } from '../ledger/index.ts';
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
}

export interface DestinationsModule {
  worker: DeliveryWorker;
  /** Another worker on the same store, as a second node runs one (tests of leases and restarts). */
  newWorker(opts?: { leaseMs?: number }): DeliveryWorker;
  routes(app: FastifyInstance): Promise<void>;
}

export function createDestinations(deps: DestinationsDeps): DestinationsModule {
  const { ctx } = deps;
  const senders: ReadonlyMap<string, KindSender> = deps.senders ?? createSenders({ mailer: ctx.mailer });
  const common = {
    kek: deps.kek,
    senders,
    origin: deps.origin,
    appendInTx: deps.appendInTx,
    privateNetworks: ctx.config.destinationPrivateNetworks,
    consoleUrl: ctx.config.publicUrl && `${ctx.config.publicUrl.replace(/\/$/, '')}/console`,
  };
  const make = (opts: { leaseMs?: number } = {}) =>
    new DeliveryWorker({
      ...common,
      leaseMs: ctx.config.destinationLeaseMs,
      ...opts,
      db: ctx.db,
      views: deps.views,
      now: ctx.now,
      pollMs: ctx.config.destinationPollMs,
      retryBaseMs: ctx.config.destinationRetryBaseMs,
      mailer: ctx.mailer,
      ...(deps.adminEmails ? { adminEmails: deps.adminEmails } : {}),
      ...(deps.onError ? { onError: deps.onError } : {}),
    });
  const worker = make();
  return { worker, newWorker: make, routes: (app) => destinationRoutes(app, { ...common, ctx }) };
}
