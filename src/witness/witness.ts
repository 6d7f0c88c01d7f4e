import {
  emptyRoot,
  equalBytes,
  keyId,
  NoteError,
  openCheckpoint,
  parseCheckpoint,
  type SignerKey,
  type VerifierKey,
  verifyConsistency,
} from '../ledger/index.ts';
import { cosign, splitNote } from './cosignature.ts';
import { type AddCheckpointRequest, parseAddCheckpoint, SIZE_CONTENT_TYPE } from './protocol.ts';
import type { WitnessStore } from './store.ts';

/**
 * A log the witness vouches for. `exact`: one origin, the key's name. `family`:
 * every origin `<key name>/<id>` signed by that key under the origin's own name
 * — how agent-ledger signs one log per workspace with one service key.
 */
export type TrustedLog = { kind: 'exact'; key: VerifierKey } | { kind: 'family'; key: VerifierKey };

export interface WitnessResponse {
  status: 200 | 400 | 403 | 404 | 409 | 422;
  contentType: string;
  body: string;
}

const FAMILY_MEMBER = /^[A-Za-z0-9._-]{1,128}$/;

export class Witness {
  readonly #signer: SignerKey;
  readonly #name: string;
  readonly #logs: readonly TrustedLog[];
  readonly #store: WitnessStore;
  readonly #now: () => number;
  #lock: Promise<unknown> = Promise.resolve();

  constructor(opts: {
    signer: SignerKey;
    name: string;
    logs: readonly TrustedLog[];
    store: WitnessStore;
    now?: () => number;
  }) {
    this.#signer = opts.signer;
    this.#name = opts.name;
    this.#logs = opts.logs;
    this.#store = opts.store;
    this.#now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** The key that verifies this origin's checkpoints, or undefined for a log not vouched for. */
  verifierFor(origin: string): VerifierKey | undefined {
    for (const log of this.#logs) {
      if (log.kind === 'exact' && log.key.name === origin) return log.key;
      if (
        log.kind === 'family' &&
        origin.startsWith(`${log.key.name}/`) &&
        FAMILY_MEMBER.test(origin.slice(log.key.name.length + 1))
      ) {
        return { name: origin, keyId: keyId(origin, log.key.publicKey), publicKey: log.key.publicKey };
      }
    }
    return undefined;
  }

  async addCheckpoint(body: string): Promise<WitnessResponse> {
    const req = parseAddCheckpoint(body);
    if (req === undefined) return text(400, 'malformed add-checkpoint request\n');
    let origin: string;
    try {
      origin = parseCheckpoint(splitNote(req.checkpoint).text).origin;
    } catch {
      return text(400, 'malformed checkpoint\n');
    }
    const verifier = this.verifierFor(origin);
    if (verifier === undefined) return text(404, 'unknown log origin\n');
    let checkpoint;
    try {
      checkpoint = openCheckpoint(req.checkpoint, [verifier]).checkpoint;
    } catch (err) {
      if (err instanceof NoteError && (err.code === 'unverified_note' || err.code === 'invalid_signature')) {
        return text(403, 'checkpoint is not signed by a trusted log key\n');
      }
      return text(400, 'malformed checkpoint\n');
    }
    if (req.oldSize > checkpoint.size) return text(400, 'old size is larger than the checkpoint size\n');
    // Check and persist under one lock: the spec's atomicity requirement.
    const run = this.#lock.then(() => this.#decide(req, origin, checkpoint.size, checkpoint.root));
    this.#lock = run.catch(() => {});
    return run;
  }

  #decide(req: AddCheckpointRequest, origin: string, size: number, root: Uint8Array): WitnessResponse {
    const state = this.#store.get(origin);
    const known = state?.size ?? 0;
    if (req.oldSize !== known) return conflict(known);
    if (req.oldSize === size) {
      const knownRoot = state?.root ?? emptyRoot();
      if (!equalBytes(knownRoot, root)) return conflict(known);
      if (req.proof.length > 0) return text(422, 'consistency proof must be empty for equal sizes\n');
    } else if (req.oldSize === 0) {
      if (req.proof.length > 0) return text(422, 'consistency proof must be empty when the old size is 0\n');
    } else if (!verifyConsistency(req.oldSize, size, req.proof, state!.root, root)) {
      return text(422, 'consistency proof does not verify\n');
    }
    const now = this.#now();
    const checkpointText = splitNote(req.checkpoint).text;
    this.#store.put(origin, { size, root, checkpoint: req.checkpoint, cosignedAt: now });
    return text(200, cosign(checkpointText, this.#signer, this.#name, now));
  }
}

function text(status: WitnessResponse['status'], body: string): WitnessResponse {
  return { status, contentType: 'text/plain; charset=utf-8', body };
}

function conflict(size: number): WitnessResponse {
  return { status: 409, contentType: SIZE_CONTENT_TYPE, body: `${size}\n` };
}
