// Test kit: an HTTP receiver on 127.0.0.1 that keeps every request it gets
// (method, path, headers, the body's exact bytes) and answers what the test
// scripts, in order, then 200. What the webhook, Slack and Splunk HEC tests
// send to and read back. Tests only; never imported by production code.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: ReceivedRequest[];
  /** Answers for the next requests, in order; after them every request gets `fallback`. */
  answer(...answers: ScriptedAnswer[]): void;
  fallback: ScriptedAnswer;
  close(): Promise<void>;
}

export async function startReceiver(fallback: ScriptedAnswer = { status: 200, body: 'ok' }): Promise<Receiver> {
  const queue: ScriptedAnswer[] = [];
  const requests: ReceivedRequest[] = [];
  const receiver = { fallback } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const a = queue.shift() ?? receiver.fallback;
      res.writeHead(a.status, a.headers ?? {});
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (...answers: ScriptedAnswer[]) => void queue.push(...answers),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
