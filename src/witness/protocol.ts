import { decodeBase64, encodeBase64 } from '../ledger/index.ts';

export const MAX_PROOF_LINES = 63;
export const SIZE_CONTENT_TYPE = 'text/x.tlog.size';
/** A request holds a checkpoint (≤ 100 signature lines) and ≤ 63 hashes; 64 KiB is plenty. */
export const MAX_REQUEST_BYTES = 64 * 1024;

const DECIMAL = /^(0|[1-9][0-9]*)$/;

export interface AddCheckpointRequest {
  oldSize: number;
  proof: Uint8Array[];
  /** The signed checkpoint note, signatures included. */
  checkpoint: string;
}

export function formatAddCheckpoint(req: AddCheckpointRequest): string {
  return `old ${req.oldSize}\n${req.proof.map((h) => `${encodeBase64(h)}\n`).join('')}\n${req.checkpoint}`;
}

/** Parses a request body; undefined when it is not one (the witness answers 400). */
export function parseAddCheckpoint(body: string): AddCheckpointRequest | undefined {
  const blank = body.indexOf('\n\n');
  if (blank < 0) return undefined;
  const [oldLine, ...proofLines] = body.slice(0, blank).split('\n');
  if (oldLine === undefined || !oldLine.startsWith('old ')) return undefined;
  const sizeText = oldLine.slice(4);
  const oldSize = Number(sizeText);
  if (!DECIMAL.test(sizeText) || !Number.isSafeInteger(oldSize)) return undefined;
  if (proofLines.length > MAX_PROOF_LINES) return undefined;
  const proof: Uint8Array[] = [];
  for (const line of proofLines) {
    const hash = decodeBase64(line);
    if (hash === undefined || hash.length !== 32) return undefined;
    proof.push(hash);
  }
  return { oldSize, proof, checkpoint: body.slice(blank + 2) };
}

/** The size in a 409 body, or undefined when the body is not one. */
export function parseSizeBody(body: string): number | undefined {
  const text = body.endsWith('\n') ? body.slice(0, -1) : body;
  const n = Number(text);
  return DECIMAL.test(text) && Number.isSafeInteger(n) ? n : undefined;
}
