import { enableCompileCache } from 'node:module';
import { ConfigError } from '../config/index.ts';

// Node keeps the TypeScript it strips and V8's compiled code of every module a command loads on disk
// (os.tmpdir()/node-compile-cache; NODE_COMPILE_CACHE=dir moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it
// off), so that every start after the first skips both: a quarter to a third of importing the detectors
// (docs/performance.md, "Detectors"). Called before the commands' dynamic imports below; it never throws.
enableCompileCache();

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
  verify (--url URL | --bundle FILE) [--key K | --key-file F] [--evidence ID]… [--entry FILE]… [--since FILE]
         [--save-checkpoint FILE] [--export FILE] [--report FILE] [--witness KEY… --witness-quorum N]
                             check a workspace's audit trail from its signed checkpoint and public key
                             (token: --token or AGENT_LEDGER_TOKEN); --report recounts a compliance
                             report (JSON) from the leaves; --entry checks an event a destination delivered;
                             --witness needs N witness cosignatures; exit 1 when verification fails
  hook claude-code [--url URL] [--token T] [--agent KEY] [--fail-open] [--wait SECONDS]
                             Claude Code PreToolUse hook: records the tool call (enforced mode) and
                             blocks it when the verdict is deny (AGENT_LEDGER_URL/_TOKEN/_AGENT_KEY);
                             a held call waits for its approval, or asks when undecided
  mcp-proxy --url URL --token T --agent-key KEY [--mode enforced|observed] [--on-unreachable deny|allow] -- COMMAND [ARGS…]
                             wrap a stdio MCP server: every tools/call is recorded and decided by the
                             service before the server sees it (AGENT_LEDGER_URL/_TOKEN/_AGENT_KEY)
  mcp-proxy … --listen HOST:PORT --upstream URL [--upstream-header H]… [--listen-token SECRET] [--session-idle S]
                             the same gate in front of a Streamable HTTP MCP server
  witness --key KEY|FILE --store FILE (--log VKEY | --log-family VKEY)… [--port P]
                             run a C2SP tlog-witness that cosigns checkpoints it found consistent
`;

// Each command loads its own modules: keygen and verify start in a tenth of
// the time serve needs, as they never load the service.
const commands: Record<string, (args: string[]) => Promise<number>> = {
  serve: async (args) => (await import('./serve.ts')).serveCommand(args),
  migrate: async (args) => (await import('./migrate.ts')).migrateCommand(args),
  admin: async (args) => (await import('./admin.ts')).adminCommand(args),
  keygen: async (args) => (await import('./keygen.ts')).keygenCommand(args),
  verify: async (args) => (await import('./verify.ts')).verifyCommand(args),
  hook: async (args) => (await import('../hook/index.ts')).hookCommand(args),
  'mcp-proxy': async (args) => (await import('../mcp-gate/index.ts')).mcpProxyCommand(args),
  witness: async (args) => (await import('../witness/index.ts')).witnessCommand(args),
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
