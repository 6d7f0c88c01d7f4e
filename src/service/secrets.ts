import { hkdfSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Config, ConfigError } from '../config/index.ts';
import { formatSignerKey, generateSignerKey, parseSignerKey, type SignerKey } from '../ledger/index.ts';

/**
 * The service's Ed25519 signing key. LEDGER_SIGNING_KEY is a file path or the
 * key itself, as a note signer key (`PRIVATE+KEY+name+hex+base64`, the Go note
 * format `agent-ledger keygen` prints). Without it, the embedded default keeps
 * one in DATA_DIR, generated on first start.
 */
export function loadSigningKey(config: Config): { key: SignerKey; source: string } {
  const given = config.ledgerSigningKey;
  if (given !== undefined) {
    const inline = given.startsWith('PRIVATE+KEY+');
    return { key: parse(inline ? given : readKeyFile(given)), source: inline ? 'LEDGER_SIGNING_KEY' : given };
  }
  const path = join(config.dataDir, 'ledger-signing.key');
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${formatSignerKey(generateSignerKey(config.ledgerOrigin))}\n`, { mode: 0o600, flag: 'wx' });
  }
  return { key: parse(readKeyFile(path)), source: path };
}

function parse(text: string): SignerKey {
  try {
    return parseSignerKey(text);
  } catch {
    throw new ConfigError('LEDGER_SIGNING_KEY is not an Ed25519 note signer key (PRIVATE+KEY+name+hex8+base64)');
  }
}

function readKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    throw new ConfigError(`LEDGER_SIGNING_KEY names a file that cannot be read: ${path}`);
  }
}

/** A purpose-bound secret derived from the signing key (HKDF-SHA256): nothing else to configure or store. */
export function deriveSecret(key: SignerKey, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key.seed, Buffer.alloc(0), `agent-ledger ${purpose}`, 32));
}
