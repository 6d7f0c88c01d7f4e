import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isPersonalDomain, isPublicSuffix, normalizeDomain, normalizeEmail } from './email-domains.ts';

describe('isPersonalDomain', () => {
  test('well-known personal providers are personal', () => {
    for (const d of [
      'gmail.com',
      'outlook.com',
      'proton.me',
      'gmx.de',
      'web.de',
      'yahoo.co.uk',
      'qq.com',
      'icloud.com',
    ]) {
      assert.equal(isPersonalDomain(d), true, d);
    }
  });

  test('subdomains of a listed domain are personal (walk up to yahoo.co.uk)', () => {
    assert.equal(isPersonalDomain('a.b.yahoo.co.uk'), true);
    assert.equal(isPersonalDomain('mx.gmail.com'), true);
  });

  test('disposable domains are personal, including one only the disposable list has', () => {
    const require = createRequire(import.meta.url);
    const providers = new Set<string>(require('email-providers/all.json'));
    assert.equal(providers.has('0-mail.com'), false); // proves the second list is used
    assert.equal(isPersonalDomain('0-mail.com'), true);
    assert.equal(isPersonalDomain('mailinator.com'), true);
    assert.equal(isPersonalDomain('10minutemail.com'), true);
  });

  test('corporate domains are not personal', () => {
    for (const d of ['acme-corp.com', 'bigbank.example', 'mail.acme-corp.com', 'stripe.com', 'acme.co.uk']) {
      assert.equal(isPersonalDomain(d), false, d);
    }
  });

  test('input is normalised: case, whitespace, trailing dot, IDN', () => {
    assert.equal(isPersonalDomain('  GMail.COM. '), true);
    assert.equal(isPersonalDomain('ｇｍａｉｌ.com'), true); // full-width, UTS #46 mapping
    assert.equal(isPersonalDomain('müll.email'), true); // listed in Unicode, matched as punycode
    assert.equal(isPersonalDomain('xn--mll-hoa.email'), true);
  });

  test('a bare public suffix never matches, even when a list carries it', () => {
    // `com.ar`, `net.ua` and `nom.za` appear in the lists; they are registries, not providers.
    for (const d of ['com.ar', 'net.ua', 'nom.za', 'co.uk', 'com']) assert.equal(isPersonalDomain(d), false, d);
    for (const d of ['shop.com.ar', 'acme.net.ua', 'firm.nom.za', 'x.y.acme.com.ar']) {
      assert.equal(isPersonalDomain(d), false, d);
    }
  });

  test('invalid domains are not personal (callers gate with normalizeEmail)', () => {
    for (const d of ['', '.', 'gmail', 'gmail..com', '-gmail.com', '1.2.3.4', 'gm ail.com']) {
      assert.equal(isPersonalDomain(d), false, JSON.stringify(d));
    }
  });

  test('isPublicSuffix heuristic', () => {
    for (const d of ['com', 'uk', 'co.uk', 'com.br', 'ac.jp', 'us.com']) assert.equal(isPublicSuffix(d), true, d);
    for (const d of ['web.de', 'go.ro', 'me.com', 'yahoo.co.uk', 'gmail.com'])
      assert.equal(isPublicSuffix(d), false, d);
  });
});

describe('normalizeEmail', () => {
  test('lowercases, trims and splits', () => {
    assert.deepEqual(normalizeEmail('  Alice.Smith+ledger@Acme-Corp.COM \n'), {
      email: 'alice.smith+ledger@acme-corp.com',
      domain: 'acme-corp.com',
    });
  });

  test('IDN domains become punycode; trailing dot removed', () => {
    assert.deepEqual(normalizeEmail('Bob@Bücher.DE'), { email: 'bob@xn--bcher-kva.de', domain: 'xn--bcher-kva.de' });
    assert.deepEqual(normalizeEmail('bob@bücher.de.'), { email: 'bob@xn--bcher-kva.de', domain: 'xn--bcher-kva.de' });
    assert.deepEqual(normalizeEmail('bob@example。com'), { email: 'bob@example.com', domain: 'example.com' });
  });

  test('rejects malformed addresses', () => {
    const bad = [
      '',
      'alice',
      '@acme.com',
      'alice@',
      'alice@acme',
      'alice@acme..com',
      'alice@acme.com..',
      'alice@-acme.com',
      'alice@acme_corp.com',
      'alice@[10.0.0.1]',
      'alice@10.0.0.1',
      'al ice@acme.com',
      'alice@@acme.com',
      '.alice@acme.com',
      'alice.@acme.com',
      'al..ice@acme.com',
      '"alice"@acme.com',
      'alice@acme.com\r\nBcc: x@y.com',
      'a,b@acme.com',
      'alice<x>@acme.com',
      'jörg@acme.com',
      `${'a'.repeat(65)}@acme.com`,
      `a@${'b'.repeat(64)}.com`,
      'alice@xn--zz.de',
    ];
    for (const s of bad) assert.equal(normalizeEmail(s), null, JSON.stringify(s));
  });

  test('non-string input is rejected, not thrown on', () => {
    assert.equal(normalizeEmail(undefined as unknown as string), null);
    assert.equal(normalizeDomain(42 as unknown as string), null);
  });

  test('normalisation is idempotent (property)', () => {
    const localChar = fc.constantFrom(...'abcXYZ019.+-_'.split(''));
    const label = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9]([A-Za-z0-9-]{0,10}[A-Za-z0-9])?$/),
      fc.constantFrom('bücher', 'MÜNCHEN', 'ｇｍａｉｌ', 'пример', '例え', 'xn--bcher-kva', 'straße'),
    );
    const email = fc
      .tuple(
        fc.string({ unit: localChar, minLength: 1, maxLength: 20 }),
        fc.array(label, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('com', 'DE', 'co.uk', 'org', 'рф'),
        fc.constantFrom('', '.', ' ', '\t'),
      )
      .map(([local, labels, tld, tail]) => `${local}@${[...labels, tld].join('.')}${tail}`);
    const arb = fc.oneof(email, fc.string(), fc.string({ unit: 'grapheme' }));
    let valid = 0;
    fc.assert(
      fc.property(arb, (s) => {
        const once = normalizeEmail(s);
        if (once === null) return;
        valid++;
        assert.deepEqual(normalizeEmail(once.email), once);
        assert.equal(normalizeDomain(once.domain), once.domain);
        assert.equal(once.email, once.email.toLowerCase());
        assert.ok(once.email.endsWith(`@${once.domain}`));
        assert.match(once.domain, /^[a-z0-9.-]+$/);
      }),
      { numRuns: 3000 },
    );
    assert.ok(valid > 500, `only ${valid} valid samples`); // the generator exercises the valid path
  });
});
