// Witnessing and tiles:
//   1. the cost of witnessing one checkpoint: a workspace log grows by --grow
//      entries per round (default 20), a checkpoint is signed, and the service
//      submits it to two witnesses (real HTTP on loopback, each fsyncing its
//      state file) with the consistency proof from their last size and stores
//      their cosignatures. Per round: signing the checkpoint alone (the
//      baseline), and the whole submission (wall time; both witnesses in parallel).
//   2. the tile serving rate: a log of --size entries (default 100,000) read
//      over HTTP by autocannon (--connections, default 16): random full level-0
//      hash tiles (stored after the first read), random full entry bundles
//      (gzip), and the checkpoint as the baseline. Medians of --runs (default 3).
//
//   ./node_modules/.bin/node bench/trust.ts [--store pglite|postgres] [--size 100000] [--rounds 50]

import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beginAppend } from '../src/ledger/append.ts';
import { commitment, newSalt } from '../src/ledger/leaf.ts';
import { formatSignerKey, generateSignerKey, verifierKeyFor } from '../src/ledger/note.ts';
import { startTestService } from '../src/testing/harness.ts';
import { cosignerKeyOf, formatCosignerKey } from '../src/witness/cosignature.ts';
import { startWitnessServer } from '../src/witness/server.ts';
import { WitnessStore } from '../src/witness/store.ts';
import { Witness } from '../src/witness/witness.ts';
import { cannon } from './lib/autocannon.ts';
import { benchArgs, fmt, median, quantile, table } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const SIZE = args.int('size', 100_000);
const ROUNDS = args.int('rounds', 50);
const GROW = args.int('grow', 20);
const CONNECTIONS = args.int('connections', 16);
const RUNS = args.int('runs', 3);
const REQUESTS = args.int('requests', 4000);
const ms = (t0: number) => performance.now() - t0;

const witnessRows: string[][] = [];
const tileRows: string[][] = [];

for (const store of args.stores) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-trust-'));
  const service = generateSignerKey('agent-ledger.local');
  const family = verifierKeyFor(service, 'agent-ledger.local');
  const witnesses = await Promise.all(
    ['w1.bench', 'w2.bench'].map(async (name, i) => {
      const signer = generateSignerKey(name);
      const w = new Witness({
        signer,
        name,
        logs: [{ kind: 'family', key: family }],
        store: new WitnessStore(join(dir, `w${i}.json`)),
      });
      return {
        server: await startWitnessServer(w, { host: '127.0.0.1', port: 0 }),
        key: formatCosignerKey(cosignerKeyOf(signer)),
      };
    }),
  );
  const t = await startTestService(store, {
    manualJobs: true, // the submission is run by hand, to time it
    env: {
      LEDGER_SIGNING_KEY: formatSignerKey(service),
      WITNESS_URLS: witnesses.map((w) => w.server.url).join(','),
      WITNESS_KEYS: witnesses.map((w) => w.key).join(','),
    },
  });
  try {
    const admin = await t.signIn('bench@trust-co.io');
    const tenant = admin.account.tenant_id;
    const { db } = t.service.ctx;
    const salt = newSalt();
    const append = async (n: number) =>
      db.withTenant(tenant, async (tx) => {
        const log = await beginAppend(tx, tenant);
        for (let i = 0; i < n; i++) {
          const seq = log.nextIndex;
          log.add(
            {
              kind: 'invocation',
              invocation_id: seq,
              agent_key: `agent-${seq % 50}`,
              verdict: 'allow',
              content: { prompt: commitment(salt, `p ${seq}`) },
              findings: {},
            },
            new Date(),
          );
        }
        return (await log.commit(tx)).head.size;
      });

    // 1. Witnessing per checkpoint.
    const sign: number[] = [];
    const submit: number[] = [];
    const signThenSubmit = async () => {
      await append(GROW);
      let t0 = performance.now();
      await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: admin.token }); // signs on demand, queues
      sign.push(ms(t0));
      t0 = performance.now();
      if (!(await t.service.witnesses.submitLatest(tenant))) throw new Error('a witness refused');
      submit.push(ms(t0));
    };
    for (let i = 0; i < 5; i++) await signThenSubmit(); // warm-up
    sign.length = 0;
    submit.length = 0;
    for (let i = 0; i < ROUNDS; i++) await signThenSubmit();
    witnessRows.push([
      store,
      String(ROUNDS),
      `${fmt(median(sign), 2)} / ${fmt(quantile(sign, 0.99), 2)}`,
      `${fmt(median(submit), 2)} / ${fmt(quantile(submit, 0.99), 2)}`,
      fmt(median(submit) / median(sign), 2),
    ]);

    // 2. Tiles.
    let size = 0;
    while (size < SIZE) size = await append(Math.min(5000, SIZE - size));
    await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: admin.token });
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const full = Math.floor(size / 256);
    const prefix = `/api/v1/audit/tlog/${tenant}`;
    const path = (kind: string, n: number) => `${prefix}/tile/${kind}/${formatIndex(n)}`;
    const headers = { authorization: `Bearer ${admin.token}`, 'accept-encoding': 'gzip' };
    const rate = async (paths: () => string) => {
      const results: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const res = await cannon({
          url,
          connections: CONNECTIONS,
          amount: REQUESTS,
          requests: [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: paths() }) }],
        });
        if (res.non2xx > 0 || res.errors > 0) throw new Error(`tiles: ${res.non2xx} non-2xx, ${res.errors} errors`);
        results.push(res.perSecond);
      }
      return median(results);
    };
    const checkpoint = await rate(() => `${prefix}/checkpoint`);
    const firstReads = await rate(() => path('0', randomInt(full))); // some tiles stored on first read
    const hash = await rate(() => path('0', randomInt(full)));
    const bundles = await rate(() => path('entries', randomInt(full)));
    tileRows.push([
      store,
      fmt(size),
      fmt(checkpoint),
      fmt(firstReads),
      fmt(hash),
      fmt(bundles),
      fmt(hash / checkpoint, 2),
    ]);
  } finally {
    await t.close();
    for (const w of witnesses) await w.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function formatIndex(n: number): string {
  let s = String(n % 1000).padStart(3, '0');
  for (let rest = Math.floor(n / 1000); rest > 0; rest = Math.floor(rest / 1000))
    s = `x${String(rest % 1000).padStart(3, '0')}/${s}`;
  return s;
}

console.log(`\n## witnessing one checkpoint (+${GROW} entries per round, 2 witnesses on loopback, ms median / p99)`);
table(['store', 'rounds', 'sign checkpoint', 'submit + store cosignatures', 'ratio'], witnessRows);
console.log(
  `\n## tlog-tiles over HTTP (${CONNECTIONS} connections, ${fmt(REQUESTS)} requests a run, median of ${RUNS} runs, responses/s)`,
);
table(
  [
    'store',
    'log size',
    'checkpoint (baseline)',
    'hash tiles, 1st pass',
    'full hash tiles',
    'entry bundles (gzip)',
    'tiles/checkpoint',
  ],
  tileRows,
);
