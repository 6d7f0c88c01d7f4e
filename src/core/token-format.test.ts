import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import {
  BASE62_ALPHABET,
  CHECKSUM_LENGTH,
  checksum,
  hashSecret,
  newToken,
  parseToken,
  RANDOM_LENGTH,
  randomBase62,
  safeEqual,
  TOKEN_PREFIXES,
  type TokenPrefix,
} from './token-format.ts';

const prefixArb = fc.constantFrom<TokenPrefix>(...TOKEN_PREFIXES);
const base62Char = fc.constantFrom(...BASE62_ALPHABET.split(''));
const TOKEN_RE = /^(svc_live_|svc_ingress_)[0-9A-Za-z]{36}$/;

function base62ToNumber(s: string): number {
  let n = 0;
  for (const c of s) n = n * 62 + BASE62_ALPHABET.indexOf(c);
  return n;
}

describe('newToken', () => {
  test('shape: prefix + 30 random + 6 checksum, 45 chars for svc_live_', () => {
    const t = newToken('svc_live_');
    assert.equal(t.token.length, 45);
    assert.match(t.token, TOKEN_RE);
    assert.equal(newToken('svc_ingress_').token.length, 'svc_ingress_'.length + 36);
  });

  test('checksum is base62 big-endian CRC32 of the random part, zero-padded', () => {
    for (let i = 0; i < 200; i++) {
      const { token } = newToken('svc_live_');
      const random = token.slice(9, 9 + RANDOM_LENGTH);
      const sum = token.slice(9 + RANDOM_LENGTH);
      assert.equal(sum.length, CHECKSUM_LENGTH);
      assert.equal(base62ToNumber(sum), crc32(random) >>> 0);
    }
    // Known values: padding and big-endian order.
    assert.equal(checksum(''), '000000'); // crc32('') = 0
    assert.equal(base62ToNumber(checksum('hello')), 907060870);
  });

  test('hash is SHA-256 of the whole token; displayPrefix is prefix + 4 random chars', () => {
    const t = newToken('svc_live_');
    assert.ok(Buffer.isBuffer(t.hash));
    assert.deepEqual(t.hash, createHash('sha256').update(t.token).digest());
    assert.equal(t.displayPrefix, t.token.slice(0, 13));
    assert.match(t.displayPrefix, /^svc_live_[0-9A-Za-z]{4}$/);
    assert.ok(!t.displayPrefix.includes(t.token.slice(13)));
  });

  test('rejects an unknown prefix at runtime', () => {
    assert.throws(() => newToken('svc_test_' as TokenPrefix), TypeError);
  });
});

describe('parseToken', () => {
  test('round trip (property)', () => {
    fc.assert(
      fc.property(prefixArb, (prefix) => {
        const t = newToken(prefix);
        const p = parseToken(t.token);
        assert.ok(p);
        assert.equal(p.prefix, prefix);
        assert.deepEqual(p.hash, t.hash);
      }),
      { numRuns: 500 },
    );
  });

  test('any single-character substitution is rejected (exhaustive for a few tokens)', () => {
    for (const prefix of TOKEN_PREFIXES) {
      for (let k = 0; k < 3; k++) {
        const { token } = newToken(prefix);
        for (let i = 0; i < token.length; i++) {
          for (const c of BASE62_ALPHABET + '_') {
            if (c === token[i]) continue;
            const mutated = token.slice(0, i) + c + token.slice(i + 1);
            assert.equal(parseToken(mutated), null, `accepted ${mutated}`);
          }
        }
      }
    }
  });

  test('single-character substitution is rejected (property)', () => {
    fc.assert(
      fc.property(prefixArb, fc.nat(), base62Char, (prefix, pos, c) => {
        const { token } = newToken(prefix);
        const i = prefix.length + (pos % (RANDOM_LENGTH + CHECKSUM_LENGTH));
        fc.pre(token[i] !== c);
        const mutated = token.slice(0, i) + c + token.slice(i + 1);
        assert.equal(parseToken(mutated), null);
      }),
      { numRuns: 5000 },
    );
  });

  test('swapping two adjacent differing chars is rejected (property)', () => {
    fc.assert(
      fc.property(prefixArb, fc.nat(), (prefix, pos) => {
        const { token } = newToken(prefix);
        const i = prefix.length + (pos % (RANDOM_LENGTH + CHECKSUM_LENGTH - 1));
        fc.pre(token[i] !== token[i + 1]);
        const swapped = token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2);
        assert.equal(parseToken(swapped), null);
      }),
      { numRuns: 2000 },
    );
  });

  test('random well-formed-looking strings almost never pass the checksum', () => {
    let passed = 0;
    fc.assert(
      fc.property(prefixArb, fc.string({ unit: base62Char, minLength: 36, maxLength: 36 }), (prefix, body) => {
        if (parseToken(prefix + body) !== null) passed++;
      }),
      { numRuns: 20000 },
    );
    // A random body passes only if its last 6 chars equal the checksum: 62^-6 ≈ 1.8e-11.
    assert.equal(passed, 0);
  });

  test('wrong prefix, length or alphabet is rejected', () => {
    const { token } = newToken('svc_live_');
    const body = token.slice('svc_live_'.length);
    const bad: unknown[] = [
      '',
      body,
      `svc_test_${body}`,
      `SVC_LIVE_${body}`,
      `svc_live${body}`,
      `svc_ingress_${body.slice(3)}`, // ingress prefix, too short
      token.slice(0, -1),
      `${token}0`,
      ` ${token}`,
      `${token} `,
      `${token}\n`,
      `${token.slice(0, 20)}-${token.slice(21)}`,
      `${token.slice(0, 20)}é${token.slice(21)}`,
      `${token.slice(0, 20)}_${token.slice(21)}`,
      token.toUpperCase(),
      undefined,
      null,
      42,
      { token },
    ];
    for (const s of bad) assert.equal(parseToken(s), null, `accepted ${JSON.stringify(s)}`);
    assert.ok(parseToken(token));
  });

  test('arbitrary strings never throw and only well-formed ones pass (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (s) => {
        const p = parseToken(s);
        if (p !== null) assert.match(s, TOKEN_RE);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('randomness', () => {
  test('≥ 128 bits of entropy by construction', () => {
    assert.equal(BASE62_ALPHABET.length, 62);
    assert.equal(new Set(BASE62_ALPHABET).size, 62);
    assert.ok(RANDOM_LENGTH * Math.log2(62) >= 128);
  });

  test('no collisions among 50k tokens', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) seen.add(newToken('svc_live_').token);
    assert.equal(seen.size, 50_000);
  });

  test('rejection sampling: bytes >= 248 are discarded, not folded', () => {
    // Feed bytes 248..255 (would map to '0'..'7' with a plain modulo) then 61, 0.
    let call = 0;
    const source = (n: number): Buffer => {
      call++;
      return call === 1 ? Buffer.from([248, 249, 250, 251, 252, 253, 254, 255]) : Buffer.alloc(n, 61);
    };
    assert.equal(randomBase62(3, source), 'zzz');
    assert.equal(
      randomBase62(4, () => Buffer.from([0, 61, 62, 247])),
      '0z0z',
    );
  });

  test('character distribution is uniform (chi-square) overall and per position', () => {
    const N = 20_000;
    const counts = new Array<number>(62).fill(0);
    const first = new Array<number>(62).fill(0);
    for (let i = 0; i < N; i++) {
      const random = newToken('svc_live_').token.slice(9, 9 + RANDOM_LENGTH);
      for (let j = 0; j < random.length; j++) {
        const idx = BASE62_ALPHABET.indexOf(random[j]!);
        counts[idx]!++;
        if (j === 0) first[idx]!++;
      }
    }
    const chi2 = (obs: number[], total: number) => {
      const e = total / obs.length;
      return obs.reduce((s, o) => s + (o - e) ** 2 / e, 0);
    };
    // 61 degrees of freedom: mean 61, P(chi2 > 125) ≈ 1e-6. A modulo-biased
    // generator ('0'..'7' 25% more likely) scores in the thousands here.
    assert.ok(chi2(counts, N * RANDOM_LENGTH) < 125, `overall chi2 ${chi2(counts, N * RANDOM_LENGTH)}`);
    assert.ok(chi2(first, N) < 125, `first-position chi2 ${chi2(first, N)}`);
  });
});

describe('hashSecret / safeEqual', () => {
  test('hashSecret is SHA-256 as a Buffer', () => {
    assert.deepEqual(hashSecret('abc'), createHash('sha256').update('abc').digest());
    assert.equal(hashSecret('').length, 32);
  });

  test('safeEqual agrees with === for any strings, including different lengths (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        assert.equal(safeEqual(a, b), a === b);
        assert.equal(safeEqual(a, a), true);
      }),
      { numRuns: 1000 },
    );
    assert.equal(safeEqual('123456', '1234567'), false);
    assert.equal(safeEqual('', ''), true);
  });
});
