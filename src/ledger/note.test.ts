import assert from 'node:assert/strict';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  formatCheckpoint,
  formatSignerKey,
  formatVerifierKey,
  generateSignerKey,
  keyId,
  NoteError,
  type NoteErrorCode,
  openCheckpoint,
  openNote,
  parseCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  signCheckpoint,
  signerKeyFromSeed,
  signNote,
  verifierKeyFor,
} from './note.ts';

const throwsCode = (fn: () => unknown, code: NoteErrorCode): void => {
  assert.throws(fn, (err: unknown) => err instanceof NoteError && err.code === code, `expected ${code}`);
};

// The example of golang.org/x/mod/sumdb/note's documentation and tests.
const PETER = {
  signer: 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz',
  verifier: 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
  text: "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n",
  note:
    "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n" +
    '\n' +
    '\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n',
};

describe('note: the Go note package example', () => {
  it('opens the documented signed note with the documented verifier key', () => {
    const opened = openNote(PETER.note, [parseVerifierKey(PETER.verifier)]);
    assert.equal(opened.text, PETER.text);
    assert.deepEqual(opened.verified, [{ name: 'PeterNeumann', keyId: 0xc74f20a3 }]);
    assert.deepEqual(opened.unverified, []);
  });

  it('signs the documented text to the documented bytes (Ed25519 is deterministic)', () => {
    const signer = parseSignerKey(PETER.signer);
    assert.equal(signNote(PETER.text, signer, 'PeterNeumann'), PETER.note);
    assert.equal(formatSignerKey(signer), PETER.signer);
    assert.equal(formatVerifierKey(verifierKeyFor(signer, 'PeterNeumann')), PETER.verifier);
    assert.equal(formatVerifierKey(parseVerifierKey(PETER.verifier)), PETER.verifier);
  });
});

describe('note: a vector recomputed from the spec, step by step', () => {
  // RFC 8032 §7.1 test 1: this seed's public key is d75a9801….
  const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
  const publicKey = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
  const name = 'agent-ledger.local/0b7c5a8e-3c1f-4c8e-9d2a-5f6e7a8b9c0d';
  const signer = signerKeyFromSeed(name, seed);
  const text = `${name}\n42\n${Buffer.alloc(32, 7).toString('base64')}\n`;

  it('derives the RFC 8032 public key from the seed', () => {
    assert.equal(Buffer.from(signer.publicKey).toString('hex'), publicKey);
  });

  it('key id = SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[:4]', () => {
    const digest = createHash('sha256')
      .update(Buffer.concat([Buffer.from(name, 'utf8'), Buffer.from([0x0a, 0x01]), Buffer.from(publicKey, 'hex')]))
      .digest();
    assert.equal(keyId(name, signer.publicKey), digest.readUInt32BE(0));
    const hex8 = digest.subarray(0, 4).toString('hex');
    const typed = Buffer.concat([Buffer.from([0x01]), Buffer.from(publicKey, 'hex')]).toString('base64');
    assert.equal(formatVerifierKey(verifierKeyFor(signer, name)), `${name}+${hex8}+${typed}`);
    const typedSeed = Buffer.concat([Buffer.from([0x01]), seed]).toString('base64');
    assert.equal(formatSignerKey(signer), `PRIVATE+KEY+${name}+${hex8}+${typedSeed}`);
  });

  it('signature line = em dash, space, name, space, base64(key id ‖ Ed25519(text)), newline', () => {
    const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
    const signature = sign(
      null,
      Buffer.from(text, 'utf8'),
      createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
    );
    const id = createHash('sha256')
      .update(Buffer.concat([Buffer.from(`${name}\n\x01`, 'utf8'), Buffer.from(publicKey, 'hex')]))
      .digest()
      .subarray(0, 4);
    const expected = Buffer.concat([
      Buffer.from(text, 'utf8'),
      Buffer.from([0x0a]),
      Buffer.from([0xe2, 0x80, 0x94, 0x20]), // U+2014 in UTF-8, then a space
      Buffer.from(`${name} ${Buffer.concat([id, signature]).toString('base64')}\n`, 'utf8'),
    ]);
    assert.deepEqual(Buffer.from(signNote(text, signer, name), 'utf8'), expected);
  });
});

describe('note: signing and opening', () => {
  const alice = generateSignerKey('alice.example/log');
  const aliceKey = verifierKeyFor(alice, 'alice.example/log');
  const bob = generateSignerKey('bob.example/witness');
  const bobKey = verifierKeyFor(bob, 'bob.example/witness');
  const text = 'line one\n\nline three, after a blank line\n';
  const signed = signNote(text, alice, 'alice.example/log');

  it('round-trips keys through their strings', () => {
    const again = parseSignerKey(formatSignerKey(alice));
    assert.deepEqual(again, alice);
    assert.deepEqual(parseVerifierKey(formatVerifierKey(aliceKey)), aliceKey);
  });

  it('opens what it signed, even with blank lines in the text', () => {
    const opened = openNote(signed, [bobKey, aliceKey]);
    assert.equal(opened.text, text);
    assert.deepEqual(opened.verified, [{ name: 'alice.example/log', keyId: aliceKey.keyId }]);
  });

  it('round-trips any text', () => {
    const line = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !/[\u0000-\u001f]/.test(s));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), (lines) => {
        const body = `${lines.join('\n')}\n`;
        assert.equal(openNote(signNote(body, alice, 'alice.example/log'), [aliceKey]).text, body);
      }),
      { numRuns: 50 },
    );
  });

  it('ignores signatures by unknown keys but needs one known key', () => {
    const cosigned = `${signed}${signNote(text, bob, 'bob.example/witness').slice(text.length + 1)}`;
    const opened = openNote(cosigned, [aliceKey]);
    assert.deepEqual(opened.verified, [{ name: 'alice.example/log', keyId: aliceKey.keyId }]);
    assert.deepEqual(opened.unverified, [{ name: 'bob.example/witness', keyId: bobKey.keyId }]);
    assert.equal(openNote(cosigned, [aliceKey, bobKey]).verified.length, 2);
    throwsCode(() => openNote(signed, [bobKey]), 'unverified_note');
    throwsCode(() => openNote(signed, []), 'unverified_note');
  });

  it('treats a same-name key with another id, or another name with the same id, as unknown', () => {
    const otherKeySameName = verifierKeyFor(bob, 'alice.example/log');
    throwsCode(() => openNote(signed, [otherKeySameName]), 'unverified_note');
    const sameIdOtherName = { ...aliceKey, name: 'mallory.example' };
    throwsCode(() => openNote(signed, [sameIdOtherName]), 'unverified_note');
  });

  it('rejects a known key whose signature does not verify', () => {
    const impostor = { ...aliceKey, publicKey: bob.publicKey }; // same name and id, other key
    throwsCode(() => openNote(signed, [impostor]), 'invalid_signature');
    throwsCode(() => openNote(signed, [aliceKey, impostor]), 'ambiguous_key');
  });

  it('rejects a tampered body', () => {
    throwsCode(() => openNote(signed.replace('line one', 'line 1'), [aliceKey]), 'invalid_signature');
    throwsCode(() => openNote(`extra\n${signed}`, [aliceKey]), 'invalid_signature');
  });

  it('rejects a tampered signature at any byte', () => {
    const [, base64] = /— \S+ (\S+)\n$/.exec(signed)!;
    const bytes = Buffer.from(base64!, 'base64');
    for (let i = 4; i < bytes.length; i++) {
      const bad = Buffer.from(bytes);
      bad[i]! ^= 0x01;
      throwsCode(() => openNote(signed.replace(base64!, bad.toString('base64')), [aliceKey]), 'invalid_signature');
    }
    // A changed key id names a key we do not know.
    const badId = Buffer.from(bytes);
    badId[0]! ^= 0x01;
    throwsCode(() => openNote(signed.replace(base64!, badId.toString('base64')), [aliceKey]), 'unverified_note');
  });

  it('wants exactly an em dash and a space before the key name', () => {
    // Hyphen, en dash, horizontal bar, two em dashes, no-break space, no space.
    for (const prefix of ['- ', '\u2013 ', '\u2015 ', '\u2014\u2014 ', '\u2014\u00a0', '\u2014']) {
      throwsCode(() => openNote(signed.replace('\u2014 ', prefix), [aliceKey]), 'malformed_note');
    }
  });

  it('rejects malformed notes', () => {
    const [sigLine] = signed.slice(text.length + 1).split('\n');
    const cases = {
      'no blank line': `${text}${sigLine}\n`,
      'no final newline': signed.slice(0, -1),
      'nothing after the blank line': `${text}\n`,
      'a stray line among signatures': `${signed}not a signature\n`,
      'a control character': signed.replace('line one', 'line\tone'),
      'a carriage return': signed.replace('line one\n', 'line one\r\n'),
      'a lone surrogate': signed.replace('line one', 'line \ud800'),
      'non-canonical base64': signed.replace(/=\n$/, '\n'),
      'a space in the base64': signed.replace(/(— \S+ \S{10})/, '$1 '),
      'an empty key name': signed.replace('— alice.example/log ', '—  '),
      'a signature of 4 bytes': `${text}\n— alice.example/log AAAAAA==\n`,
      'over 100 signatures': `${text}\n${`${sigLine}\n`.repeat(101)}`,
    };
    for (const [what, message] of Object.entries(cases)) {
      assert.throws(
        () => openNote(message, [aliceKey]),
        (err: unknown) => err instanceof NoteError && err.code === 'malformed_note',
        what,
      );
    }
  });

  it('counts a repeated signature once', () => {
    const [sigLine] = signed.slice(text.length + 1).split('\n');
    const opened = openNote(`${signed}${sigLine}\n`, [aliceKey]);
    assert.equal(opened.verified.length, 1);
  });

  it('refuses to sign what it could not open', () => {
    throwsCode(() => signNote('no newline', alice, 'alice.example/log'), 'malformed_note');
    throwsCode(() => signNote('tab\there\n', alice, 'alice.example/log'), 'malformed_note');
    throwsCode(() => signNote('ok\n', alice, 'has space'), 'malformed_note');
    throwsCode(() => signNote('ok\n', alice, 'has+plus'), 'malformed_note');
    throwsCode(() => signNote('ok\n', alice, ''), 'malformed_note');
  });
});

describe('note: key strings', () => {
  it('rejects malformed verifier keys', () => {
    const good = PETER.verifier;
    for (const bad of [
      '',
      'PeterNeumann',
      'PeterNeumann+c74f20a3',
      'PeterNeumann+c74f20a+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10T',
      'PeterNeumann+c74f20a3+AhpcQcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      ' PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      `${good}=`,
    ]) {
      throwsCode(() => parseVerifierKey(bad), 'malformed_key');
    }
    throwsCode(() => parseVerifierKey(good.replace('c74f20a3', 'c74f20a4')), 'key_id_mismatch');
    throwsCode(() => parseVerifierKey(good.replace('PeterNeumann', 'PeterNeuman')), 'key_id_mismatch');
  });

  it('rejects malformed signer keys', () => {
    throwsCode(() => parseSignerKey(PETER.verifier), 'malformed_key');
    throwsCode(() => parseSignerKey(PETER.signer.replace('PRIVATE+KEY', 'PRIVATE+KEYS')), 'malformed_key');
    throwsCode(() => parseSignerKey(PETER.signer.replace('c74f20a3', '00000000')), 'key_id_mismatch');
    throwsCode(() => signerKeyFromSeed('x', new Uint8Array(31)), 'malformed_key');
  });

  it('gives one service key a different id under each log name', () => {
    const service = generateSignerKey('agent-ledger.local');
    const a = verifierKeyFor(service, 'agent-ledger.local/a');
    const b = verifierKeyFor(service, 'agent-ledger.local/b');
    assert.notEqual(a.keyId, b.keyId);
    assert.deepEqual(a.publicKey, b.publicKey);
  });
});

describe('note: checkpoints', () => {
  const origin = 'agent-ledger.local/3f0c2d7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
  const root = new Uint8Array(32).map((_, i) => i * 7);
  const service = generateSignerKey('agent-ledger.local');
  const verifier = verifierKeyFor(service, origin);

  it('formats origin, size and base64 root on three lines', () => {
    const body = formatCheckpoint({ origin, size: 1337, root });
    assert.equal(body, `${origin}\n1337\n${Buffer.from(root).toString('base64')}\n`);
    assert.deepEqual(parseCheckpoint(body), { origin, size: 1337, root });
  });

  it('signs with the key named by the origin and opens back', () => {
    const note = signCheckpoint({ origin, size: 0, root }, service);
    assert.ok(note.includes(`\n\n\u2014 ${origin} `));
    const { checkpoint } = openCheckpoint(note, [verifier]);
    assert.deepEqual(checkpoint, { origin, size: 0, root });
  });

  it('keeps extension lines', () => {
    const cp = { origin, size: 5, root, extensions: ['ext one', 'ext two'] };
    assert.deepEqual(openCheckpoint(signCheckpoint(cp, service), [verifier]).checkpoint, cp);
  });

  it('wants the signature of a key named by the origin', () => {
    const elsewhere = signNote(formatCheckpoint({ origin, size: 1, root }), service, 'agent-ledger.local');
    throwsCode(() => openCheckpoint(elsewhere, [verifierKeyFor(service, 'agent-ledger.local')]), 'unverified_note');
  });

  it('rejects malformed checkpoint bodies', () => {
    const r = Buffer.from(root).toString('base64');
    for (const body of [
      `${origin}\n1\n`,
      `${origin}\n01\n${r}\n`,
      `${origin}\n-1\n${r}\n`,
      `${origin}\n1.0\n${r}\n`,
      `${origin}\n 1\n${r}\n`,
      `${origin}\n9007199254740993\n${r}\n`,
      `${origin}\n1\n${r.slice(0, -4)}\n`,
      `${origin}\n1\n${r}`,
      `\n1\n${r}\n`,
      `${origin}\n1\n${r}\n\n`,
      `${origin}\n1\n${Buffer.alloc(31).toString('base64')}\n`,
    ]) {
      throwsCode(() => parseCheckpoint(body), 'malformed_checkpoint');
    }
    throwsCode(() => formatCheckpoint({ origin: 'a\nb', size: 1, root }), 'malformed_checkpoint');
    throwsCode(() => formatCheckpoint({ origin, size: -1, root }), 'malformed_checkpoint');
    throwsCode(() => formatCheckpoint({ origin, size: 1, root: root.subarray(1) }), 'malformed_checkpoint');
  });

  it('parses the C2SP example checkpoint body', () => {
    const body = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
    const cp = parseCheckpoint(body);
    assert.equal(cp.origin, 'example.com/behind-the-sofa');
    assert.equal(cp.size, 20852163);
    assert.equal(formatCheckpoint(cp), body);
  });
});
