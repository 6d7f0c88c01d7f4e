import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify as edVerify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { appendLeaves, consistencyProof, leafHash, type StoredNode } from '../ledger/merkle.ts';
import { formatCheckpoint, generateSignerKey, parseSignerKey, signCheckpoint, verifierKeyFor } from '../ledger/note.ts';
import { cosign, cosignerKeyOf, formatCosignerKey, parseCosignerKey, verifyCosignatures } from './cosignature.ts';
import { formatAddCheckpoint, SIZE_CONTENT_TYPE } from './protocol.ts';
import { startWitnessServer, type WitnessServer } from './server.ts';
import { WitnessStore } from './store.ts';
import { Witness } from './witness.ts';

// A vector computed with Python's `cryptography` package straight from the
// tlog-cosignature text (seed = SHA-256("agent-ledger witness test vector")),
// over the spec's own example checkpoint at the spec's example time.
const VECTOR = {
  signer: 'PRIVATE+KEY+witness.example/w1+06e69961+AbFcIBvXJ7Etb2qEduptYyx2uBNUDG2DUDGuhOgd9PKS',
  vkey: 'witness.example/w1+2da35354+BN9b2DpL8uoYsXirl7XwdOSj2Bjt0xpaJHGjsy1LBhBZ',
  text: 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n',
  time: 1679315147,
  line: '— witness.example/w1 LaNTVAAAAABkGFDLUr9NTWOOKyVcnidyjDwmR4U6eQHYFZfPqxJ6j9/4OQ+w9Kk+l0G00nSKnD50AuOQ6O/PrHo61+XBRnB8aXhKAw==\n',
};

/**
 * A cosignature verifier written from the spec alone, sharing no code with
 * cosignature.ts: key id from the vkey, u64 time, Ed25519 over the v1 message.
 */
function specVerify(noteText: string, line: string, vkey: string): number | null {
  const [name, hex, b64] = [vkey.slice(0, vkey.indexOf('+')), vkey.split('+')[1]!, vkey.split('+').slice(2).join('+')];
  const key = Buffer.from(b64, 'base64');
  if (key[0] !== 0x04) return null;
  const pub = key.subarray(1);
  const id = createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.from([0x04]))
    .update(pub)
    .digest()
    .subarray(0, 4);
  if (id.toString('hex') !== hex) return null;
  const m = /^— (\S+) (\S+)\n$/.exec(line);
  if (!m || m[1] !== name) return null;
  const raw = Buffer.from(m[2]!, 'base64');
  if (raw.length !== 76 || !raw.subarray(0, 4).equals(id)) return null;
  const time = raw.readBigUInt64BE(4);
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), pub]);
  const ok = edVerify(
    null,
    Buffer.from(`cosignature/v1\ntime ${time}\n${noteText}`),
    createPublicKey({ key: spki, format: 'der', type: 'spki' }),
    raw.subarray(12),
  );
  return ok ? Number(time) : null;
}

describe('cosignature/v1', () => {
  test('reproduces the independently computed vector byte for byte', () => {
    const signer = parseSignerKey(VECTOR.signer);
    assert.equal(formatCosignerKey(cosignerKeyOf(signer)), VECTOR.vkey);
    assert.equal(cosign(VECTOR.text, signer, 'witness.example/w1', VECTOR.time), VECTOR.line);
    const [c] = verifyCosignatures(`${VECTOR.text}\n${VECTOR.line}`, [parseCosignerKey(VECTOR.vkey)]);
    assert.equal(c?.time, VECTOR.time);
    assert.equal(specVerify(VECTOR.text, VECTOR.line, VECTOR.vkey), VECTOR.time);
  });

  test("the spec's example cosignature line has the v1 shape: key id, the example's time, 64-byte signature", () => {
    const raw = Buffer.from(
      'jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==',
      'base64',
    );
    assert.equal(raw.length, 4 + 8 + 64);
    assert.equal(raw.readBigUInt64BE(4), BigInt(VECTOR.time)); // "time 1679315147" in the spec's message example
  });

  test('a changed checkpoint, time or key fails; unknown witnesses are ignored', () => {
    const signer = parseSignerKey(VECTOR.signer);
    const key = parseCosignerKey(VECTOR.vkey);
    const altered = VECTOR.text.replace('20852163', '20852164');
    assert.throws(() => verifyCosignatures(`${altered}\n${VECTOR.line}`, [key]), /does not verify/);
    assert.equal(specVerify(altered, VECTOR.line, VECTOR.vkey), null);
    const other = cosignerKeyOf(generateSignerKey('witness.example/w1'));
    assert.deepEqual(verifyCosignatures(`${VECTOR.text}\n${VECTOR.line}`, [other]), []);
    // A type 0x01 note signature by the same key is not a cosignature.
    const v01 = formatCosignerKey(key).replace('+BN9b', '+AN9b');
    assert.throws(() => parseCosignerKey(v01), /type 0x04/);
    assert.notEqual(cosign(VECTOR.text, signer, 'witness.example/w1', VECTOR.time + 1), VECTOR.line);
  });
});

/** An in-memory log: leaves, every stored node, and signed checkpoints. */
class MemLog {
  nodes: StoredNode[] = [];
  size = 0;
  root: Uint8Array = new Uint8Array(32);
  readonly signer;
  constructor(signer = generateSignerKey('log.example/test')) {
    this.signer = signer;
  }
  grow(n: number): void {
    const hashes = Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`entry ${this.size + i}`)));
    const { nodes, root } = appendLeaves(this.size, hashes, this.nodes);
    this.nodes.push(...nodes);
    this.size += n;
    this.root = root;
  }
  checkpoint(): string {
    return signCheckpoint({ origin: this.signer.name, size: this.size, root: this.root }, this.signer);
  }
  proof(from: number): Uint8Array[] {
    return consistencyProof(from, this.size, this.nodes);
  }
}

describe('add-checkpoint (tlog-witness)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'witness-'));
  const servers: WitnessServer[] = [];
  after(async () => {
    for (const s of servers) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const witnessSigner = generateSignerKey('witness.test/w1');
  const wkey = cosignerKeyOf(witnessSigner);
  const log = new MemLog();
  const storePath = join(dir, 'state.json');
  const start = async (path = storePath) => {
    const w = new Witness({
      signer: witnessSigner,
      name: 'witness.test/w1',
      logs: [{ kind: 'exact', key: verifierKeyFor(log.signer, log.signer.name) }],
      store: new WitnessStore(path),
    });
    const s = await startWitnessServer(w, { host: '127.0.0.1', port: 0 });
    servers.push(s);
    return s;
  };
  const post = async (s: WitnessServer, body: string) => {
    const res = await fetch(`${s.url}/add-checkpoint`, { method: 'POST', body });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
  };

  test('cosigns a first checkpoint from old 0, then only consistent growth from the size it holds', async () => {
    const s = await start();
    log.grow(5);
    const first = log.checkpoint();
    const r1 = await post(s, formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: first }));
    assert.equal(r1.status, 200);
    const cosigned = verifyCosignatures(first + r1.body, [wkey]);
    assert.equal(cosigned.length, 1);
    assert.ok(Math.abs(cosigned[0]!.time - Date.now() / 1000) < 5);
    assert.notEqual(
      specVerify(
        formatCheckpoint({ origin: log.signer.name, size: 5, root: log.root }),
        r1.body,
        formatCosignerKey(wkey),
      ),
      null,
    );

    log.grow(300);
    // Behind: the client says 0, the witness holds 5.
    const behind = await post(s, formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: log.checkpoint() }));
    assert.deepEqual(behind, { status: 409, type: SIZE_CONTENT_TYPE, body: '5\n' });
    // A wrong proof: 422, and nothing is recorded.
    const bad = log.proof(5).map((h, i) => (i === 0 ? new Uint8Array(32) : h));
    assert.equal(
      (await post(s, formatAddCheckpoint({ oldSize: 5, proof: bad, checkpoint: log.checkpoint() }))).status,
      422,
    );
    const ok = await post(s, formatAddCheckpoint({ oldSize: 5, proof: log.proof(5), checkpoint: log.checkpoint() }));
    assert.equal(ok.status, 200);
    assert.equal(JSON.parse(readFileSync(storePath, 'utf8')).logs[log.signer.name].size, 305);
  });

  test('refuses unknown origins (404), foreign keys (403), old > new (400), a forked root at its size (409)', async () => {
    const s = await start();
    const stranger = new MemLog(generateSignerKey('other.example/log'));
    stranger.grow(2);
    assert.equal(
      (await post(s, formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: stranger.checkpoint() }))).status,
      404,
    );
    // Same origin, signed by someone else's key.
    const impostor = new MemLog(generateSignerKey(log.signer.name));
    impostor.grow(400);
    assert.equal(
      (
        await post(
          s,
          formatAddCheckpoint({ oldSize: 305, proof: impostor.proof(305), checkpoint: impostor.checkpoint() }),
        )
      ).status,
      403,
    );
    assert.equal(
      (await post(s, formatAddCheckpoint({ oldSize: 306, proof: [], checkpoint: log.checkpoint() }))).status,
      400,
    );
    // The real log's key, but a different tree of the size the witness holds: a fork.
    const forked = signCheckpoint({ origin: log.signer.name, size: 305, root: new Uint8Array(32).fill(7) }, log.signer);
    assert.deepEqual(await post(s, formatAddCheckpoint({ oldSize: 305, proof: [], checkpoint: forked })), {
      status: 409,
      type: SIZE_CONTENT_TYPE,
      body: '305\n',
    });
    assert.equal((await post(s, 'old 1\nnot base64!\n\n' + log.checkpoint())).status, 400);
    assert.equal((await fetch(`${s.url}/add-checkpoint`)).status, 405);
  });

  test('state survives a restart, and racing requests never roll it back', async () => {
    const s = await start(); // a new process reading the same file
    log.grow(10);
    assert.deepEqual(await post(s, formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: log.checkpoint() })), {
      status: 409,
      type: SIZE_CONTENT_TYPE,
      body: '305\n',
    });
    const mid = { cp: log.checkpoint(), proof: log.proof(305) };
    log.grow(10);
    const big = { cp: log.checkpoint(), proof: log.proof(305) };
    const [a, b] = await Promise.all([
      post(s, formatAddCheckpoint({ oldSize: 305, proof: big.proof, checkpoint: big.cp })),
      post(s, formatAddCheckpoint({ oldSize: 305, proof: mid.proof, checkpoint: mid.cp })),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 409]);
    const held = JSON.parse(readFileSync(storePath, 'utf8')).logs[log.signer.name].size as number;
    assert.equal(held, a.status === 200 ? 325 : 315);
  });
});

describe('WITNESS_URLS / WITNESS_KEYS', () => {
  test('one cosigner key per URL, each a type 0x04 key', async () => {
    const { ConfigError, loadConfig } = await import('../config/config.ts');
    const { witnessesOf } = await import('./witnesses.ts');
    const key = VECTOR.vkey;
    const cfg = loadConfig({
      WITNESS_URLS: 'http://127.0.0.1:1/w/ , https://w2.example',
      WITNESS_KEYS: `${key},${key}`,
    });
    assert.deepEqual(
      cfg.witnesses.map((w) => w.url),
      ['http://127.0.0.1:1/w', 'https://w2.example'],
    );
    assert.equal(cfg.witnesses[0]!.key, key);
    assert.equal(witnessesOf(cfg.witnesses)[0]!.key.name, 'witness.example/w1');
    assert.deepEqual(loadConfig({}).witnesses, []);
    assert.throws(
      () => loadConfig({ WITNESS_URLS: 'http://a,http://b', WITNESS_KEYS: key }),
      (e) => e instanceof ConfigError && /WITNESS_KEYS 1/.test(e.message),
    );
    assert.throws(() => loadConfig({ WITNESS_URLS: 'ftp://a', WITNESS_KEYS: key }), /http\(s\)/);
    const noteKey = formatCosignerKey(parseCosignerKey(key)).replace('+BN9b', '+AN9b');
    // Config keeps the key's text; the witness module parses it when the service starts.
    const bad = loadConfig({ WITNESS_URLS: 'http://a', WITNESS_KEYS: noteKey });
    assert.equal(bad.witnesses[0]!.key, noteKey);
    assert.throws(
      () => witnessesOf(bad.witnesses),
      (e) => e instanceof ConfigError && /WITNESS_KEYS.*not a cosigner key/.test(e.message),
    );
  });
});
