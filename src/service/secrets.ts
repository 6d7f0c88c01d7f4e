import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config.ts';

/** The service's Ed25519 seed: it signs checkpoints, and keys derived from it protect other secrets. */
export interface SigningKey {
  seed: Buffer;
  /** Where it came from, for the logs (never the key). */
  source: string;
}

/**
 * LEDGER_SIGNING_KEY is a file path or the key itself (a note signer key,
 * `PRIVATE+KEY+name+hex+base64`). Without it, the embedded default keeps one
 * in DATA_DIR, generated on first start.
 */
export async function loadSigningKey(config: Config): Promise<SigningKey> {
  const given = config.ledgerSigningKey;
  if (given !== undefined) {
    const text = given.startsWith('PRIVATE+KEY+') ? given : readKeyFile(given);
    return { seed: parseSignerSeed(text), source: given.startsWith('PRIVATE+KEY+') ? 'LEDGER_SIGNING_KEY' : given };
  }
  const path = join(config.dataDir, 'ledger-signing.key');
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    const seed = randomBytes(32);
    writeFileSync(path, `${formatSignerKey(config.ledgerOrigin, seed)}\n`, { mode: 0o600, flag: 'wx' });
  }
  return { seed: parseSignerSeed(readKeyFile(path)), source: path };
}

function readKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    throw new ConfigError(`LEDGER_SIGNING_KEY names a file that cannot be read: ${path}`);
  }
}

export function formatSignerKey(name: string, seed: Buffer): string {
  // The key id field is filled by the ledger's note code; here only the seed matters.
  return `PRIVATE+KEY+${name}+00000000+${Buffer.concat([Buffer.from([1]), seed]).toString('base64')}`;
}

export function parseSignerSeed(text: string): Buffer {
  // PRIVATE+KEY+<name>+<hex8>+<base64>: the base64 part may itself hold '+'.
  const m = /^PRIVATE\+KEY\+([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text);
  const raw = Buffer.from(m?.[3] ?? '', 'base64');
  if (!m || raw.length !== 33 || raw[0] !== 1) {
    throw new ConfigError('LEDGER_SIGNING_KEY is not an Ed25519 note signer key (PRIVATE+KEY+name+hex+base64)');
  }
  return raw.subarray(1);
}

/** A purpose-bound secret derived from the signing key (HKDF-SHA256). */
export function deriveSecret(key: SigningKey, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key.seed, Buffer.alloc(0), `agent-ledger ${purpose}`, 32));
}
