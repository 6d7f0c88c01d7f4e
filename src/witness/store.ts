// The witness's memory: for each log origin, the latest checkpoint it cosigned.
// One small JSON file, replaced atomically (write a temporary file, fsync it,
// rename it over the old one, fsync the directory), so a crash leaves either
// the old state or the new one, never a torn file and never a rollback.

import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { decodeBase64, encodeBase64 } from '../ledger/index.ts';

export interface LogState {
  size: number;
  root: Uint8Array;
  /** The signed checkpoint note as received (evidence, should the log misbehave later). */
  checkpoint: string;
  /** POSIX seconds of the cosignature. */
  cosignedAt: number;
}

type FileShape = {
  version: 1;
  logs: Record<string, { size: number; root: string; checkpoint: string; cosigned_at: number }>;
};

export class WitnessStore {
  readonly #path: string;
  readonly #logs = new Map<string, LogState>();

  constructor(path: string) {
    this.#path = path;
    let text: string | undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (text === undefined) return;
    const data = JSON.parse(text) as FileShape;
    if (data.version !== 1 || typeof data.logs !== 'object') throw new Error(`${path} is not a witness state file`);
    for (const [origin, s] of Object.entries(data.logs)) {
      const root = decodeBase64(s.root);
      if (root === undefined || !Number.isSafeInteger(s.size)) throw new Error(`${path}: bad state for ${origin}`);
      this.#logs.set(origin, { size: s.size, root, checkpoint: s.checkpoint, cosignedAt: s.cosigned_at });
    }
  }

  get(origin: string): LogState | undefined {
    return this.#logs.get(origin);
  }

  /** Records a log's new state durably before returning. */
  put(origin: string, state: LogState): void {
    const next = new Map(this.#logs).set(origin, state);
    const logs: FileShape['logs'] = {};
    for (const [o, s] of next)
      logs[o] = { size: s.size, root: encodeBase64(s.root), checkpoint: s.checkpoint, cosigned_at: s.cosignedAt };
    writeAtomically(this.#path, `${JSON.stringify({ version: 1, logs } satisfies FileShape)}\n`);
    this.#logs.set(origin, state);
  }
}

function writeAtomically(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(tmp, text, { mode: 0o600 });
  const fd = openSync(tmp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
