import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandOptions } from './command-line.ts';

const OPTIONS = { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
const USAGE = 'usage: agent-ledger demo [--out FILE]\n';

/** What `run` wrote to stdout and stderr, and what it returned. */
function captured<T>(run: () => T): { result: T; stdout: string; stderr: string } {
  const out = { stdout: '', stderr: '' };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = ((s: string) => ((out.stdout += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((out.stderr += s), true)) as typeof process.stderr.write;
  try {
    return { result: run(), ...out };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
}

test('the options are parsed: their values, nothing written', () => {
  const r = captured(() => commandOptions('demo', ['--out', 'f.txt'], OPTIONS, USAGE));
  assert.ok('values' in r.result);
  assert.deepEqual({ ...r.result.values }, { out: 'f.txt' });
  assert.equal(r.stdout + r.stderr, '');
});

test('--help and -h print the usage on stdout and end the command with 0', () => {
  for (const flag of ['--help', '-h']) {
    const r = captured(() => commandOptions('demo', ['--out', 'x', flag], OPTIONS, USAGE));
    assert.deepEqual(r.result, { exit: 0 });
    assert.equal(r.stdout, USAGE);
    assert.equal(r.stderr, '');
  }
});

test('an unknown option, a missing value or a positional ends the command with 2, told on stderr with the usage', () => {
  for (const args of [['--nope'], ['--out'], ['file.txt']]) {
    const r = captured(() => commandOptions('demo', args, OPTIONS, USAGE));
    assert.deepEqual(r.result, { exit: 2 }, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^agent-ledger demo: .+\nusage: agent-ledger demo \[--out FILE\]\n\n$/);
  }
});
