import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

// The start every `agent-ledger <command>` shares: its options read strictly,
// --help answered, a wrong option told with the usage. What a command does
// with its options is its own.

type Values<T extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: false }>
>['values'];

/** Tells `agent-ledger <command>: <message>` on stderr; returns 2, a usage error's exit code. */
export function commandError(command: string, message: string): number {
  process.stderr.write(`agent-ledger ${command}: ${message}\n`);
  return 2;
}

/**
 * A command's options (no positionals): their values, or the exit code the
 * command ends with — 0 once --help printed `usage` on stdout, 2 once an
 * unknown or malformed option was told on stderr with `usage`.
 */
export function commandOptions<const T extends ParseArgsOptionsConfig>(
  command: string,
  args: string[],
  options: T,
  usage: string,
): { values: Values<T> } | { exit: number } {
  let values: Values<T>;
  try {
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    return { exit: commandError(command, `${(err as Error).message}\n${usage}`) };
  }
  if ((values as { help?: boolean }).help === true) {
    process.stdout.write(usage);
    return { exit: 0 };
  }
  return { values };
}
