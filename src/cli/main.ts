import { ConfigError } from '../config/config.ts';
import { adminCommand } from './admin.ts';
import { keygenCommand } from './keygen.ts';
import { migrateCommand } from './migrate.ts';
import { serveCommand } from './serve.ts';
import { verifyCommand } from './verify.ts';

const USAGE = `usage: agent-ledger <command> [options]

commands:
  serve                      run the HTTP service (PORT, DATABASE_URL, … from the environment)
  migrate                    apply pending database migrations and exit
  admin plan <tenant_id> [--tier free|team|enterprise] [--status S] [--trial-ends ISO|none]
                             change a workspace's plan through the operator API
                             (--url, default http://127.0.0.1:$PORT; OPERATOR_TOKEN from the environment)
  admin workspaces           list workspaces through the operator API
  keygen [--name ORIGIN] [--out FILE] [--tenant ID]
                             print a new Ed25519 signer key for LEDGER_SIGNING_KEY (verifier key on stderr)
  verify (--url URL | --bundle FILE) [--key K | --key-file F] [--evidence ID]… [--since FILE]
         [--save-checkpoint FILE] [--export FILE]
                             check a workspace's audit trail from its signed checkpoint and public key
                             (token: --token or AGENT_LEDGER_TOKEN); exit 1 when verification fails
`;

const commands: Record<string, (args: string[]) => Promise<number>> = {
  serve: serveCommand,
  migrate: migrateCommand,
  admin: adminCommand,
  keygen: keygenCommand,
  verify: verifyCommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const cmd = commands[name];
  if (!cmd) {
    process.stderr.write(`agent-ledger: unknown command ${JSON.stringify(name)}\n${USAGE}`);
    return 2;
  }
  return cmd(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof ConfigError) process.stderr.write(`agent-ledger: configuration error: ${err.message}\n`);
    else process.stderr.write(`agent-ledger: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
