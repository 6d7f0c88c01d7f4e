// The destinations module's face: what other modules may use. Nothing else of destinations/ is imported from outside it.

export type { DeliveryOutcome, DestinationTarget, Evidence, KindSender, OutboundEvent } from './kind.ts';
