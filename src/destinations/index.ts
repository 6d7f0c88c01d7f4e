// The destinations module's face: what other modules may use. Nothing else of destinations/ is imported from outside it.

export { createDeliveryWorker, createDestinations, deliverySettings } from './destinations.ts';
export type { DeliverySettings, DeliveryWorkerDeps, DestinationsModule } from './destinations.ts';
export type { DeliveryDeps, EventViews } from './engine.ts';
export { DeliveryWorker } from './engine.ts';
export { anyActiveDestination, undeliveredFrom } from './store.ts';
export type { DeliveryOutcome, DestinationTarget, Evidence, KindSender, OutboundEvent } from './kind.ts';
