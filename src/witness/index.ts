// The witness module's face: what other modules may use. Nothing else of witness/ is imported from outside it.

export { cosignerKeyOf, formatCosignerKey, parseCosignerKey, verifyCosignatures } from './cosignature.ts';
export type { CosignerKey } from './cosignature.ts';
export { WitnessSubmitter } from './submitter.ts';
export { witnessesOf } from './witnesses.ts';
export { witnessCommand } from './command.ts';
