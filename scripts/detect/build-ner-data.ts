// node scripts/detect/build-ner-data.ts [--git DIR]
//
// Builds datasets/detect/ner/: a sample of openly licensed, human-annotated named-entity corpora as one
// gzipped JSONL file per source ({text, spans: [[start, end, "PER"|"LOC"|"ORG"]], lang}), plus
// manifest.json (counts and SHA-256 of each file) and SOURCES.md (repository, commit, paths, licence,
// sampling). Every source is read at a pinned commit, so the same command gives the same files.
//
// Where the files come from: with --git DIR, from local clones named `owner+name` or `owner/name` under DIR
// (bare or not); otherwise from raw.githubusercontent.com at the pinned commit.
//
// Why text and spans rather than the corpora's tokens: the model tokenizes text itself at run time
// (src/detect/models/ner-tokens.ts); training on the same tokenization it will meet keeps the two alike.
// The text of a sentence is the corpus's own `# text =` line where it has one and its tokens line up with
// it, else its tokens joined by single spaces (tweets are distributed tokenized).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO } from './frozen.ts';
import { NER_SOURCES } from './ner-sources.ts';
import type { NerSource } from './ner-sources.ts';

export type NerType = 'PER' | 'LOC' | 'ORG';

export interface NerSentence {
  text: string;
  spans: Array<[number, number, NerType]>;
  lang: string;
}

const OUT = join(REPO, 'datasets', 'detect', 'ner');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function readSource(repo: string, commit: string, path: string, gitDir: string | undefined): Promise<string> {
  if (gitDir) {
    const [owner, name] = repo.split('/') as [string, string];
    for (const dir of [join(gitDir, `${owner}+${name}`), join(gitDir, owner, name)]) {
      if (!existsSync(dir)) continue;
      return execFileSync('git', ['-C', dir, 'show', `${commit}:${path}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
    }
    throw new Error(`no clone of ${repo} under ${gitDir}`);
  }
  const url = `https://raw.githubusercontent.com/${repo}/${commit}/${path}`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return await res.text();
}

/** Token/tag rows of a CoNLL-like file, one array per sentence, with the sentence's `# text =` line if any. */
function conllSentences(
  raw: string,
  tokenCol: number,
  tagOf: (cols: string[]) => string,
): Array<{ text?: string; tokens: string[]; tags: string[] }> {
  const out: Array<{ text?: string; tokens: string[]; tags: string[] }> = [];
  let cur: { text?: string; tokens: string[]; tags: string[] } = { tokens: [], tags: [] };
  const flush = () => {
    if (cur.tokens.length) out.push(cur);
    cur = { tokens: [], tags: [] };
  };
  for (const line of raw.split(/\r?\n/)) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (line.startsWith('# text = ')) {
      cur.text = line.slice(9);
      continue;
    }
    if (line.startsWith('#')) continue;
    const cols = line.split('\t');
    // CoNLL-U multiword ranges ("3-4") and empty nodes ("5.1") carry no tag of their own
    if (/^\d+[-.]\d+$/.test(cols[0] ?? '')) continue;
    const tok = cols[tokenCol];
    if (tok === undefined || tok === '') continue;
    cur.tokens.push(tok);
    cur.tags.push(tagOf(cols));
  }
  flush();
  // "@" and the handle as two tokens (some BTC sections): one token, unlabelled like every mention
  for (const s of out) {
    for (let i = s.tokens.length - 2; i >= 0; i--) {
      if (s.tokens[i] !== '@') continue;
      s.tokens.splice(i, 2, '@' + s.tokens[i + 1]!);
      s.tags.splice(i, 2, 'O');
    }
  }
  return out;
}

/** Aligns tokens to the text (or joins them) and turns BIO tags into character spans of PER/LOC/ORG. */
function toSentence(
  s: { text?: string; tokens: string[]; tags: string[] },
  mapType: (t: string) => NerType | undefined,
  lang: string,
): NerSentence {
  let text = s.text;
  let offs: number[] | undefined;
  if (text !== undefined) {
    offs = [];
    let pos = 0;
    for (const tok of s.tokens) {
      const at = text.indexOf(tok, pos);
      if (at < 0 || text.slice(pos, at).trim() !== '') {
        offs = undefined;
        break;
      }
      offs.push(at);
      pos = at + tok.length;
    }
  }
  if (!offs || text === undefined) {
    offs = [];
    let pos = 0;
    for (const tok of s.tokens) {
      offs.push(pos);
      pos += tok.length + 1;
    }
    text = s.tokens.join(' ');
  }
  const spans: Array<[number, number, NerType]> = [];
  let open: [number, number, NerType] | undefined;
  for (let i = 0; i < s.tokens.length; i++) {
    const tag = s.tags[i]!;
    const m = /^([BI])-(.+)$/.exec(tag);
    const type = m ? mapType(m[2]!) : undefined;
    const start = offs[i]!;
    const end = start + s.tokens[i]!.length;
    if (type && m![1] === 'I' && open && open[2] === type) {
      open[1] = end;
      continue;
    }
    if (open) spans.push(open);
    open = type ? [start, end, type] : undefined;
  }
  if (open) spans.push(open);
  return { text, spans, lang };
}

/** A deterministic order (FNV-1a of the text and a seed): sampling that does not depend on file order. */
function hashKey(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

async function buildSource(src: NerSource, gitDir: string | undefined): Promise<NerSentence[]> {
  const perFile: NerSentence[][] = [];
  for (const f of src.files) {
    const raw = await readSource(src.repo, src.commit, f.path, gitDir);
    const sents = conllSentences(raw, src.tokenCol, src.tagOf).map((s) => toSentence(s, src.mapType, f.lang));
    perFile.push(sents);
  }
  // each file (language) gets an equal share of the source's cap, so one large file cannot crowd out the rest
  const share = Math.ceil(src.cap / src.files.length);
  const picked: NerSentence[] = [];
  const seen = new Set<string>();
  for (const sents of perFile) {
    const uniq = sents.filter((s) => s.text.length >= 3 && !seen.has(s.text) && (seen.add(s.text), true));
    uniq.sort((a, b) => hashKey('ner:' + a.text) - hashKey('ner:' + b.text) || (a.text < b.text ? -1 : 1));
    picked.push(...uniq.slice(0, share));
  }
  return picked.slice(0, src.cap);
}

async function main(): Promise<void> {
  const gitDir = arg('git');
  mkdirSync(OUT, { recursive: true });
  const manifest: Record<string, unknown> = {};
  const rows: string[] = [];
  for (const src of NER_SOURCES) {
    const sents = await buildSource(src, gitDir);
    const body = sents.map((s) => JSON.stringify(s)).join('\n') + '\n';
    const gz = gzipSync(Buffer.from(body, 'utf8'), { level: 9 });
    writeFileSync(join(OUT, `${src.id}.jsonl.gz`), gz);
    const counts = { PER: 0, LOC: 0, ORG: 0 };
    for (const s of sents) for (const [, , t] of s.spans) counts[t]++;
    manifest[src.id] = {
      repo: src.repo,
      commit: src.commit,
      files: src.files.map((f) => f.path),
      licence: src.licence,
      sentences: sents.length,
      entities: counts,
      sha256: createHash('sha256').update(body).digest('hex'),
    };
    rows.push(
      `| \`${src.id}\` | ${src.description} | [${src.repo}](https://github.com/${src.repo}) \`${src.commit.slice(0, 12)}\` | ${src.files.map((f) => `\`${f.path}\``).join(', ')} | ${src.licence} | ${sents.length} | ${counts.PER} / ${counts.LOC} / ${counts.ORG} |`,
    );
    console.log(`${src.id}: ${sents.length} sentences, PER ${counts.PER} LOC ${counts.LOC} ORG ${counts.ORG}`);
  }
  writeFileSync(join(OUT, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(join(OUT, 'SOURCES.md'), sourcesMd(rows));
}

function sourcesMd(rows: string[]): string {
  return `# Named-entity training and evaluation data

Written by \`node scripts/detect/build-ner-data.ts\` (do not edit by hand; the source list is
\`scripts/detect/ner-sources.ts\`). One gzipped JSONL file per source, one sentence a line:
\`{"text": "…", "spans": [[start, end, "PER" | "LOC" | "ORG"], …], "lang": "en"}\`; offsets are JavaScript
string indices into \`text\`.

Each file is a sample of a public, human-annotated corpus at a pinned commit: its sentences in a fixed
pseudo-random order (FNV-1a of the text), duplicates dropped, up to the cap below shared equally among the
source's files. Labels are mapped to PER, LOC and ORG; every other label (products, creative works, events,
"other") is left unlabelled. Each file keeps the licence of its source (the share-alike ones stay under
CC BY-SA; this folder is data, not the project's Apache-2.0 code), and is credited here.

The \`src/detect/eval\` leave-one-source-out table treats each file as one source, except that the
Parallel Universal Dependencies (PUD) languages form one source together: they are translations of the same
sentences, so one of them left out would still be seen in another.

| id | what | repository, commit | files | licence | sentences | PER / LOC / ORG |
|---|---|---|---|---|---:|---|
${rows.join('\n')}

Not used: NorNE (its Norwegian texts may not be republished as stand-alone texts, only the annotations are
CC0), GermEval 2014 (no copy at a public repository with its licence found), CoNLL-2003 (Reuters licence),
WikiANN (no licence of its own). Measured and left out: Universal NER Serbian SETimes
(UniversalNER/UNER_Serbian-SET \`0d9685f001c1\`, CC BY-SA 4.0; half its sentences translate Croatian SETimes
ones, so it could only join that family, and the leave-one-source-out figures moved within noise). Never used: the reserved sources of the detection corpus
(Presidio's tests, presidio-research, …).
`;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
