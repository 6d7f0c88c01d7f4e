// The config module's face: what other modules may use. Nothing else of config/ is imported from outside it.

export { ConfigError, loadConfig } from './config.ts';
export type { Config, ConfiguredWitness, PlanCaps, PlanTier } from './config.ts';
