// A Splunk HTTP Event Collector stand-in for the delivery benchmark, in a
// process of its own (so the load generator's event loop does not delay its
// answers): takes POST /services/collector/event with `Authorization: Splunk
// <token>`, answers HEC's 200 {"text":"Success","code":0}, and keeps, per
// event, only how late it arrived (its receipt time minus the `recorded_at`
// its payload carries — the time its audit-trail entry was written, when
// ingest acknowledged it). Events are read with a regular expression rather
// than parsed, after the answer: the bench measures the service, not this
// receiver (a real collector answers a batch in milliseconds).
//
// The same process listens for syslog over TCP too (RFC 6587 octet-counted
// RFC 5424 messages whose MSG is the event's JSON, as the syslog kind sends),
// counted the same way: `syslogUrl`.
//
// startHecReceiver(token) runs this file as a child and talks to it over IPC.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
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
  /** syslog+tcp://127.0.0.1:<port> */
  syslogUrl: string;
  counts(): Promise<HecCounts>;
  /** The lag in ms of every event received since the last take(), and clears them. */
  take(): Promise<number[]>;
  close(): Promise<void>;
}

type Reply = { url: string; syslogUrl: string } | { counts: HecCounts } | { lags: number[] };

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
  const { url, syslogUrl } = (await next()) as { url: string; syslogUrl: string };
  return {
    url,
    syslogUrl,
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
      // Answered first, counted after: what the sender waits for is the answer, and the
      // counting (a scan of up to 1 MB and a date parsed per event, 10-150 ms a request
      // on a loaded machine) is this stand-in's own work, not a collector's.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text":"Success","code":0}');
      // (After the answer's write, which Node makes on the next tick.)
      const first = counts.requests === 1;
      setImmediate(() => {
        const body = Buffer.concat(chunks);
        counts.bytes += body.byteLength;
        if (process.env.HEC_SAMPLE && first) console.log(body.toString('utf8').split('\n')[0]);
        for (const m of body.toString('utf8').matchAll(RECORDED_AT)) {
          counts.events++;
          lags.push(now - Date.parse(m[1]!));
        }
      });
    });
  });
  // Syslog: frames are `LENGTH SP MESSAGE`; a connection carries a batch and is ended by the sender.
  const syslog = createTcpServer((socket) => {
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const now = Date.now();
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (;;) {
        const space = buffered.indexOf(0x20);
        if (space < 0) break;
        const length = Number(buffered.subarray(0, space).toString('latin1'));
        if (buffered.length < space + 1 + length) break;
        const message = buffered.subarray(space + 1, space + 1 + length);
        buffered = buffered.subarray(space + 1 + length);
        counts.requests++;
        counts.bytes += length;
        for (const m of message.toString('utf8').matchAll(RECORDED_AT)) {
          counts.events++;
          lags.push(now - Date.parse(m[1]!));
        }
      }
    });
    socket.on('error', () => {});
  });
  let listening = 0;
  const ready = () => {
    if (++listening < 2) return;
    const { port } = server.address() as AddressInfo;
    const { port: syslogPort } = syslog.address() as AddressInfo;
    process.send!({
      url: `http://127.0.0.1:${port}/services/collector/event`,
      syslogUrl: `syslog+tcp://127.0.0.1:${syslogPort}`,
    });
  };
  server.listen(0, '127.0.0.1', ready);
  syslog.listen(0, '127.0.0.1', ready);
  process.on('message', (m: string) => {
    if (m === 'counts') process.send!({ counts });
    else if (m === 'take') {
      process.send!({ lags });
      lags = [];
    }
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    syslog.close();
    server.close(() => process.exit(0));
  });
}
