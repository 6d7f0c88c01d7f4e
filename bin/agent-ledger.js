#!/usr/bin/env node
// The CLI entry point. The CLI is TypeScript run by Node's type stripping
// (Node ≥ 22.18, unflagged); the project pins Node 24 as its `node`
// dependency. `npx agent-ledger` and npm scripts find that Node first on PATH,
// but `node bin/agent-ledger.js` may be started by any Node: one that cannot
// strip types hands over to the pinned Node, with the same arguments, stdio,
// exit status and signals. This file is plain JavaScript for that reason.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'src', 'cli', 'main.ts');

if (process.features && process.features.typescript) {
  await import(pathToFileURL(main).href);
} else {
  const pinned = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(pinned)) {
    process.stderr.write(
      `agent-ledger: Node ${process.version} cannot run TypeScript, and the pinned Node 24 is not installed: run \`npm ci\` in ${root}\n`,
    );
    process.exit(2);
  }
  const child = spawn(pinned, [main, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, AGENT_LEDGER_WRAPPED: '1' },
  });
  // A signal sent to this process goes to the CLI too (serve shuts down
  // gracefully; a repeated signal is ignored there, e.g. Ctrl-C that reaches both).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on('error', (err) => {
    process.stderr.write(`agent-ledger: cannot start ${pinned}: ${err.message}\n`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}
