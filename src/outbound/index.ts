// What this service sends elsewhere, guarded: a secret stays bound to the
// destination it was given for (bound-secret.ts).
export { destinationOf, type GivenSecret, keptSecret, sameDestination } from './bound-secret.ts';
