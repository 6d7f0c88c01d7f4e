// A Splunk HTTP Event Collector stand-in for the delivery benchmark, in a
// process of its own (so the load generator's event loop does not delay its
// answers): takes POST /services/collector/event with `Authorization: Splunk
// <token>`, answers HEC's 200 {"text":"Success","code":0}, and keeps, per
// event, only how late it arrived (its receipt time minus the `recorded_at`
// its payload carries — the time its audit-trail entry was written, when
// ingest acknowledged it). Events are read with a regular expression rather
// than parsed: the bench measures the service, not this receiver.
//
// startHecReceiver(token) runs this file as a child and talks to it over IPC.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface HecCounts {
  /** Events received (with duplicates), their bytes, requests, refused requests (bad token or path). */
  events: number;
  bytes: number;
  requests: number;
  refused: number;
}

export interface HecReceiver {
  /** http://127.0.0.1:<port>/services/collector/event */
  url: string;
  counts(): Promise<HecCounts>;
  /** The lag in ms of every event received since the last take(), and clears them. */
  take(): Promise<number[]>;
  close(): Promise<void>;
}

type Reply = { url: string } | { counts: HecCounts } | { lags: number[] };

export async function startHecReceiver(token: string): Promise<HecReceiver> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, HEC_TOKEN: token },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: Array<(r: Reply) => void> = [];
  child.on('message', (m: Reply) => waiting.shift()?.(m));
  const next = () => new Promise<Reply>((r) => waiting.push(r));
  const ask = (what: string) => {
    const p = next();
    child.send(what);
    return p;
  };
  const { url } = (await next()) as { url: string };
  return {
    url,
    counts: async () => ((await ask('counts')) as { counts: HecCounts }).counts,
    take: async () => ((await ask('take')) as { lags: number[] }).lags,
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.send && process.env.HEC_TOKEN && process.argv[1] === fileURLToPath(import.meta.url)) {
  const token = process.env.HEC_TOKEN;
  const RECORDED_AT = /"recorded_at":"([^"]+)"/g;
  let lags: number[] = [];
  const counts: HecCounts = { events: 0, bytes: 0, requests: 0, refused: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      counts.requests++;
      if (req.headers.authorization !== `Splunk ${token}` || req.url !== '/services/collector/event') {
        counts.refused++;
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end('{"text":"Invalid token","code":4}');
        return;
      }
      const body = Buffer.concat(chunks);
      counts.bytes += body.byteLength;
      if (process.env.HEC_SAMPLE && counts.requests === 1) console.log(body.toString('utf8').split('\n')[0]);
      for (const m of body.toString('utf8').matchAll(RECORDED_AT)) {
        counts.events++;
        lags.push(now - Date.parse(m[1]!));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text":"Success","code":0}');
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send!({ url: `http://127.0.0.1:${port}/services/collector/event` });
  });
  process.on('message', (m: string) => {
    if (m === 'counts') process.send!({ counts });
    else if (m === 'take') {
      process.send!({ lags });
      lags = [];
    }
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
