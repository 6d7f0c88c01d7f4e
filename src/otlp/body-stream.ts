import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import { HttpProblem } from '../core/index.ts';
import { type BodyWalker, JsonWalker, ProtobufWalker } from './body-walkers.ts';

// The body of an export as the route's parser reads it: inflated as it
// streams in (gzip), and measured as it comes out, in decompressed bytes and
// in what it holds (export-bounds.ts). The first byte past a bound fails the
// stream with 413: the inflater stops there, so a small bomb never inflates
// further, and nothing was decoded yet.

type Payload = NodeJS.ReadableStream & { receivedEncodedLength?: number };

export function guardedBody(req: FastifyRequest, payload: Payload, maxBytes: number): Payload {
  const enc = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const gzip = enc === 'gzip' || enc === 'x-gzip';
  if (!gzip && enc !== 'identity' && enc !== '') {
    throw new HttpProblem('unsupported_media_type', 'Content-Encoding must be gzip or identity.');
  }
  const type = (req.headers['content-type'] ?? '').trim().toLowerCase();
  const walker = type.startsWith('application/x-protobuf')
    ? new ProtobufWalker()
    : type.startsWith('application/json')
      ? new JsonWalker()
      : undefined;
  if (!walker) return payload; // the parser answers 415
  const guard = new Guard(maxBytes, walker);
  const out = guard as Guard & { receivedEncodedLength: number };
  out.receivedEncodedLength = 0;
  // Fastify compares the bytes received with Content-Length: those are the ones on the wire.
  payload.on('data', (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
  });
  payload.on('error', (err) => out.destroy(err));
  if (!gzip) {
    payload.pipe(guard);
    return out;
  }
  const gunzip = createGunzip();
  gunzip.on('error', (err) => out.destroy(Object.assign(err, { statusCode: 400 })));
  payload.pipe(gunzip).pipe(guard);
  out.on('close', () => {
    gunzip.destroy();
  });
  return out;
}

/** Passes bytes through while they stay within the byte limit and the walker's bounds; fails with 413 otherwise. */
class Guard extends Transform {
  #seen = 0;
  readonly #max: number;
  readonly #walker: BodyWalker;
  constructor(max: number, walker: BodyWalker) {
    super();
    this.#max = max;
    this.#walker = walker;
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.#seen += chunk.length;
    if (this.#seen > this.#max) {
      cb(new HttpProblem('payload_too_large', `The export is larger than ${this.#max} bytes once decompressed.`));
      return;
    }
    try {
      this.#walker.push(chunk);
    } catch (err) {
      cb(err as Error);
      return;
    }
    cb(null, chunk);
  }
}
