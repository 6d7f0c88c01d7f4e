// Test utility: an S3-compatible stand-in (no real S3 runs here). It speaks
// the path-style subset `@aws-sdk/client-s3` uses to publish and read back
// objects — PutObject, GetObject, HeadObject on /BUCKET/KEY — and holds the
// objects in memory. It checks what a real store checks of each request: a
// SigV4 Authorization header of the one access key it knows, and that the
// body hashes to the x-amz-content-sha256 the request signed (or the
// CRC32/MD5 checksum it carries). Signatures themselves are not recomputed.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';

export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
  etag: string;
}

export interface S3StandIn {
  /** The endpoint to give the SDK (LOG_PUBLISH_S3_ENDPOINT). */
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket → key → object */
  buckets: Map<string, Map<string, StoredObject>>;
  /** Requests seen, as "METHOD /bucket/key". */
  requests: string[];
  close(): Promise<void>;
}

function xmlError(res: ServerResponse, status: number, code: string, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/xml' })
    .end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

export interface S3StandInOptions {
  /**
   * Asked before each PutObject is stored: 'hold' keeps the request open,
   * unanswered and unstored (a write in flight when its writer is killed).
   */
  onPut?: (bucket: string, key: string) => 'store' | 'hold';
}

/** Starts the stand-in with these buckets (created empty). */
export async function startS3StandIn(bucketNames: string[], opts: S3StandInOptions = {}): Promise<S3StandIn> {
  const accessKeyId = 'AKIASTANDIN000000001';
  const secretAccessKey = 'stand-in-secret-0123456789abcdef0123456';
  const buckets = new Map(bucketNames.map((b) => [b, new Map<string, StoredObject>()]));
  const requests: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}`);
    const auth = String(req.headers.authorization ?? '');
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`))
      return xmlError(res, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist.');
    const [, bucketName, ...keyParts] = url.pathname.split('/');
    const bucket = buckets.get(decodeURIComponent(bucketName ?? ''));
    if (bucket === undefined) return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    const key = keyParts.map(decodeURIComponent).join('/');
    if (key === '') return xmlError(res, 400, 'InvalidRequest', 'Only object requests are served here');
    if (req.method === 'PUT') {
      if (url.searchParams.size > 0 && !url.searchParams.has('x-id'))
        return xmlError(res, 501, 'NotImplemented', 'Only PutObject is implemented');
      const data = await body(req);
      if (opts.onPut?.(decodeURIComponent(bucketName!), key) === 'hold') return;
      const signed = String(req.headers['x-amz-content-sha256'] ?? '');
      if (/^[0-9a-f]{64}$/.test(signed) && createHash('sha256').update(data).digest('hex') !== signed)
        return xmlError(res, 400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 does not match');
      const crc = req.headers['x-amz-checksum-crc32'];
      if (typeof crc === 'string') {
        const mine = Buffer.alloc(4);
        mine.writeUInt32BE(crc32(data));
        if (mine.toString('base64') !== crc) return xmlError(res, 400, 'BadDigest', 'CRC32 checksum mismatch');
      }
      const md5 = req.headers['content-md5'];
      if (typeof md5 === 'string' && createHash('md5').update(data).digest('base64') !== md5)
        return xmlError(res, 400, 'BadDigest', 'The Content-MD5 you specified did not match');
      const etag = `"${createHash('md5').update(data).digest('hex')}"`;
      bucket.set(key, {
        body: data,
        contentType: req.headers['content-type'],
        cacheControl: req.headers['cache-control'],
        etag,
      });
      res.writeHead(200, { etag }).end();
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const obj = bucket.get(key);
      if (obj === undefined) {
        if (req.method === 'HEAD') return void res.writeHead(404).end();
        return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      }
      res.writeHead(200, {
        etag: obj.etag,
        'content-length': obj.body.length,
        'content-type': obj.contentType ?? 'binary/octet-stream',
        ...(obj.cacheControl ? { 'cache-control': obj.cacheControl } : {}),
        'last-modified': new Date(0).toUTCString(),
      });
      res.end(req.method === 'HEAD' ? undefined : obj.body);
      return;
    }
    return xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => xmlError(res, 500, 'InternalError', String(err)));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  if (addr === null || typeof addr !== 'object') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${addr.port}`,
    accessKeyId,
    secretAccessKey,
    buckets,
    requests,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
