// Where the publisher writes the logs' tiles (LOG_PUBLISH_URL): a directory a
// static web server serves, or an S3-compatible bucket. Each write replaces
// one object whole or not at all, so a reader never sees half a tile, and a
// write repeated with the same bytes changes nothing.

import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export type PublishedKind = 'tile' | 'checkpoint';

export interface PublishStore {
  /** Where it writes, for logs: the URL without credentials. */
  readonly where: string;
  /** Writes `data` at `key` (slash-separated, no "." or ".." segment), replacing what was there. */
  put(key: string, data: Uint8Array, kind: PublishedKind): Promise<void>;
  /**
   * Reads what is at `key`, or undefined when nothing is: the tiles of log
   * entries pruned from the database (LOG_KEEP_IN_DB_ENTRIES) are read back
   * from here, and checked by the caller against hashes the database kept.
   */
  get(key: string): Promise<Uint8Array | undefined>;
  close(): void;
}

export interface PublishStoreOptions {
  /** LOG_PUBLISH_S3_ENDPOINT: an S3-compatible endpoint (MinIO, Ceph RGW, a test stand-in), addressed path-style. */
  s3Endpoint?: string | undefined;
  /** The environment the S3 client reads its region and credentials from (AWS_REGION, AWS_ACCESS_KEY_ID, ...). */
  env?: Record<string, string | undefined>;
}

// The same headers the service sends for the same paths (tile-routes.ts): a
// tile never changes, the checkpoint moves.
const CACHE_CONTROL: Record<PublishedKind, string> = {
  tile: 'public, max-age=31536000, immutable',
  checkpoint: 'public, max-age=5',
};
const CONTENT_TYPE: Record<PublishedKind, string> = {
  tile: 'application/octet-stream',
  checkpoint: 'text/plain; charset=utf-8',
};

const SEGMENT = /^[A-Za-z0-9._~:-]+$/;

/** A key is made of the log origin and a tile path; refuse anything that could leave its prefix. */
export function checkKey(key: string): void {
  const parts = key.split('/');
  if (parts.some((p) => p === '.' || p === '..' || !SEGMENT.test(p))) throw new Error(`not a publishable key: ${key}`);
}

export function openPublishStore(url: string, opts: PublishStoreOptions = {}): PublishStore {
  const u = new URL(url);
  if (u.protocol === 'file:') return new FileStore(fileURLToPath(u));
  if (u.protocol === 's3:') {
    const prefix = u.pathname.replace(/^\/+|\/+$/g, '');
    return new S3Store(u.hostname, prefix, opts);
  }
  throw new Error(`LOG_PUBLISH_URL must be file:///DIR or s3://BUCKET/PREFIX, got ${u.protocol}`);
}

/**
 * Files under a directory. A write goes to a temporary file under DIR/.tmp
 * (the same file system), is flushed to disk, then renamed over its path:
 * readers see the old object or the new one, and a process killed mid-write
 * leaves at most a stray file under .tmp, never a torn tile.
 */
export class FileStore implements PublishStore {
  readonly where: string;
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
    this.where = `file://${dir}`;
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    checkKey(key);
    const target = join(this.#dir, ...key.split('/'));
    const tmpDir = join(this.#dir, '.tmp');
    await mkdir(dirname(target), { recursive: true });
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, `${process.pid}-${randomBytes(8).toString('hex')}`);
    const fh = await open(tmp, 'wx', 0o644);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await rename(tmp, target);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    }
    // The rename itself made durable: once the database drops the entries a
    // tile holds (LOG_KEEP_IN_DB_ENTRIES), the file is their only copy.
    const dh = await open(dirname(target), 'r');
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkKey(key);
    try {
      return new Uint8Array(await readFile(join(this.#dir, ...key.split('/'))));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  close(): void {}
}

/** Objects in an S3 bucket (PutObject replaces an object atomically), under an optional key prefix. */
export class S3Store implements PublishStore {
  readonly where: string;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #client: S3Client;

  constructor(bucket: string, prefix: string, opts: PublishStoreOptions) {
    this.#bucket = bucket;
    this.#prefix = prefix;
    const env = opts.env ?? process.env;
    this.where = `s3://${bucket}/${prefix}${opts.s3Endpoint ? ` at ${opts.s3Endpoint}` : ''}`;
    const accessKeyId = env.AWS_ACCESS_KEY_ID;
    const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
    this.#client = new S3Client({
      region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
      // Given explicitly when set, so a test's environment map is what signs; else the SDK's default chain.
      ...(accessKeyId && secretAccessKey
        ? {
            credentials: {
              accessKeyId,
              secretAccessKey,
              ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
            },
          }
        : {}),
      // Other S3-compatible stores take bucket-in-path addressing; virtual hosts need DNS per bucket.
      ...(opts.s3Endpoint ? { endpoint: opts.s3Endpoint, forcePathStyle: true } : {}),
      maxAttempts: 3,
      // A store that stops answering fails the run (retried later) instead of holding the publisher forever.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
    });
  }

  async put(key: string, data: Uint8Array, kind: PublishedKind): Promise<void> {
    checkKey(key);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: this.#prefix ? `${this.#prefix}/${key}` : key,
        Body: data,
        ContentLength: data.byteLength,
        ContentType: CONTENT_TYPE[kind],
        CacheControl: CACHE_CONTROL[kind],
      }),
    );
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkKey(key);
    try {
      const got = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: this.#prefix ? `${this.#prefix}/${key}` : key }),
      );
      return await got.Body!.transformToByteArray();
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }

  close(): void {
    this.#client.destroy();
  }
}
