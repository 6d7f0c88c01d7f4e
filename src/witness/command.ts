// `agent-ledger witness`: runs a tlog-witness. Its key is an ordinary note
// signer key from `agent-ledger keygen --name <witness name>` (inline or a
// file); it cosigns under type 0x04, and prints the cosigner verifier key that
// logs and auditors pin (WITNESS_KEYS, verify --witness).

import { readFileSync } from 'node:fs';
import { commandError, commandOptions } from '../core/index.ts';
import { parseSignerKey, parseVerifierKey, type SignerKey } from '../ledger/index.ts';
import { cosignerKeyOf, formatCosignerKey } from './cosignature.ts';
import { startWitnessServer } from './server.ts';
import { WitnessStore } from './store.ts';
import { type TrustedLog, Witness } from './witness.ts';

export const WITNESS_USAGE = `usage: agent-ledger witness --key KEY|FILE --store FILE (--log VKEY | --log-family VKEY)…
                             [--name NAME] [--host H] [--port P] [--prefix /PATH]

  --key KEY|FILE       the witness's note signer key (agent-ledger keygen --name NAME); or WITNESS_SIGNING_KEY
  --store FILE         JSON file holding the latest cosigned checkpoint per log origin (created on first use)
  --log VKEY           cosign checkpoints of the log whose origin is the key's name (a note verifier key)
  --log-family VKEY    cosign checkpoints of every log <key name>/<id> signed by that key under its own origin
                       (an agent-ledger service: the verifier key of its LEDGER_ORIGIN, as keygen prints it)
  --name NAME          the cosigner name (default: the signer key's name)
  --host H --port P    where to listen (default 127.0.0.1:8090)
  --prefix /PATH       the submission prefix: POST <prefix>/add-checkpoint (default none)
`;

const fail = (message: string): number => commandError('witness', message);

export async function witnessCommand(args: string[]): Promise<number> {
  const parsed = commandOptions(
    'witness',
    args,
    {
      key: { type: 'string' },
      store: { type: 'string' },
      log: { type: 'string', multiple: true },
      'log-family': { type: 'string', multiple: true },
      name: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      prefix: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    WITNESS_USAGE,
  );
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  const keyText = values.key ?? process.env.WITNESS_SIGNING_KEY;
  if (keyText === undefined) return fail(`--key is required\n${WITNESS_USAGE}`);
  if (values.store === undefined) return fail(`--store is required\n${WITNESS_USAGE}`);
  let signer: SignerKey;
  try {
    signer = parseSignerKey(keyText.startsWith('PRIVATE+KEY+') ? keyText : readFileSync(keyText, 'utf8').trim());
  } catch (err) {
    return fail(`--key: ${(err as Error).message}`);
  }
  const logs: TrustedLog[] = [];
  try {
    for (const v of values.log ?? []) logs.push({ kind: 'exact', key: parseVerifierKey(v) });
    for (const v of values['log-family'] ?? []) logs.push({ kind: 'family', key: parseVerifierKey(v) });
  } catch (err) {
    return fail(`--log: ${(err as Error).message}`);
  }
  if (logs.length === 0) return fail('name at least one --log or --log-family');
  const port = Number(values.port ?? 8090);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail('--port must be 0-65535');
  const name = values.name ?? signer.name;
  let store: WitnessStore;
  try {
    store = new WitnessStore(values.store);
  } catch (err) {
    return fail(`--store: ${(err as Error).message}`);
  }
  const witness = new Witness({ signer, name, logs, store });
  const server = await startWitnessServer(witness, {
    host: values.host ?? '127.0.0.1',
    port,
    ...(values.prefix ? { prefix: values.prefix } : {}),
  });
  // The first line is machine-readable: tests and scripts read the address from it.
  process.stdout.write(`witness listening on ${server.url}\n`);
  process.stdout.write(`cosigner key: ${formatCosignerKey(cosignerKeyOf(signer, name))}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await server.close();
  return 0;
}
