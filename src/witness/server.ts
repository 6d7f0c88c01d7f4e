// The witness's HTTP face: POST <prefix>/add-checkpoint and nothing else. Plain
// node:http — the protocol is one text body in, one text body out, and the
// body is bounded before it is read.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_REQUEST_BYTES } from './protocol.ts';
import type { Witness } from './witness.ts';

export interface WitnessServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startWitnessServer(
  witness: Witness,
  opts: { host: string; port: number; prefix?: string },
): Promise<WitnessServer> {
  const path = `${(opts.prefix ?? '').replace(/\/+$/, '')}/add-checkpoint`;
  const server = createServer((req, res) => {
    const send = (status: number, contentType: string, body: string) => {
      res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if ((req.url ?? '').split('?')[0] !== path) return send(404, 'text/plain; charset=utf-8', 'not found\n');
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return send(405, 'text/plain; charset=utf-8', 'method not allowed\n');
    }
    readBody(req)
      .then(
        async (body) => {
          if (body === undefined) return send(413, 'text/plain; charset=utf-8', 'request too large\n');
          const out = await witness.addCheckpoint(body);
          send(out.status, out.contentType, out.body);
        },
        () => send(400, 'text/plain; charset=utf-8', 'bad request body\n'),
      )
      .catch(() => {
        if (!res.headersSent) send(500, 'text/plain; charset=utf-8', 'internal error\n');
      });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    server,
    url: `http://${host}:${port}${(opts.prefix ?? '').replace(/\/+$/, '')}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/** The body as UTF-8 text, or undefined past the size bound (read no further). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_REQUEST_BYTES) {
      req.resume();
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
      } catch (err) {
        reject(err); // not UTF-8: a 400
      }
    });
    req.on('error', reject);
  });
}
