// A Standard Webhooks receiver for trying destinations out. It verifies every
// request with the `standardwebhooks` package and the secret the service showed
// once when the destination was created (WEBHOOK_SECRET, whsec_…), writes each
// verified event to RECEIVED_DIR/<webhook-id>.json for
// `agent-ledger verify --entry`, and answers 400 to anything whose signature or
// timestamp does not verify (the service retries, so nothing is lost while it
// is down or misconfigured).
//
//   WEBHOOK_SECRET=whsec_… PORT=9000 RECEIVED_DIR=received npx node examples/webhook-receiver.ts

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';

const secret = process.env.WEBHOOK_SECRET ?? '';
if (!secret.startsWith('whsec_')) {
  process.stderr.write('set WEBHOOK_SECRET to the whsec_… secret shown when the destination was created\n');
  process.exit(2);
}
const webhook = new Webhook(secret);
const port = Number(process.env.PORT ?? 9000);
const dir = process.env.RECEIVED_DIR ?? 'received';
mkdirSync(dir, { recursive: true });
// Events are small; a body over this is refused before it is read in full.
const MAX_BODY = 1024 * 1024;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_BODY) req.destroy();
    else chunks.push(c);
  });
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    let event: { type?: string; evidence?: { index?: number } };
    try {
      event = webhook.verify(body, headers) as typeof event;
    } catch (err) {
      process.stdout.write(`refused: ${(err as Error).message}\n`);
      res.writeHead(400).end();
      return;
    }
    // The webhook-id is the event id: the same on every retry, so a redelivery overwrites its own file.
    const file = join(dir, `${headers['webhook-id']!.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
    writeFileSync(file, body);
    process.stdout.write(`verified ${event.type} (entry ${event.evidence?.index}) → ${file}\n`);
    res.writeHead(204).end();
  });
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${port}/\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
