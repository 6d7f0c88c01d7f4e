// Proofs at scale: builds a workspace log of --size entries (default 100,000)
// by appending straight through the ledger's storage functions in big batches
// (not over HTTP), then measures, over --samples random indexes (default 500):
//   inclusion proofs at the full size, consistency proofs from a random size
//   to the full size: hash count and bytes, time to make one from storage
//   (node read + hashing), time of the HTTP endpoint, time to verify;
// and one full `agent-ledger verify` of the whole log (every entry downloaded).
//
//   ./node_modules/.bin/node bench/proofs.ts [--store pglite|postgres] [--size 100000] [--batch 5000] [--samples 500]

import { randomInt } from 'node:crypto';
import { beginAppend } from '../src/ledger/append.ts';
import { decodeBase64 } from '../src/ledger/bytes.ts';
import { commitment, leafHashOf, newSalt } from '../src/ledger/leaf.ts';
import { readEntries, readHead, readNodes } from '../src/ledger/log-store.ts';
import {
  consistencyNeeds,
  consistencyProof,
  inclusionNeeds,
  inclusionProof,
  rootFromNodes,
  rootNeeds,
  verifyConsistency,
  verifyInclusion,
} from '../src/ledger/merkle.ts';
import { openCheckpoint, parseVerifierKey } from '../src/ledger/note.ts';
import { pinnedVerifierKey } from '../src/testing/audit-load.ts';
import { startTestService } from '../src/testing/harness.ts';
import { runCli } from '../src/testing/server-process.ts';
import { benchArgs, fmt, median, quantile, table } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const SIZE = args.int('size', 100_000);
const BATCH = args.int('batch', 5000);
const SAMPLES = args.int('samples', 500);

console.log(
  `# proofs: a log of ${fmt(SIZE)} entries appended in batches of ${fmt(BATCH)}, ${SAMPLES} random samples per measure`,
);

const ms = (t0: number) => performance.now() - t0;
const summary = (xs: number[]) => `${fmt(median(xs), 2)} / ${fmt(quantile(xs, 0.99), 2)}`;
const rows: string[][] = [];

for (const store of args.stores) {
  const t = await startTestService(store);
  try {
    const admin = await t.signIn('bench@proofs-co.io');
    const tenant = admin.account.tenant_id;
    const { db } = t.service.ctx;
    const salt = newSalt();

    // Build: the log already holds the workspace's own entries; fill it up to SIZE.
    const built = performance.now();
    let size = (await db.withTenant(tenant, (tx) => readHead(tx, tenant))).size;
    while (size < SIZE) {
      const n = Math.min(BATCH, SIZE - size);
      const time = new Date();
      size = await db.withTenant(tenant, async (tx) => {
        const log = await beginAppend(tx, tenant);
        for (let i = 0; i < n; i++) {
          const seq = log.nextIndex;
          log.add(
            {
              kind: 'invocation',
              invocation_id: seq,
              agent_key: `agent-${seq % 50}`,
              mode: 'observed',
              outcome: 'success',
              verdict: seq % 17 === 0 ? 'flag_for_review' : 'allow',
              reasons: [],
              policy_version: 1,
              content: { prompt: commitment(salt, `prompt ${seq}`), response: commitment(salt, `response ${seq}`) },
              findings: [],
            },
            time,
          );
        }
        return (await log.commit(tx)).head.size;
      });
      if (process.stdout.isTTY) process.stdout.write(`\r#   ${store}: ${fmt(size)} entries`);
    }
    const buildSeconds = ms(built) / 1000;
    if (process.stdout.isTTY) process.stdout.write('\n');
    console.log(
      `#   ${store}: built ${fmt(SIZE)} entries in ${fmt(buildSeconds, 1)} s (${fmt(SIZE / buildSeconds)} entries/s)`,
    );

    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const auth = { authorization: `Bearer ${admin.token}` };
    const note = await (await fetch(`${url}/api/v1/audit/checkpoint`, { headers: auth })).text();
    const key = pinnedVerifierKey(t, tenant);
    const { checkpoint } = openCheckpoint(note, [parseVerifierKey(key)]);
    if (checkpoint.size !== SIZE) throw new Error(`checkpoint size ${checkpoint.size}, expected ${SIZE}`);

    const measure = async (kind: 'inclusion' | 'consistency') => {
      const counts: number[] = [];
      const store: number[] = [];
      const http: number[] = [];
      const bytes: number[] = [];
      const verify: number[] = [];
      for (let s = 0; s < SAMPLES; s++) {
        const i = kind === 'inclusion' ? randomInt(SIZE) : 1 + randomInt(SIZE - 1);
        let t0 = performance.now();
        const proof = await db.withTenant(tenant, async (tx) =>
          kind === 'inclusion'
            ? inclusionProof(i, SIZE, await readNodes(tx, tenant, inclusionNeeds(i, SIZE)))
            : consistencyProof(i, SIZE, await readNodes(tx, tenant, consistencyNeeds(i, SIZE))),
        );
        store.push(ms(t0));
        counts.push(proof.length);
        const path =
          kind === 'inclusion'
            ? `/api/v1/audit/proof/inclusion?index=${i}&tree_size=${SIZE}`
            : `/api/v1/audit/proof/consistency?first=${i}&second=${SIZE}`;
        t0 = performance.now();
        const res = await fetch(`${url}${path}`, { headers: auth });
        const body = await res.text();
        http.push(ms(t0));
        bytes.push(Buffer.byteLength(body));
        const hashes = (JSON.parse(body) as { hashes: string[] }).hashes.map((h) => decodeBase64(h)!);
        if (kind === 'inclusion') {
          const [entry] = await db.withTenant(tenant, (tx) => readEntries(tx, tenant, i, i + 1));
          t0 = performance.now();
          const ok = verifyInclusion(i, SIZE, leafHashOf(entry!.leaf), hashes, checkpoint.root);
          verify.push(ms(t0));
          if (!ok) throw new Error(`inclusion proof of ${i} does not verify`);
        } else {
          const older = await db.withTenant(tenant, async (tx) =>
            rootFromNodes(i, await readNodes(tx, tenant, rootNeeds(i))),
          );
          t0 = performance.now();
          const ok = verifyConsistency(i, SIZE, hashes, older, checkpoint.root);
          verify.push(ms(t0));
          if (!ok) throw new Error(`consistency proof ${i} → ${SIZE} does not verify`);
        }
      }
      return { counts, store, http, bytes, verify };
    };

    for (const kind of ['inclusion', 'consistency'] as const) {
      const m = await measure(kind);
      rows.push([
        store,
        kind,
        `${Math.min(...m.counts)}–${Math.max(...m.counts)} (${fmt(median(m.counts))})`,
        `${fmt(median(m.counts) * 32)} B`,
        `${fmt(median(m.bytes))} B`,
        summary(m.store),
        summary(m.http),
        summary(m.verify),
      ]);
      console.log(`#   ${store}: ${kind} proofs measured`);
    }

    const started = performance.now();
    const r = await runCli(['verify', '--url', url, '--key', key], { AGENT_LEDGER_TOKEN: admin.token }, 600_000);
    const seconds = ms(started) / 1000;
    console.log(
      `#   ${store}: agent-ledger verify of all ${fmt(SIZE)} entries (${Math.ceil(SIZE / 1000)} pages): exit ${r.code} in ${fmt(seconds, 1)} s`,
    );
    if (r.code !== 0) {
      console.log(r.stdout, r.stderr);
      process.exitCode = 1;
    }
  } finally {
    await t.close();
  }
}

console.log(`\nat ${fmt(SIZE)} entries; times in ms, median / p99 over ${SAMPLES} random samples`);
table(
  ['store', 'proof', 'hashes min–max (median)', 'raw', 'JSON response', 'from storage', 'HTTP endpoint', 'verify'],
  rows,
);
