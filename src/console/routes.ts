import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { distDir } from './paths.ts';
import { notFound, serviceUnavailable } from '../core/index.ts';

/**
 * The console's Content-Security-Policy: only our own scripts, styles, images
 * and API; no inline script, no framing, no plugins. Vite emits no inline
 * script, and the app sets styles through the CSSOM only.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
  immutable: boolean;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** Reads the built console once into memory (a few hundred KB), gzipped ahead of time. */
export function loadAssets(dir = distDir): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(join(dir, 'index.html'))) return assets;
  for (const file of walk(dir)) {
    const rel = relative(dir, file).split(sep).join('/');
    const body = readFileSync(file);
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const compressible = /text|javascript|json|svg/.test(type) && body.length > 512;
    assets.set(rel, {
      body,
      gzip: compressible ? gzipSync(body, { level: 9 }) : null,
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      // Vite names what it builds under assets/ by a hash of its content.
      immutable: rel.startsWith('assets/'),
    });
  }
  return assets;
}

function send(req: FastifyRequest, reply: FastifyReply, a: Asset) {
  void reply
    .header('content-type', a.type)
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('vary', 'accept-encoding')
    .header('etag', a.etag)
    .header('cache-control', a.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
  const gz = a.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  if (gz) void reply.header('content-encoding', 'gzip');
  return reply.send(gz ? a.gzip : a.body);
}

/**
 * Serves the console at /console: built files by path, index.html for any
 * other path under it (the app routes in the browser), 404 for a missing
 * asset (a stale tab asking for an old hash must not get HTML as script).
 */
export async function consoleRoutes(app: FastifyInstance, assets = loadAssets()): Promise<void> {
  const index = assets.get('index.html');
  const handler = async (req: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply) => {
    // Errors are problem+json like the API's (the app's error handler writes them).
    if (!index) {
      throw serviceUnavailable(
        'The console is not built: run `npm start` (it builds it) or `node src/console/ensure-built.ts`.',
      );
    }
    const path = req.params['*'] ?? '';
    const asset = assets.get(path);
    if (asset) return send(req, reply, asset);
    if (path.startsWith('assets/') || extname(path) !== '') throw notFound('No console file at this path.');
    return send(req, reply, index);
  };
  app.get('/console', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/console/', 308));
  // The service's address opened in a browser: the console (302, not permanent: the root may serve more one day).
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/console/', 302));
  app.get('/console/*', { schema: { hide: true } }, handler);
}
