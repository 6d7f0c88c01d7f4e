// `agent-ledger keygen`: a new Ed25519 note signer key for LEDGER_SIGNING_KEY
// (src/service/secrets.ts reads it inline or from a file). The private key goes
// to stdout or to a file only its owner can read; the verifier key, which is
// public, goes to stderr. Every workspace log signs under its own key name,
// <origin>/<tenant_id>, and a note key id depends on the name, so the verifier
// key a workspace pins is printed with --tenant (or read from GET /api/v1/audit/key).

import { writeFileSync } from 'node:fs';
import { commandError, commandOptions } from '../core/index.ts';
import {
  formatSignerKey,
  formatVerifierKey,
  generateSignerKey,
  isValidKeyName,
  originOf,
  verifierKeyFor,
} from '../ledger/index.ts';
import { cosignerKeyOf, formatCosignerKey } from '../witness/index.ts';

export const KEYGEN_USAGE = `usage: agent-ledger keygen [--name ORIGIN] [--out FILE] [--tenant TENANT_ID]

  --name ORIGIN       the key name (default LEDGER_ORIGIN, else agent-ledger.local)
  --out FILE          write the private key to FILE (mode 0600, never overwritten) instead of stdout
  --tenant TENANT_ID  also print the verifier key of that workspace's log (what verify --key pins)
`;

const fail = (message: string): number => commandError('keygen', message);

export async function keygenCommand(args: string[]): Promise<number> {
  const parsed = commandOptions(
    'keygen',
    args,
    {
      name: { type: 'string' },
      out: { type: 'string' },
      tenant: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    KEYGEN_USAGE,
  );
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  const name = values.name ?? (process.env.LEDGER_ORIGIN || 'agent-ledger.local');
  // The same rule as LEDGER_ORIGIN: printable ASCII without spaces or '+'.
  if (!isValidKeyName(name) || !/^[\x21-\x2a\x2c-\x7e]{1,200}$/.test(name)) {
    return fail(
      `--name ${JSON.stringify(name)} is not a key name (printable ASCII, no spaces or '+', at most 200 characters)`,
    );
  }
  if (values.tenant !== undefined && !isValidKeyName(originOf(name, values.tenant))) {
    return fail(`--tenant ${JSON.stringify(values.tenant)} is not a workspace id`);
  }
  const signer = generateSignerKey(name);
  const secret = `${formatSignerKey(signer)}\n`;
  if (values.out !== undefined) {
    try {
      writeFileSync(values.out, secret, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return fail(
        code === 'EEXIST' ? `${values.out} exists; not overwriting a key` : `cannot write ${values.out}: ${code}`,
      );
    }
    process.stderr.write(
      `private key written to ${values.out} (mode 0600); use it as LEDGER_SIGNING_KEY=${values.out}\n`,
    );
  } else {
    process.stdout.write(secret);
  }
  process.stderr.write(`verifier key: ${formatVerifierKey(verifierKeyFor(signer, name))}\n`);
  process.stderr.write(`cosigner key (as agent-ledger witness): ${formatCosignerKey(cosignerKeyOf(signer, name))}\n`);
  if (values.tenant !== undefined) {
    const origin = originOf(name, values.tenant);
    process.stderr.write(`verifier key of ${origin}: ${formatVerifierKey(verifierKeyFor(signer, origin))}\n`);
  } else {
    process.stderr.write(`(each workspace log signs as ${name}/<tenant_id>; --tenant prints the key to pin for one)\n`);
  }
  return 0;
}
