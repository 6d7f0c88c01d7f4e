import { ConfigError, type ConfiguredWitness } from '../config/index.ts';
import { parseCosignerKey, type WitnessConfig } from './cosignature.ts';

/**
 * The configured witnesses with their cosigner keys parsed. Config checks the
 * lists and URLs; what a key's text means is the witness module's. A key that
 * does not parse stops the start naming its variable, like any other setting.
 */
export function witnessesOf(configured: readonly ConfiguredWitness[]): WitnessConfig[] {
  return configured.map(({ url, key }) => {
    try {
      return { url, key: parseCosignerKey(key) };
    } catch (err) {
      throw new ConfigError(`WITNESS_KEYS: ${JSON.stringify(key)} is not a cosigner key: ${(err as Error).message}`);
    }
  });
}
