import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { describe, test } from 'node:test';
import { decodeWords, parseMessage, startSmtpPeer } from './smtp-peer.ts';

/** Speaks SMTP by hand, so the peer is tested without nodemailer. */
async function rawSmtp(port: number, lines: string[]): Promise<string> {
  const sock = createConnection({ host: '127.0.0.1', port });
  sock.setEncoding('utf8');
  let buf = '';
  const waitReply = () =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(buf);
        if (m) {
          sock.off('data', onData);
          const reply = buf;
          buf = '';
          resolve(reply);
        }
      };
      const onData = (d: string) => {
        buf += d;
        check();
      };
      sock.on('data', onData);
      sock.once('error', reject);
      check();
    });
  let transcript = await waitReply();
  for (const line of lines) {
    sock.write(`${line}\r\n`);
    transcript += await waitReply();
  }
  sock.end();
  return transcript;
}

describe('parseMessage', () => {
  test('unfolds headers, decodes RFC 2047 words (Q and B, adjacent words joined)', () => {
    assert.equal(decodeWords('=?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus?= =?utf-8?B?TcO8bmNoZW4=?= !'), 'Grüße ausMünchen !');
    assert.equal(decodeWords('plain text'), 'plain text');
    assert.equal(decodeWords('=?ISO-8859-1?Q?caf=E9?='), 'café');
    const raw =
      'Subject: =?UTF-8?Q?Code_123456_f=C3=BCr?=\r\n =?UTF-8?Q?_dich?=\r\nTo: a@b.test,\r\n\tc@d.test\r\n\r\nbody\r\n';
    const p = parseMessage(raw);
    assert.equal(p.subject, 'Code 123456 für dich');
    assert.equal(p.headers['to'], 'a@b.test, c@d.test');
    assert.equal(p.text, 'body\n');
  });

  test('quoted-printable and base64 bodies', () => {
    const qp = parseMessage(
      'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nGr=C3=BC=C3=9Fe, a long =\r\nline=20\r\nCode: 123456\r\n',
    );
    assert.equal(qp.text, 'Grüße, a long line \nCode: 123456\n');
    const b64 = parseMessage(
      `Content-Type: text/plain; charset="UTF-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from(
        'Código: 654321\n',
      )
        .toString('base64')
        .replace(/(.{8})/g, '$1\r\n')}\r\n`,
    );
    assert.equal(b64.text, 'Código: 654321\n');
  });

  test('multipart: takes the first text/plain part', () => {
    const raw = [
      'Content-Type: multipart/alternative; boundary="--b1"',
      '',
      'preamble',
      '----b1',
      'Content-Type: text/html',
      '',
      '<p>html 111111</p>',
      '----b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'plain =E2=9C=93 222222',
      '----b1--',
      '',
    ].join('\r\n');
    assert.equal(parseMessage(raw).text, 'plain ✓ 222222');
  });
});

describe('startSmtpPeer', () => {
  test('receives a hand-written SMTP session; waitFor sees past and future mail', async () => {
    const peer = await startSmtpPeer();
    try {
      assert.match(peer.url, /^smtp:\/\/127\.0\.0\.1:\d+$/);
      const pending = peer.waitFor((m) => m.subject === 'second', 5000);
      for (const subject of ['first', 'second']) {
        const transcript = await rawSmtp(peer.port, [
          'EHLO client.test',
          'MAIL FROM:<sender@a.test>',
          'RCPT TO:<x@b.test>',
          'RCPT TO:<y@b.test>',
          'DATA',
          `From: sender@a.test\r\nTo: x@b.test\r\nSubject: ${subject}\r\n\r\n..dot-stuffed line\r\ncode 777888\r\n.`,
          'QUIT',
        ]);
        assert.match(transcript, /250 OK: message queued|250 .*queued/i);
      }
      const second = await pending;
      assert.deepEqual(second.to, ['x@b.test', 'y@b.test']);
      assert.equal(second.from, 'sender@a.test');
      assert.equal(second.text, '.dot-stuffed line\ncode 777888\n');
      const first = await peer.waitFor((m) => m.subject === 'first', 10);
      assert.equal(first.headers['to'], 'x@b.test');
      assert.equal(peer.messages.length, 2);
      assert.match(second.raw, /^From: sender@a\.test\r\n/);
    } finally {
      await peer.close();
    }
  });

  test('waitFor rejects with a useful message on timeout; close is idempotent', async () => {
    const peer = await startSmtpPeer();
    await assert.rejects(
      peer.waitFor((m) => m.subject === 'never', 50),
      /no matching mail within 50 ms \(0 received/,
    );
    await peer.close();
    await peer.close();
  });
});
