// Outgoing mail (DESIGN §5). Two back ends behind one interface:
//   - SMTP (`SMTP_URL`, smtp:// or smtps://) through a pooled nodemailer transport;
//   - the embedded default: each mail is written as an RFC 5322 `.eml` file into
//     an outbox directory, and the path is logged.
// Both build the message with nodemailer's composer, so an outbox file is byte
// for byte the kind of message the SMTP back end would have sent.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { NodemailerError, SendMailOptions, Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /**
   * What the mail is about, as ids (`invitation:<uuid>`, `signin-code`): what
   * the log says instead of the recipient. Addresses are personal data and
   * never logged.
   */
  ref?: string;
}

/** Text with every e-mail address in it replaced: server answers and errors quote recipients. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g, '<address>');
}

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface MailerLog {
  info(obj: object, msg: string): void;
}

export interface MailerOptions {
  /** smtp://user:pass@host:587 or smtps://…:465. Without it, mail goes to the outbox. */
  smtpUrl?: string;
  /** From header, e.g. `agent-ledger <no-reply@ledger.example.com>`. */
  from: string;
  /** Directory for `.eml` files when smtpUrl is not set; created if missing. */
  outboxDir: string;
  log: MailerLog;
}

/** Sending failed. `permanent` is true when the server refused the message for good (5xx). */
export class MailSendError extends Error {
  override name = 'MailSendError';
  readonly code: string | undefined;
  readonly responseCode: number | undefined;
  readonly permanent: boolean;

  // The SMTP library's error is not kept whole as the cause: its message,
  // response and recipient lists name the addresses, and loggers print causes.
  // The cause is its message without them.
  constructor(message: string, cause: unknown) {
    super(withoutAddresses(message), {
      cause: cause instanceof Error ? new Error(withoutAddresses(cause.message)) : undefined,
    });
    const e = (cause ?? {}) as NodemailerError;
    this.code = typeof e.code === 'string' ? e.code : undefined;
    this.responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
    this.permanent = e.permanent === true;
  }
}

// One bare address: no display name, no list, no header folding tricks.
const ADDRESS_RE = /^[^\s@,;:<>()[\]"\\]+@[^\s@,;:<>()[\]"\\]+$/;
const LINE_BREAK_RE = /[\r\n]/;

function checkMessage(msg: MailMessage): void {
  if (typeof msg?.to !== 'string' || !ADDRESS_RE.test(msg.to)) {
    throw new TypeError('mail recipient must be a single bare e-mail address');
  }
  if (typeof msg.subject !== 'string' || LINE_BREAK_RE.test(msg.subject)) {
    throw new TypeError('mail subject must be a single line');
  }
  if (typeof msg.text !== 'string') throw new TypeError('mail text must be a string');
}

function composeOptions(from: string, msg: MailMessage): SendMailOptions {
  return {
    from,
    to: msg.to,
    subject: msg.subject,
    text: msg.text,
    // RFC 3834: machine-generated, so auto-responders stay quiet.
    headers: { 'Auto-Submitted': 'auto-generated' },
    xMailer: false,
  };
}

/** `scheme://host:port` of an SMTP URL, without credentials or query. */
function describeSmtpUrl(smtpUrl: string): string {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new TypeError('SMTP URL is not a valid URL (expected smtp://host:port or smtps://host:port)');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new TypeError(`SMTP URL must use smtp:// or smtps://, not ${url.protocol}//`);
  }
  if (url.hostname === '') throw new TypeError('SMTP URL has no host');
  const port = url.port || (url.protocol === 'smtps:' ? '465' : '587');
  return `${url.protocol}//${url.hostname}:${port}`;
}

export function createMailer(opts: MailerOptions): Mailer {
  if (typeof opts.from !== 'string' || opts.from.trim() === '' || LINE_BREAK_RE.test(opts.from)) {
    throw new TypeError('mailer needs a single-line From address');
  }
  return opts.smtpUrl ? smtpMailer(opts.smtpUrl, opts) : outboxMailer(opts);
}

/** Runs sends, refuses new ones after close(), and lets close() wait for the ones in flight. */
function lifecycle(send: (msg: MailMessage) => Promise<void>, shutdown: () => void): Mailer {
  const inFlight = new Set<Promise<void>>();
  let closing: Promise<void> | undefined;
  return {
    send(msg) {
      if (closing) return Promise.reject(new Error('mailer is closed'));
      try {
        checkMessage(msg);
      } catch (err) {
        return Promise.reject(err);
      }
      const p = send(msg);
      inFlight.add(p);
      const forget = () => inFlight.delete(p);
      p.then(forget, forget);
      return p;
    },
    close() {
      closing ??= Promise.allSettled([...inFlight]).then(() => shutdown());
      return closing;
    },
  };
}

function smtpMailer(smtpUrl: string, opts: MailerOptions): Mailer {
  const target = describeSmtpUrl(smtpUrl);
  // Settings in the URL's query string (e.g. ?tls.rejectUnauthorized=false) win over these.
  const transport: Transporter = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 3,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return lifecycle(
    async (msg) => {
      let messageId: string | undefined;
      try {
        const info = await transport.sendMail(composeOptions(opts.from, msg));
        messageId = (info as { messageId?: string }).messageId;
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new MailSendError(`sending mail via ${target} failed: ${reason}`, err);
      }
      opts.log.info({ ref: msg.ref, messageId, via: target }, 'mail sent');
    },
    () => transport.close(),
  );
}

/** `20260131T235959.123Z`: ISO 8601 basic format (no colons, sorts by time). */
function fileTimestamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '');
}

function outboxMailer(opts: MailerOptions): Mailer {
  const dir = opts.outboxDir;
  if (typeof dir !== 'string' || dir === '') throw new TypeError('mailer needs an outboxDir');
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  let ready: Promise<unknown> | undefined;
  const ensureDir = () => {
    ready ??= mkdir(dir, { recursive: true, mode: 0o700 }).catch((err: unknown) => {
      ready = undefined; // retry on the next send
      throw err;
    });
    return ready;
  };

  return lifecycle(
    async (msg) => {
      const info = await composer.sendMail(composeOptions(opts.from, msg));
      const raw = info.message;
      if (!Buffer.isBuffer(raw)) throw new Error('mail composer did not return a buffer');
      await ensureDir();
      const name = `${fileTimestamp(new Date())}-${randomBytes(6).toString('hex')}.eml`;
      const path = join(dir, name);
      const tmp = join(dir, `.${name}.tmp`);
      // Sign-in codes are secrets: owner-only file, written whole then renamed into place.
      const fh = await open(tmp, 'wx', 0o600);
      try {
        await fh.writeFile(raw);
        await fh.datasync();
      } catch (err) {
        await fh.close().catch(() => {});
        await unlink(tmp).catch(() => {});
        throw err;
      }
      await fh.close();
      try {
        await rename(tmp, path);
      } catch (err) {
        await unlink(tmp).catch(() => {});
        throw err;
      }
      opts.log.info({ path, ref: msg.ref }, 'mail written to outbox');
    },
    () => composer.close(),
  );
}
