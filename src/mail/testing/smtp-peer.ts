// Test utility: a real SMTP server (smtp-server) on 127.0.0.1, random port, that
// keeps every message it receives, plus a small RFC 5322/MIME reader good enough
// to read what nodemailer sends (headers with RFC 2047 words, 7bit/8bit,
// quoted-printable or base64 bodies, multipart with a text/plain part).
// Tests only; never imported by production code.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ParsedMessage {
  /** Lower-case header name → unfolded, decoded value (first occurrence). */
  headers: Record<string, string>;
  subject: string;
  /** The text/plain body, decoded, with \n line ends. */
  text: string;
}

export interface ReceivedMessage extends ParsedMessage {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** The message as received (after SMTP dot-unstuffing). */
  raw: string;
}

export interface SmtpPeer {
  /** smtp://127.0.0.1:<port> (or smtps://…?tls.rejectUnauthorized=false with `secure`). */
  url: string;
  port: number;
  messages: ReceivedMessage[];
  /** Resolves with the first message (already received or arriving) that matches. */
  waitFor(predicate?: (msg: ReceivedMessage) => boolean, timeoutMs?: number): Promise<ReceivedMessage>;
  close(): Promise<void>;
}

export interface SmtpPeerOptions {
  /** Implicit TLS (smtps://) with smtp-server's built-in self-signed certificate. */
  secure?: boolean;
  /** Reject RCPT TO for these addresses with 550 (to test failures). */
  rejectRecipients?: string[];
}

export async function startSmtpPeer(options: SmtpPeerOptions = {}): Promise<SmtpPeer> {
  const messages: ReceivedMessage[] = [];
  const waiters = new Set<(msg: ReceivedMessage) => void>();
  const reject = new Set((options.rejectRecipients ?? []).map((a) => a.toLowerCase()));

  const server = new SMTPServer({
    secure: options.secure === true,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 200,
    onRcptTo(address, _session, callback) {
      if (reject.has(address.address.toLowerCase())) {
        const err = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err: Error) => callback(err));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const env = session.envelope;
        const msg: ReceivedMessage = {
          ...parseMessage(raw),
          to: env.rcptTo.map((r) => r.address),
          from: env.mailFrom ? env.mailFrom.address : '',
          raw,
        };
        messages.push(msg);
        for (const w of [...waiters]) w(msg);
        callback();
      });
    },
  });

  await new Promise<void>((resolve, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', rejectListen);
      resolve();
    });
  });
  // Errors after start (a client dropping mid-session) must not crash the test process.
  server.on('error', () => {});
  const port = (server.server.address() as AddressInfo).port;
  const url = options.secure ? `smtps://127.0.0.1:${port}?tls.rejectUnauthorized=false` : `smtp://127.0.0.1:${port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    messages,
    waitFor(predicate = () => true, timeoutMs = 5000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, rejectWait) => {
        const waiter = (msg: ReceivedMessage) => {
          if (!predicate(msg)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(msg);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          rejectWait(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received on ${url})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close() {
      closed ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return closed;
    },
  };
}

// ---------------------------------------------------------------------------
// Minimal message reader

function splitHeadBody(raw: string): [string, string] {
  const m = /\r?\n\r?\n/.exec(raw);
  if (!m) return [raw, ''];
  return [raw.slice(0, m.index), raw.slice(m.index + m[0].length)];
}

function parseHeaders(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = decodeWords(line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeBytes(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

function qpToBytes(s: string, header: boolean): Buffer {
  const text = header ? s.replace(/_/g, ' ') : s.replace(/=\r?\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const hex = text.slice(i + 1, i + 3);
    if (c === 0x3d && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (c < 0x80) {
      out.push(c);
    } else {
      out.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Buffer.from(out);
}

/** RFC 2047 encoded words; whitespace between adjacent encoded words is dropped. */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?\s]+\?[QqBb]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[QqBb]\?[^?\s]*\?=)/g, '$1')
    .replace(/=\?([^?\s]+)\?([QqBb])\?([^?\s]*)\?=/g, (_m, charset: string, enc: string, data: string) => {
      const cs = charset.split('*')[0] ?? 'utf-8'; // drop RFC 2231 language
      const bytes = enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : qpToBytes(data, true);
      return decodeBytes(bytes, cs);
    });
}

function headerParam(value: string, param: string): string | undefined {
  const re = new RegExp(`;\\s*${param}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i');
  const m = re.exec(value);
  return m ? (m[1] ?? m[2]) : undefined;
}

function decodeBody(body: string, headers: Record<string, string>): string {
  const cte = (headers['content-transfer-encoding'] ?? '7bit').trim().toLowerCase();
  const charset = headerParam(headers['content-type'] ?? '', 'charset') ?? 'utf-8';
  let text: string;
  if (cte === 'quoted-printable') text = decodeBytes(qpToBytes(body, false), charset);
  else if (cte === 'base64') text = decodeBytes(Buffer.from(body.replace(/\s+/g, ''), 'base64'), charset);
  else text = body;
  return text.replace(/\r\n/g, '\n');
}

/** First text/plain part of an entity, decoded; '' if there is none. */
function textOf(headers: Record<string, string>, body: string): string {
  const type = (headers['content-type'] ?? 'text/plain').trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = headerParam(headers['content-type'] ?? '', 'boundary');
    if (!boundary) return '';
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break; // closing delimiter
      const [h, b] = splitHeadBody(part.replace(/^\r?\n/, ''));
      const found = textOf(parseHeaders(h), b.replace(/\r?\n$/, ''));
      if (found !== '') return found;
    }
    return '';
  }
  if (!type.startsWith('text/plain')) return '';
  return decodeBody(body, headers);
}

/** Reads headers, Subject and the text/plain body of a raw RFC 5322 message. */
export function parseMessage(raw: string): ParsedMessage {
  const [head, body] = splitHeadBody(raw);
  const headers = parseHeaders(head);
  return { headers, subject: headers['subject'] ?? '', text: textOf(headers, body) };
}
