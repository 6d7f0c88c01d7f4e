// Copies the part of the OCSF schema the destinations' OCSF mapping is checked
// against into src/destinations/ocsf/schema/: the two event classes with what
// they extend and include, the objects the mapping emits (with theirs), the
// categories, the version, and the dictionary cut down to the attributes those
// files name (plus every type). Files are copied byte for byte; only the
// dictionary is rewritten (same entries, fewer of them).
//
//   node scripts/destinations/vendor-ocsf.ts <ocsf-schema checkout> <commit>
//
// Add an object to OBJECTS when the mapping starts emitting it (the validator
// refuses an object it has no definition for).
import { mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const CLASSES = ['events/application/api_activity.json', 'events/findings/detection_finding.json'];
const OBJECTS = [
  'metadata',
  'product',
  'actor',
  'user',
  'api',
  'service',
  'request',
  'finding_info',
  'analytic',
  'attestation',
  'fingerprint',
  'network_endpoint',
  'ai_agent',
  'evidences',
];

const [root, commit] = process.argv.slice(2);
if (!root || !commit) {
  console.error('usage: node scripts/destinations/vendor-ocsf.ts <ocsf-schema checkout> <commit>');
  process.exit(2);
}
const out = join(import.meta.dirname, '../../src/destinations/ocsf/schema');
const read = (p: string) => JSON.parse(readFileSync(join(root, p), 'utf8')) as Record<string, unknown>;

const files = new Set<string>();
const eventsByName = new Map<string, string>();
function visit(path: string): void {
  if (files.has(path)) return;
  files.add(path);
  const doc = read(path);
  const attrs = (doc['attributes'] ?? {}) as Record<string, unknown>;
  for (const inc of (attrs['$include'] as string[] | undefined) ?? []) visit(inc);
  const ext = doc['extends'] as string | undefined;
  if (ext) {
    if (path.startsWith('events/')) {
      // A class extends by name; its parent sits in the same folder or at events/.
      const candidates = [join(dirname(path), `${ext}.json`), `events/${ext}.json`];
      const found = candidates.find((c) => {
        try {
          read(c);
          return true;
        } catch {
          return false;
        }
      });
      if (!found) throw new Error(`${path} extends ${ext}, not found`);
      eventsByName.set(ext, found);
      visit(found);
    } else visit(`objects/${ext}.json`);
  }
}
for (const c of CLASSES) visit(c);
for (const o of OBJECTS) visit(`objects/${o}.json`);

const names = new Set<string>();
for (const f of files) {
  const attrs = (read(f)['attributes'] ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(attrs)) if (k !== '$include') names.add(k);
}
const dictionary = read('dictionary.json') as { attributes: Record<string, unknown>; types: unknown };
const kept: Record<string, unknown> = {};
for (const k of Object.keys(dictionary.attributes).sort()) if (names.has(k)) kept[k] = dictionary.attributes[k];
const missing = [...names].filter((n) => !(n in dictionary.attributes));
if (missing.length) throw new Error(`attributes missing from the dictionary: ${missing.join(', ')}`);

rmSync(out, { recursive: true, force: true });
for (const f of [...files, 'categories.json', 'version.json', 'LICENSE']) {
  mkdirSync(dirname(join(out, f)), { recursive: true });
  copyFileSync(join(root, f), join(out, f));
}
writeFileSync(join(out, 'dictionary.json'), `${JSON.stringify({ ...dictionary, attributes: kept }, null, 2)}\n`);
const upstreamNotice = readFileSync(join(root, 'NOTICE'), 'utf8');
const version = (read('version.json') as { version: string }).version;
writeFileSync(
  join(out, 'NOTICE'),
  [
    'These files are a part of the Open Cybersecurity Schema Framework (OCSF) schema,',
    `https://github.com/ocsf/ocsf-schema at commit ${commit} (version ${version}),`,
    'used under the Apache License, Version 2.0 (LICENSE in this folder).',
    'They are copied unchanged, except dictionary.json, which keeps only the',
    'attributes the copied files name (its entries unchanged). Made by',
    'scripts/destinations/vendor-ocsf.ts.',
    '',
    'The upstream NOTICE follows.',
    '',
    upstreamNotice,
  ].join('\n'),
);
console.log(`${files.size} definitions, ${Object.keys(kept).length} dictionary attributes, version ${version}`);
