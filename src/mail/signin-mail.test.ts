import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { signInMail } from './signin-mail.ts';

describe('signInMail', () => {
  test('subject and body hold the code plainly; expiry and "ignore" advice present', () => {
    const { subject, text } = signInMail('048213', { minutes: 10 });
    assert.equal(subject, 'Your agent-ledger sign-in code: 048213');
    assert.match(text, /^Your agent-ledger sign-in code is: 048213$/m);
    assert.match(text, /expires in 10 minutes/);
    assert.match(text, /did not ask to sign in, you can ignore this message/);
    assert.ok(!subject.includes('\n'));
    // Short enough that mail clients show it whole and the code never wraps.
    for (const line of text.split('\n')) assert.ok(line.length <= 76, line);
  });

  test('publicUrl is shown as its origin only', () => {
    const { text } = signInMail('123456', { minutes: 15, publicUrl: 'https://ledger.example.com/app?x=1' });
    assert.match(text, /sign-in page at https:\/\/ledger\.example\.com$/m);
    assert.ok(!text.includes('?x=1'));
    assert.ok(!signInMail('123456', { minutes: 15 }).text.includes('http'));
  });

  test('singular minute', () => {
    assert.match(signInMail('123456', { minutes: 1 }).text, /expires in 1 minute and/);
  });

  test('refuses bad input', () => {
    for (const code of ['', '12345', '12345a', ' 123456', '123 456', '１２３４５６']) {
      assert.throws(() => signInMail(code, { minutes: 10 }), TypeError, JSON.stringify(code));
    }
    for (const minutes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => signInMail('123456', { minutes }), TypeError, String(minutes));
    }
    for (const publicUrl of ['not a url', 'javascript:alert(1)', 'ftp://x.test']) {
      assert.throws(() => signInMail('123456', { minutes: 10, publicUrl }), TypeError, publicUrl);
    }
  });

  test('a reader finds exactly the code in subject and body (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{6,10}$/), fc.integer({ min: 1, max: 60 }), (code, minutes) => {
        const { subject, text } = signInMail(code, { minutes, publicUrl: 'https://ledger.example.com' });
        const numbers = (s: string) => s.match(/\b\d{6,}\b/g) ?? [];
        assert.deepEqual(numbers(subject), [code]);
        assert.deepEqual(numbers(text), [code]);
      }),
    );
  });
});
