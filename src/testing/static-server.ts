// Test utility: a plain static web server (node:http and the file system,
// nothing of the service), as an operator would put in front of a directory
// the log is published to. GET and HEAD of a file below the root, 404 else.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join, resolve, sep } from 'node:path';

export interface StaticServer {
  url: string;
  /** Paths requested so far, in order. */
  requested: string[];
  close(): Promise<void>;
}

export async function startStaticServer(root: string): Promise<StaticServer> {
  const base = resolve(root);
  const requested: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requested.push(path);
    const file = resolve(join(base, path));
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !file.startsWith(base + sep)) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (data) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length });
        res.end(req.method === 'HEAD' ? undefined : data);
      },
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  if (addr === null || typeof addr !== 'object') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${addr.port}`,
    requested,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
