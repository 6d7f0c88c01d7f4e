// `agent-ledger verify`: checks a workspace's audit trail from a signed
// checkpoint and the public key alone (DESIGN §3), against a running service or
// an exported bundle. Everything is decided by verifyBundle (src/ledger); this
// file only fetches, prints and picks the exit code:
//   0  everything checked is intact
//   1  verification failed (each failure is printed, with its entry index)
//   2  usage error, unreadable input, or the service could not be reached /
//      refused the token: nothing was verified

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  type Bundle,
  type BundleEntry,
  type Checkpoint,
  type ConsistencyProofJson,
  decodeBase64,
  encodeBase64,
  type EvidenceJson,
  type Failure,
  type InclusionProofJson,
  leafHashOf,
  NoteError,
  openCheckpoint,
  parseCheckpoint,
  parseVerifierKey,
  prefixRoots,
  verifyBundle,
  verifyConsistency,
} from '../ledger/index.ts';
import { type CosignerKey, parseCosignerKey, verifyCosignatures } from '../witness/index.ts';
import {
  checkDeliveredEvents,
  type DeliveredEvidence,
  describeEntry,
  readDeliveredEvent,
  UnreadableEntry,
} from './verify-entry.ts';
import { checkReport, parseReport, type ReportFile } from './verify-report.ts';

export const VERIFY_USAGE = `usage: agent-ledger verify (--url URL [--token T] | --bundle FILE) [options]

  --url URL               the service (token from --token or AGENT_LEDGER_TOKEN)
  --bundle FILE           verify an exported bundle offline instead
  --key KEY               pin the verifier key (name+hex8+base64, from GET /api/v1/audit/key);
                          repeatable, for rotated keys. Without --key/--key-file the key is
                          taken from the service (or the bundle) and a warning is printed
  --key-file FILE         pinned verifier keys, one per line
  --evidence ID           also check this evidence id (repeatable)
  --entry FILE            also check an event a destination delivered (its JSON: native, OCSF or
                          a Splunk HEC envelope; - for standard input): the entry it names must
                          be in the verified log with that leaf hash, and the checkpoint it
                          carries must be signed by the key and agree with the log (repeatable)
  --since FILE            a checkpoint saved earlier: the log must have only grown since
  --save-checkpoint FILE  write the verified checkpoint (for --since next time)
  --export FILE           write a bundle (checkpoint, keys, origin, all entries) for --bundle
  --report FILE           a compliance report (JSON): its checkpoint must verify, and every
                          figure in it must be what the log's leaves say
  --witness KEY           a witness's cosigner key (name+hex8+base64(0x04 ‖ key)); repeatable
  --witness-quorum N      the checkpoint (or the report's / bundle's) must carry valid
                          cosignatures by at least N of the --witness keys (default 1)

exit status: 0 intact, 1 verification failed, 2 usage or connection error
`;

/** Entries per range request: the most GET /api/v1/audit/entries returns. */
export const PAGE_SIZE = 1000;
const BUNDLE_FORMAT = 'agent-ledger-audit-bundle';
const REQUEST_TIMEOUT_MS = 60_000;

/** Exit 2: nothing was verified, because of how we were called or could not reach the service. */
class CannotVerify extends Error {}

/** What `--export` writes and `--bundle` reads. */
export interface BundleFile {
  format: typeof BUNDLE_FORMAT;
  version: 1;
  origin: string;
  checkpoint: string;
  verifier_key: string;
  previous_verifier_keys: string[];
  exported_at: string;
  entries: BundleEntry[];
}

interface Options {
  url: string | undefined;
  token: string | undefined;
  bundle: string | undefined;
  keys: string[] | undefined;
  evidence: number[];
  entries: DeliveredEvidence[];
  since: string | undefined;
  saveCheckpoint: string | undefined;
  export: string | undefined;
  report: ReportFile | undefined;
  witnesses: CosignerKey[];
  quorum: number;
}

// ---- output --------------------------------------------------------------------

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const warn = (line: string): void => {
  process.stderr.write(`agent-ledger verify: ${line}\n`);
};
const row = (label: string, text: string): void => out(`${label.padEnd(11)} ${text}`);

export async function verifyCommand(args: string[]): Promise<number> {
  try {
    const opts = parseOptions(args);
    if (opts === 'help') {
      process.stdout.write(VERIFY_USAGE);
      return 0;
    }
    return await run(opts);
  } catch (err) {
    if (err instanceof CannotVerify) {
      warn(err.message);
      return 2;
    }
    throw err;
  }
}

const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  bundle: { type: 'string' },
  key: { type: 'string', multiple: true },
  'key-file': { type: 'string' },
  evidence: { type: 'string', multiple: true },
  entry: { type: 'string', multiple: true },
  since: { type: 'string' },
  'save-checkpoint': { type: 'string' },
  export: { type: 'string' },
  report: { type: 'string' },
  witness: { type: 'string', multiple: true },
  'witness-quorum': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseOptions(args: string[]): Options | 'help' {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    values = parseArgs({ args, strict: true, allowPositionals: false, options: OPTIONS }).values;
  } catch (err) {
    throw new CannotVerify(`${err instanceof Error ? err.message : String(err)}\n${VERIFY_USAGE}`);
  }
  if (values.help) return 'help';
  if ((values.url === undefined) === (values.bundle === undefined)) {
    throw new CannotVerify(`give exactly one of --url and --bundle\n${VERIFY_USAGE}`);
  }
  const token = values.token ?? process.env.AGENT_LEDGER_TOKEN;
  if (values.url !== undefined) {
    try {
      const u = new URL(values.url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      throw new CannotVerify(`--url ${JSON.stringify(values.url)} is not an http(s) URL`);
    }
    if (!token) throw new CannotVerify('a token is needed with --url: pass --token or set AGENT_LEDGER_TOKEN');
  }
  const keyTexts = [...(values.key ?? [])];
  if (values['key-file'] !== undefined) {
    const lines = readText(values['key-file'], '--key-file')
      .split('\n')
      .map((l) => l.trim());
    const found = lines.filter((l) => l !== '' && !l.startsWith('#'));
    if (found.length === 0) throw new CannotVerify(`--key-file ${values['key-file']} holds no verifier key`);
    keyTexts.push(...found);
  }
  for (const k of keyTexts) {
    try {
      parseVerifierKey(k);
    } catch (err) {
      throw new CannotVerify(
        `${JSON.stringify(k)} is not a note verifier key (name+hex8+base64): ${(err as Error).message}`,
      );
    }
  }
  const evidence = (values.evidence ?? []).map((text) => {
    const id = Number(text);
    if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(id)) {
      throw new CannotVerify(`--evidence ${JSON.stringify(text)} is not an evidence id (a positive integer)`);
    }
    return id;
  });
  const entries = (values.entry ?? []).map((path) => {
    try {
      return readDeliveredEvent(path);
    } catch (err) {
      if (err instanceof UnreadableEntry) throw new CannotVerify(err.message);
      throw err;
    }
  });
  const witnesses = (values.witness ?? []).map((k) => {
    try {
      return parseCosignerKey(k);
    } catch (err) {
      throw new CannotVerify(`--witness ${JSON.stringify(k)} is not a cosigner key: ${(err as Error).message}`);
    }
  });
  const q = values['witness-quorum'];
  if (q !== undefined && (!/^[1-9][0-9]{0,2}$/.test(q) || Number(q) > witnesses.length)) {
    throw new CannotVerify(`--witness-quorum must be between 1 and the number of --witness keys (${witnesses.length})`);
  }
  return {
    witnesses,
    quorum: q === undefined ? Math.min(1, witnesses.length) : Number(q),
    url: values.url,
    token,
    bundle: values.bundle,
    keys: keyTexts.length > 0 ? keyTexts : undefined,
    evidence,
    entries,
    since: values.since,
    saveCheckpoint: values['save-checkpoint'],
    export: values.export,
    report: values.report === undefined ? undefined : readReport(values.report),
  };
}

function readReport(path: string): ReportFile {
  const r = parseReport(readText(path, '--report'));
  if (typeof r === 'string') throw new CannotVerify(`--report ${path}: ${r}`);
  return r;
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new CannotVerify(
      `${what} ${path} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

// ---- the service ---------------------------------------------------------------

class Client {
  readonly #base: string;
  readonly #token: string;
  constructor(base: string, token: string) {
    this.#base = base;
    this.#token = token;
  }

  /** GETs a path; network failures and refused credentials are CannotVerify, other statuses are returned. */
  async get(path: string): Promise<{ status: number; text: string }> {
    const url = new URL(path, this.#base);
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { authorization: `Bearer ${this.#token}` },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new CannotVerify(`cannot reach ${url.origin}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
    }
    const text = await res.text();
    if (res.status === 401 || res.status === 403) {
      throw new CannotVerify(`the service refused the token (HTTP ${res.status}) on GET ${url.pathname}`);
    }
    return { status: res.status, text };
  }

  /** GETs a path that must succeed for verification to start at all. */
  async must(path: string): Promise<string> {
    const { status, text } = await this.get(path);
    if (status !== 200) throw new CannotVerify(`GET ${path} answered HTTP ${status}: ${problemDetail(text)}`);
    return text;
  }

  async mustJson<T>(path: string): Promise<T> {
    const text = await this.must(path);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CannotVerify(`GET ${path} did not answer JSON`);
    }
  }
}

function problemDetail(text: string): string {
  try {
    const p = JSON.parse(text) as { detail?: string; title?: string };
    return p.detail ?? p.title ?? text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

// ---- verification --------------------------------------------------------------

interface Gathered {
  source: string;
  keys: string[];
  pinned: boolean;
  origin: string | undefined;
  checkpoint: string;
  entries: BundleEntry[];
  pages: number;
  inclusion: InclusionProofJson[];
  evidence: EvidenceJson[];
  previous: Bundle['previous'];
  /** Failures found while fetching (a proof or an evidence record the service would not give). */
  fetchFailures: Failure[];
  client: Client | undefined;
}

async function run(opts: Options): Promise<number> {
  const g = opts.url !== undefined ? await gatherOnline(opts, new Client(opts.url, opts.token!)) : gatherBundle(opts);
  const bundle: Bundle = {
    verifierKeys: g.keys,
    checkpoint: g.checkpoint,
    ...(g.origin !== undefined ? { origin: g.origin } : {}),
    entries: g.entries,
    complete: true,
    inclusion: g.inclusion,
    ...(g.previous ? { previous: g.previous } : {}),
    evidence: g.evidence,
  };
  const failures = [...g.fetchFailures, ...verifyBundle(bundle)];
  if (opts.report) failures.push(...checkReport(opts.report, g.keys, g.entries));
  const verified = opts.entries.length > 0 ? tryOpen(g.checkpoint, g.keys) : undefined;
  if (verified) failures.push(...checkDeliveredEvents(opts.entries, verified, g.entries, g.keys));
  const cosigned = checkWitnesses(g.checkpoint, opts, failures);
  if (failures.some((f) => f.kind === 'root') && !failures.some((f) => f.kind === 'entry') && g.client) {
    const located = await locateDivergence(g.client, g.checkpoint, g.keys, g.entries);
    if (located) failures.push(located);
  }
  report(g, opts, failures, cosigned);

  if (opts.export !== undefined) writeBundle(opts.export, g);
  if (failures.length === 0 && opts.saveCheckpoint !== undefined) {
    writeFileSync(opts.saveCheckpoint, g.checkpoint);
    row('saved', `checkpoint to ${opts.saveCheckpoint}`);
  }
  if (failures.length > 0) {
    const first = failures.find((f) => f.index !== undefined);
    out(
      `verification FAILED: ${failures.length} problem(s)${first ? `; first named entry: ${first.index}` : ''}` +
        (opts.saveCheckpoint !== undefined ? ' (checkpoint not saved)' : ''),
    );
    return 1;
  }
  out('OK: every check passed');
  return 0;
}

async function gatherOnline(opts: Options, client: Client): Promise<Gathered> {
  let keys: string[];
  let origin: string | undefined;
  const pinned = opts.keys !== undefined;
  if (opts.keys) {
    keys = opts.keys;
  } else {
    const k = await client.mustJson<{ verifier_key?: unknown; origin?: unknown; previous_verifier_keys?: unknown }>(
      '/api/v1/audit/key',
    );
    if (typeof k.verifier_key !== 'string' || typeof k.origin !== 'string') {
      throw new CannotVerify('GET /api/v1/audit/key did not answer {verifier_key, origin}');
    }
    const previous = Array.isArray(k.previous_verifier_keys)
      ? k.previous_verifier_keys.filter((x) => typeof x === 'string')
      : [];
    keys = [k.verifier_key, ...previous];
    origin = k.origin;
    warnUnpinned('the service itself', k.verifier_key);
  }

  // A report is checked against the checkpoint it cites (the log may have grown since).
  const checkpoint = opts.report?.evidence.checkpoint ?? (await client.must('/api/v1/audit/checkpoint'));
  const fetchFailures: Failure[] = [];
  const g: Gathered = {
    source: opts.url!,
    keys,
    pinned,
    origin,
    checkpoint,
    entries: [],
    pages: 0,
    inclusion: [],
    evidence: [],
    previous: undefined,
    fetchFailures,
    client,
  };
  // Nothing else means anything unless the checkpoint verifies: stop there if it does not.
  const cp = tryOpen(checkpoint, keys);
  if (!cp) return g;
  const size = cp.size;

  for (let start = 0; start < size; start += PAGE_SIZE) {
    const end = Math.min(start + PAGE_SIZE, size);
    const page = await client.mustJson<{ entries?: unknown }>(`/api/v1/audit/entries?start=${start}&end=${end}`);
    if (!Array.isArray(page.entries) || !page.entries.every((e) => typeof e === 'object' && e !== null)) {
      throw new CannotVerify('GET /api/v1/audit/entries did not answer {entries: [{index, leaf, leaf_hash}, ...]}');
    }
    g.entries.push(...(page.entries as BundleEntry[]));
    g.pages++;
  }

  for (const id of opts.evidence) {
    const index = id - 1;
    const fail = (message: string) =>
      fetchFailures.push({ kind: 'evidence', index, message: `evidence ${id} (entry ${index}): ${message}` });
    // Against the checkpoint verified here: the service's inclusion proof at its size.
    if (index < size) {
      const p = await client.get(`/api/v1/audit/proof/inclusion?index=${index}&tree_size=${size}`);
      const proof = p.status === 200 ? parseJson<InclusionProofJson | null>(p.text, 'inclusion proof') : null;
      if (isObject(proof)) g.inclusion.push({ ...proof, index });
      else fail(`the service gave no inclusion proof at size ${size} (HTTP ${p.status}: ${problemDetail(p.text)})`);
    }
    // What a holder of the evidence id is handed: the entry with a proof against the then latest checkpoint.
    const e = await client.get(`/api/v1/audit/evidence/${id}`);
    if (e.status === 404) {
      fail('the service has no such evidence');
      continue;
    }
    if (e.status !== 200) {
      fail(`the service did not return it (HTTP ${e.status}: ${problemDetail(e.text)})`);
      continue;
    }
    const ev = parseJson<EvidenceJson | null>(e.text, 'evidence');
    if (!isObject(ev)) {
      fail('the service returned no evidence record');
      continue;
    }
    const evSize = tryParseCheckpoint(ev.checkpoint)?.size;
    if (evSize !== undefined && evSize !== size) {
      const [first, second] = evSize < size ? [evSize, size] : [size, evSize];
      const link = await consistency(client, first, second);
      if (link) g.evidence.push({ ...ev, consistency: link });
      else fail(`the service gave no consistency proof from size ${first} to ${second}`);
    } else {
      g.evidence.push(ev);
    }
    if (index >= size && evSize !== undefined && index >= evSize) fail(`not in the checkpoint of size ${size}`);
  }

  if (opts.since !== undefined) {
    const older = readText(opts.since, '--since');
    const olderSize = tryParseCheckpoint(older)?.size;
    let proof: ConsistencyProofJson | undefined;
    if (olderSize !== undefined && olderSize <= size) {
      proof = await consistency(client, olderSize, size);
      if (!proof) {
        fetchFailures.push({
          kind: 'consistency',
          message: `the service gave no consistency proof from size ${olderSize} to ${size}`,
        });
      }
    }
    g.previous = { checkpoint: older, ...(proof ? { consistency: proof } : {}) };
  }
  return g;
}

async function consistency(client: Client, first: number, second: number): Promise<ConsistencyProofJson | undefined> {
  // The API serves proofs for 1 ≤ first ≤ second; from the empty tree the proof is empty.
  if (first === 0 || first === second) return { first, second, hashes: [] };
  const res = await client.get(`/api/v1/audit/proof/consistency?first=${first}&second=${second}`);
  const proof = res.status === 200 ? parseJson<ConsistencyProofJson | null>(res.text, 'consistency proof') : null;
  return isObject(proof) ? proof : undefined;
}

function isObject<T>(value: T | null): value is T {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new CannotVerify(`the service's ${what} is not JSON`);
  }
}

function gatherBundle(opts: Options): Gathered {
  const path = opts.bundle!;
  let file: BundleFile;
  try {
    file = JSON.parse(readText(path, '--bundle')) as BundleFile;
  } catch (err) {
    if (err instanceof CannotVerify) throw err;
    throw new CannotVerify(`--bundle ${path} is not JSON`);
  }
  if (
    typeof file !== 'object' ||
    file === null ||
    file.format !== BUNDLE_FORMAT ||
    typeof file.checkpoint !== 'string' ||
    typeof file.verifier_key !== 'string' ||
    !Array.isArray(file.entries)
  ) {
    throw new CannotVerify(`--bundle ${path} is not an agent-ledger audit bundle (written by verify --export)`);
  }
  const pinned = opts.keys !== undefined;
  const keys = opts.keys ?? [
    file.verifier_key,
    ...(Array.isArray(file.previous_verifier_keys) ? file.previous_verifier_keys : []),
  ];
  if (!pinned) warnUnpinned('the bundle itself', file.verifier_key);
  const fetchFailures: Failure[] = [];
  const cp = tryParseCheckpoint(file.checkpoint);
  for (const id of opts.evidence) {
    const index = id - 1;
    if (!file.entries.some((e) => e?.index === index) || (cp && index >= cp.size)) {
      fetchFailures.push({
        kind: 'evidence',
        index,
        message: `evidence ${id} (entry ${index}): not in the bundle's log`,
      });
    }
  }
  return {
    source: path,
    keys,
    pinned,
    origin: typeof file.origin === 'string' ? file.origin : undefined,
    checkpoint: file.checkpoint,
    entries: file.entries,
    pages: 0,
    inclusion: [],
    evidence: [],
    previous: opts.since !== undefined ? { checkpoint: readText(opts.since, '--since') } : undefined,
    fetchFailures,
    client: undefined,
  };
}

function warnUnpinned(from: string, key: string): void {
  warn(
    `WARNING: the verifier key is not pinned; using the one given by ${from}. This shows the log matches ` +
      'what that key signed, not that the key is the one you trust: whoever controls the source can re-sign ' +
      `a rewritten log with a new key. Check this key out of band and pin it next time:\n  --key '${key}'`,
  );
}

function tryOpen(note: string, keys: readonly string[]): Checkpoint | undefined {
  try {
    return openCheckpoint(
      note,
      keys.map((k) => parseVerifierKey(k)),
    ).checkpoint;
  } catch (err) {
    if (err instanceof NoteError) return undefined;
    throw err;
  }
}

/** The checkpoint a note claims to be, signature unchecked (only to know what to fetch). */
function tryParseCheckpoint(note: unknown): Checkpoint | undefined {
  if (typeof note !== 'string') return undefined;
  const split = note.lastIndexOf('\n\n');
  try {
    return parseCheckpoint(note.slice(0, split + 1));
  } catch {
    return undefined;
  }
}

/**
 * When the leaves do not hash to the signed root but every entry is there and
 * matches its stored leaf hash (someone rewrote rows consistently), find the
 * first entry that cannot be shown to belong to the signed log: bisect on the
 * largest prefix the service can prove consistent with the checkpoint. A
 * consistency proof cannot vouch for a prefix that differs from the signed one,
 * so every prefix accepted is genuine; with honest proofs the answer is exact.
 */
async function locateDivergence(
  client: Client,
  note: string,
  keys: readonly string[],
  entries: readonly BundleEntry[],
) {
  const cp = tryOpen(note, keys);
  if (!cp || entries.length !== cp.size) return undefined;
  const sorted = [...entries].sort((a, b) => a.index - b.index);
  if (!sorted.every((e, i) => e.index === i)) return undefined;
  const rootAt = prefixRoots(sorted.map((e) => leafHashOf(e.leaf)));
  let good = 0; // the prefix of this size is proven
  let bad = cp.size; // this one is not
  let proofs = 0;
  while (bad - good > 1) {
    const mid = good + Math.floor((bad - good) / 2);
    const proof = await consistency(client, mid, cp.size);
    proofs++;
    const path = Array.isArray(proof?.hashes)
      ? proof.hashes.map((h) => (typeof h === 'string' ? decodeBase64(h) : undefined))
      : [undefined];
    const ok =
      path.every((h) => h !== undefined) && verifyConsistency(mid, cp.size, path as Uint8Array[], rootAt(mid), cp.root);
    if (ok) good = mid;
    else bad = mid;
  }
  return {
    kind: 'root' as const,
    index: good,
    message:
      `entry ${good}: first entry not proven to belong to the signed log ` +
      `(entries before it are, by ${proofs} consistency proof(s) from the service)`,
  };
}

// ---- report --------------------------------------------------------------------

/**
 * With --witness: the checkpoint must carry valid cosignatures by at least
 * --witness-quorum of those keys. A log rewritten and re-signed by whoever
 * holds the service key cannot get them: a witness cosigns only trees
 * consistent with the last one it cosigned.
 */
function checkWitnesses(note: string, opts: Options, failures: Failure[]): Array<{ name: string; time: number }> {
  if (opts.witnesses.length === 0) return [];
  let found: Array<{ name: string; time: number }>;
  try {
    found = verifyCosignatures(note, opts.witnesses);
  } catch (err) {
    failures.push({ kind: 'witness', message: `a witness cosignature does not verify: ${(err as Error).message}` });
    return [];
  }
  if (found.length < opts.quorum) {
    failures.push({
      kind: 'witness',
      message: `the checkpoint carries ${found.length} valid cosignature(s) by the given witnesses; ${opts.quorum} required`,
    });
  }
  return found;
}

function report(
  g: Gathered,
  opts: Options,
  failures: readonly Failure[],
  cosigned: ReadonlyArray<{ name: string; time: number }> = [],
): void {
  const failed = (...kinds: Failure['kind'][]) => failures.filter((f) => kinds.includes(f.kind));
  const cp = tryOpen(g.checkpoint, g.keys) ?? tryParseCheckpoint(g.checkpoint);
  row(opts.url !== undefined ? 'service' : 'bundle', g.source);
  row('origin', cp?.origin ?? g.origin ?? '(unknown)');
  g.keys.forEach((k, i) => {
    row(i === 0 ? 'key' : '', `${k} (${g.pinned ? 'pinned' : 'NOT pinned'})`);
  });
  const cpBad = failed('key', 'checkpoint');
  row(
    'checkpoint',
    cp
      ? `size ${cp.size}, root ${encodeBase64(cp.root)}: ${cpBad.length ? 'FAILED' : 'signature valid'}`
      : 'FAILED: unreadable',
  );
  if (cp && !cpBad.length) {
    const kinds = new Map<string, number>();
    for (const e of g.entries) {
      let kind = '(not JSON)';
      try {
        kind = String((JSON.parse(e.leaf) as { kind?: unknown }).kind ?? '(no kind)');
      } catch {
        // counted as not JSON; verifyBundle reports it
      }
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    const byKind = [...kinds]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    const how = opts.url !== undefined ? ` in ${g.pages} page(s) of up to ${PAGE_SIZE}` : '';
    row('entries', `${g.entries.length} read${how}${byKind ? `: ${byKind}` : ''}`);
    const rootBad = failed('entry', 'root');
    row('root', `recomputed from ${cp.size} leaves: ${rootBad.length ? 'FAILED' : 'matches the checkpoint'}`);
    for (const id of opts.evidence) {
      const bad = failures.filter((f) => (f.kind === 'evidence' || f.kind === 'inclusion') && f.index === id - 1);
      const ev = g.evidence.find((e) => e.evidence_id === id);
      const evSize = ev ? tryParseCheckpoint(ev.checkpoint)?.size : undefined;
      const what =
        opts.url !== undefined
          ? `entry ${id - 1}: inclusion proof at size ${cp.size}` +
            (evSize !== undefined ? `, evidence record against checkpoint size ${evSize}` : '')
          : `entry ${id - 1} in the verified log`;
      row('evidence', `${id} (${what}): ${bad.length ? 'FAILED' : 'valid'}`);
    }
    for (const e of opts.entries) {
      const bad = failures.some((f) => f.kind === 'evidence' && f.message.startsWith(`${e.source}: `));
      const proof = e.checkpoint !== undefined ? ', its checkpoint signed and a prefix of the log' : '';
      row('entry', `${describeEntry(e)}: ${bad ? 'FAILED' : `in the verified log with the event's leaf hash${proof}`}`);
    }
    if (g.previous) {
      const older = tryParseCheckpoint(g.previous.checkpoint);
      const proof = g.previous.consistency ? `proof of ${g.previous.consistency.hashes.length} hash(es) and ` : '';
      row(
        'since',
        `checkpoint of size ${older?.size ?? '?'} (${opts.since}): ` +
          `${failed('consistency').length ? 'FAILED' : `consistent (${proof}older root recomputed from the leaves)`}`,
      );
    }
  }
  if (opts.witnesses.length > 0) {
    const who = cosigned.map((c) => `${c.name} at ${new Date(c.time * 1000).toISOString()}`).join(', ');
    row(
      'witnesses',
      `${cosigned.length} of ${opts.witnesses.length} cosigned (quorum ${opts.quorum})${who ? `: ${who}` : ''}: ` +
        (failed('witness').length ? 'FAILED' : 'quorum met'),
    );
  }
  if (opts.report) {
    const bad = failures.filter((f) => f.kind === 'report');
    row(
      'report',
      `${opts.report.period.from} to ${opts.report.period.to}, ${opts.report.totals.invocations} invocation(s): ` +
        (bad.length ? 'FAILED' : 'every figure recounted from the leaves'),
    );
  }
  for (const f of failures) out(`FAILED      ${f.message}`);
}

function writeBundle(path: string, g: Gathered): void {
  const cp = tryParseCheckpoint(g.checkpoint);
  const file: BundleFile = {
    format: BUNDLE_FORMAT,
    version: 1,
    origin: cp?.origin ?? g.origin ?? '',
    checkpoint: g.checkpoint,
    verifier_key: g.keys[0]!,
    previous_verifier_keys: g.keys.slice(1),
    exported_at: new Date().toISOString(),
    entries: [...g.entries]
      .sort((a, b) => a.index - b.index)
      .map((e) => ({ index: e.index, leaf: e.leaf, leaf_hash: e.leaf_hash })),
  };
  writeFileSync(path, `${JSON.stringify(file)}\n`);
  row('exported', `bundle of ${file.entries.length} entries to ${path}`);
}
