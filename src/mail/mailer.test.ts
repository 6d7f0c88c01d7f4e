import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createMailer, MailSendError, type MailerLog } from './mailer.ts';
import { signInMail } from './signin-mail.ts';
import { parseMessage, type SmtpPeer, startSmtpPeer } from './testing/smtp-peer.ts';

const FROM = 'agent-ledger <no-reply@ledger.test>';
// nodemailer writes the display name as a quoted string.
const FROM_HEADER = '"agent-ledger" <no-reply@ledger.test>';

function recordingLog(): MailerLog & { entries: Array<{ obj: Record<string, unknown>; msg: string }> } {
  const entries: Array<{ obj: Record<string, unknown>; msg: string }> = [];
  return { entries, info: (obj, msg) => entries.push({ obj: obj as Record<string, unknown>, msg }) };
}

/** The sign-in code as a reader of the mail would find it. */
function codeIn(text: string): string | undefined {
  return /\b(\d{6,})\b/.exec(text)?.[1];
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

let scratch: string;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agent-ledger-mail-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('SMTP mailer (real smtp-server peer)', () => {
  let peer: SmtpPeer;
  before(async () => {
    peer = await startSmtpPeer();
  });
  after(async () => {
    await peer.close();
  });

  test('delivers the sign-in mail: envelope, To, From, Subject and the code', async () => {
    const log = recordingLog();
    const outboxDir = join(scratch, 'unused-outbox');
    const mailer = createMailer({ smtpUrl: peer.url, from: FROM, outboxDir, log });
    const { subject, text } = signInMail('482913', { minutes: 10, publicUrl: 'https://ledger.example.com/x' });
    await mailer.send({ to: 'alice@acme-corp.com', subject, text, ref: 'signin-code' });
    await mailer.close();

    const msg = await peer.waitFor((m) => m.to.includes('alice@acme-corp.com'), 5000);
    assert.deepEqual(msg.to, ['alice@acme-corp.com']);
    assert.equal(msg.from, 'no-reply@ledger.test');
    // Parse the raw message independently of the peer's own parse.
    const parsed = parseMessage(msg.raw);
    assert.equal(parsed.headers['to'], 'alice@acme-corp.com');
    assert.equal(parsed.headers['from'], FROM_HEADER);
    assert.equal(parsed.subject, subject);
    assert.equal(parsed.subject, 'Your agent-ledger sign-in code: 482913');
    assert.equal(codeIn(parsed.subject), '482913');
    assert.equal(codeIn(parsed.text), '482913');
    assert.match(parsed.text, /expires in 10 minutes/);
    assert.match(parsed.text, /https:\/\/ledger\.example\.com/);
    assert.equal(parsed.headers['auto-submitted'], 'auto-generated');
    assert.match(parsed.headers['message-id'] ?? '', /^<.+@.+>$/);
    assert.ok(parsed.headers['date']);
    assert.equal(parsed.headers['x-mailer'], undefined);
    assert.deepEqual(msg.text, parsed.text);

    assert.equal(log.entries.length, 1);
    assert.equal(log.entries[0]!.msg, 'mail sent');
    assert.equal(log.entries[0]!.obj['to'], undefined, 'the recipient is never logged');
    assert.equal(log.entries[0]!.obj['ref'], 'signin-code', 'what the mail was about, as an id');
    assert.doesNotMatch(JSON.stringify(log.entries), /@acme-corp\.com/);
    await assert.rejects(stat(outboxDir), { code: 'ENOENT' }); // SMTP mode never touches the outbox
  });

  test('non-ASCII subject and long lines survive encoding (quoted-printable / RFC 2047)', async () => {
    const mailer = createMailer({ smtpUrl: peer.url, from: FROM, outboxDir: scratch, log: recordingLog() });
    const subject = 'Ihr Anmeldecode für agent-ledger: 730155 ✓';
    const text = `Grüße — ${'sehr lange Zeile '.repeat(12)}\nCode: 730155\nZweite Zeile.\n`;
    await mailer.send({ to: 'jorg@acme-corp.com', subject, text });
    await mailer.close();
    const msg = await peer.waitFor((m) => m.subject.includes('730155'));
    assert.match(msg.raw, /=\?UTF-8\?/i); // really encoded on the wire
    assert.equal(msg.subject, subject);
    assert.equal(msg.text, text);
  });

  test('pooled transport delivers concurrent sends', async () => {
    const mailer = createMailer({ smtpUrl: peer.url, from: FROM, outboxDir: scratch, log: recordingLog() });
    const to = Array.from({ length: 8 }, (_, i) => `user${i}@pool.test`);
    await Promise.all(to.map((addr, i) => mailer.send({ to: addr, subject: `pool ${i}`, text: `code ${100000 + i}` })));
    await mailer.close();
    for (const [i, addr] of to.entries()) {
      const msg = await peer.waitFor((m) => m.to[0] === addr);
      assert.equal(msg.subject, `pool ${i}`);
      assert.equal(codeIn(msg.text), String(100000 + i));
    }
  });

  test('close() waits for mail in flight, then refuses new sends', async () => {
    const mailer = createMailer({ smtpUrl: peer.url, from: FROM, outboxDir: scratch, log: recordingLog() });
    const sending = mailer.send({ to: 'inflight@close.test', subject: 'in flight', text: 'x' });
    await mailer.close();
    await sending;
    assert.ok(peer.messages.some((m) => m.to[0] === 'inflight@close.test'));
    await assert.rejects(mailer.send({ to: 'late@close.test', subject: 's', text: 't' }), /closed/);
    await mailer.close(); // idempotent
  });

  test('a rejected recipient is a clear, permanent MailSendError', async () => {
    const strict = await startSmtpPeer({ rejectRecipients: ['nobody@reject.test'] });
    try {
      const mailer = createMailer({ smtpUrl: strict.url, from: FROM, outboxDir: scratch, log: recordingLog() });
      const err = await mailer.send({ to: 'nobody@reject.test', subject: 's', text: 't' }).then(
        () => assert.fail('send should fail'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof MailSendError);
      assert.match(err.message, new RegExp(`sending mail via smtp://127\\.0\\.0\\.1:${strict.port} failed`));
      assert.equal(err.responseCode, 550);
      assert.equal(err.permanent, true);
      // Loggers print an error's message and its causes: neither names the recipient.
      assert.doesNotMatch(`${err.message} ${err.stack} ${String(err.cause)}`, /nobody@reject\.test/);
      assert.match(err.message, /<address>|failed/);
      await mailer.close();
      assert.equal(strict.messages.length, 0);
    } finally {
      await strict.close();
    }
  });
});

describe('SMTP mailer failures and configuration', () => {
  test('connection refused is a MailSendError naming the server but not the password', async () => {
    const port = await closedPort();
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:hunter2@127.0.0.1:${port}`,
      from: FROM,
      outboxDir: scratch,
      log: recordingLog(),
    });
    const err = await mailer.send({ to: 'a@b.test', subject: 's', text: 't' }).then(
      () => assert.fail('send should fail'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof MailSendError);
    assert.match(err.message, new RegExp(`^sending mail via smtp://127\\.0\\.0\\.1:${port} failed: `));
    assert.ok(!err.message.includes('hunter2'));
    assert.equal(err.permanent, false);
    assert.ok(err.cause instanceof Error);
    await mailer.close();
  });

  test('smtps:// (implicit TLS) works', async () => {
    const tlsPeer = await startSmtpPeer({ secure: true });
    try {
      assert.match(tlsPeer.url, /^smtps:\/\//);
      const mailer = createMailer({ smtpUrl: tlsPeer.url, from: FROM, outboxDir: scratch, log: recordingLog() });
      const { subject, text } = signInMail('55512345', { minutes: 5 });
      await mailer.send({ to: 'tls@acme-corp.com', subject, text });
      await mailer.close();
      const msg = await tlsPeer.waitFor();
      assert.equal(codeIn(msg.text), '55512345');
    } finally {
      await tlsPeer.close();
    }
  });

  test('bad configuration and bad messages are refused up front', async () => {
    const log = recordingLog();
    for (const smtpUrl of ['http://mail.example.com', 'not a url', 'smtp://']) {
      assert.throws(() => createMailer({ smtpUrl, from: FROM, outboxDir: scratch, log }), TypeError, smtpUrl);
    }
    assert.throws(
      () => createMailer({ smtpUrl: 'https://u:hunter2@x.test', from: FROM, outboxDir: scratch, log }),
      (e: Error) => !e.message.includes('hunter2'),
    );
    assert.throws(() => createMailer({ from: '', outboxDir: scratch, log }), TypeError);
    assert.throws(() => createMailer({ from: 'a@b.test\r\nBcc: x@y.test', outboxDir: scratch, log }), TypeError);

    const mailer = createMailer({ from: FROM, outboxDir: join(scratch, 'bad-msgs'), log });
    for (const to of ['', 'a@b.test, c@d.test', 'Alice <a@b.test>', 'a@b.test\r\nBcc: c@d.test', 'nobody']) {
      await assert.rejects(mailer.send({ to, subject: 's', text: 't' }), TypeError, JSON.stringify(to));
    }
    await assert.rejects(mailer.send({ to: 'a@b.test', subject: 'x\r\nBcc: c@d.test', text: 't' }), TypeError);
    await mailer.close();
    assert.equal(log.entries.length, 0);
  });
});

describe('outbox mailer (no SMTP URL)', () => {
  test('writes a real .eml file atomically into a new directory and logs its path', async () => {
    const log = recordingLog();
    const outboxDir = join(scratch, 'data', 'outbox'); // does not exist yet
    const mailer = createMailer({ from: FROM, outboxDir, log });
    const { subject, text } = signInMail('019283', { minutes: 10 });
    await mailer.send({ to: 'bob@acme-corp.com', subject, text });
    await mailer.close();

    const files = await readdir(outboxDir);
    assert.equal(files.length, 1, `files: ${files.join(', ')}`); // no temp file left behind
    const name = files[0]!;
    assert.match(name, /^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{12}\.eml$/);
    const path = join(outboxDir, name);

    assert.equal(log.entries.length, 1);
    assert.equal(log.entries[0]!.msg, 'mail written to outbox');
    assert.equal(log.entries[0]!.obj['path'], path);
    assert.doesNotMatch(JSON.stringify(log.entries), /bob@/, 'the recipient is never logged');

    const raw = await readFile(path, 'utf8');
    assert.match(raw, /\r\n\r\n/); // CRLF line ends, as RFC 5322 wants
    assert.doesNotMatch(raw, /[^\r]\n/);
    const parsed = parseMessage(raw);
    assert.equal(parsed.headers['to'], 'bob@acme-corp.com');
    assert.equal(parsed.headers['from'], FROM_HEADER);
    assert.equal(parsed.headers['mime-version'], '1.0');
    assert.match(parsed.headers['content-type'] ?? '', /^text\/plain/);
    assert.match(parsed.headers['message-id'] ?? '', /^<.+@.+>$/);
    assert.ok(!Number.isNaN(Date.parse(parsed.headers['date'] ?? '')));
    assert.equal(parsed.subject, subject);
    assert.equal(codeIn(parsed.text), '019283');
    assert.equal(parsed.text, text);

    const st = await stat(path);
    assert.equal(st.mode & 0o777, 0o600);
  });

  test('each mail gets its own file; non-ASCII content round-trips', async () => {
    const outboxDir = join(scratch, 'outbox-many');
    const mailer = createMailer({ from: FROM, outboxDir, log: recordingLog() });
    const subject = 'Código de acceso: 123987 — ñ';
    await Promise.all([
      mailer.send({ to: 'a@acme-corp.com', subject, text: 'uno\nCódigo 123987\n' }),
      mailer.send({ to: 'b@acme-corp.com', subject: 'second', text: 'dos' }),
      mailer.send({ to: 'c@acme-corp.com', subject: 'third', text: 'tres' }),
    ]);
    await mailer.close();
    const files = (await readdir(outboxDir)).sort();
    assert.equal(files.length, 3);
    const parsed = await Promise.all(files.map(async (f) => parseMessage(await readFile(join(outboxDir, f), 'utf8'))));
    const first = parsed.find((p) => p.headers['to'] === 'a@acme-corp.com');
    assert.ok(first);
    assert.equal(first.subject, subject);
    assert.equal(first.text, 'uno\nCódigo 123987\n');
    assert.deepEqual(parsed.map((p) => p.headers['to']).sort(), [
      'a@acme-corp.com',
      'b@acme-corp.com',
      'c@acme-corp.com',
    ]);
  });

  test('an unusable outbox directory fails the send and leaves nothing behind', async () => {
    const file = join(scratch, 'not-a-dir');
    await writeFile(file, 'x');
    const log = recordingLog();
    const mailer = createMailer({ from: FROM, outboxDir: join(file, 'outbox'), log });
    await assert.rejects(mailer.send({ to: 'a@acme-corp.com', subject: 's', text: 't' }), { code: 'ENOTDIR' });
    await mailer.close();
    assert.equal(log.entries.length, 0);
  });
});
