// What this service sends elsewhere, guarded: a secret stays bound to the
// destination it was given for (bound-secret.ts), and a request to an address
// a tenant chose never reaches link-local, metadata or (when denied) private
// addresses, however the address is spelled (address-guard.ts).
export { destinationOf, type GivenSecret, keptSecret, sameDestination } from './bound-secret.ts';
export { BLOCKED_ADDRESS, blockedReason, outboundDispatcher, type PrivateNetworks } from './address-guard.ts';
