// node scripts/detect/build-structured-data.ts --repos DIR
//
// Rebuilds datasets/detect/structured/cases.jsonl.gz — phone numbers, other structured PII and secrets as
// other people labelled them, in their own test suites — from public repositories at pinned commits, and
// its SOURCES.md. DIR holds one git clone per repository, named `owner+name` (bare or not, or a `repo`
// folder inside one): `git clone --bare https://github.com/OWNER/NAME DIR/OWNER+NAME`. Deterministic: the
// same commits give the same file.
//
// Two kinds of case, one JSON object a line:
// - span cases (`entities`, `checked`): a text with every value of the checked types marked, as
//   [start, end, TYPE] (JavaScript string indices, end exclusive); a checked type found outside the marks
//   is a false positive. A case with no entity is a negative: the source says nothing of its types is there.
// - secret cases (`secret`): a rule's example that its authors say holds a credential (`secret` is our type
//   for it, or "ANY" where we have no type of that vendor), or one they say must not match (`secret: null`).
//   The sources give no offsets, so these are scored per case (src/detect/eval/structured.ts).
// Every case names its `family`, the unit held out (every family here is: no detector was written from
// them), and its `source` (repository@commit:path, and the rule id for secrets).
//
// Never a reserved source of issue #37 (microsoft/presidio*, protectai/llm-guard tests, gitleaks rule
// fixtures, secretlint fixtures, Yelp/detect-secrets tests).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { REPO } from './frozen.ts';

export interface StructuredCase {
  id: string;
  family: string;
  source: string;
  lang: string;
  text: string;
  /** Span cases: the labelled values and the types the source labels exhaustively. */
  entities?: Array<[number, number, string]>;
  checked?: string[];
  /** Secret cases: our type of the credential, "ANY", or null for an example that must not match. */
  secret?: string | null;
}

interface Repo {
  repo: string;
  commit: string;
  licence: string;
  notice: string;
}

export const STRUCTURED_REPOS: Record<string, Repo> = {
  'recognizers-text': {
    repo: 'microsoft/Recognizers-Text',
    commit: '90e968ea44dc8fda3f2e1c3e4b20aa233817488d',
    licence: 'MIT',
    notice: 'Copyright (c) Microsoft Corporation',
  },
  duckling: {
    repo: 'facebook/duckling',
    commit: '2c226585af5b9f4985d9c7151d7191603bb2add7',
    licence: 'BSD-3-Clause',
    notice: 'Copyright (c) 2016-present, Facebook, Inc.',
  },
  noseyparker: {
    repo: 'praetorian-inc/noseyparker',
    commit: '2e6e7f36ce36619852532bbe698d8cb7a26d2da7',
    licence: 'Apache-2.0',
    notice: 'Copyright 2022 Praetorian Security, Inc (its NOTICE)',
  },
  kingfisher: {
    repo: 'mongodb/kingfisher',
    commit: 'ee7c0db3ef87575768f817820c24736249ffcdef',
    licence: 'Apache-2.0',
    notice: 'no copyright line; published by MongoDB, its rules derived from Nosey Parker',
  },
  scrubadub: {
    repo: 'LeapBeyond/scrubadub',
    commit: '53772cbef417da290d25c95373031f786ab3b5c6',
    licence: 'Apache-2.0',
    notice: 'Copyright 2015 Datascope Analytics',
  },
  ripsecrets: {
    repo: 'sirwart/ripsecrets',
    commit: '416e9d04d6ba8941fc3106bf986b6c8aa875767e',
    licence: 'MIT',
    notice: 'Copyright 2022 Brian Smith',
  },
};

const OUT = join(REPO, 'datasets', 'detect', 'structured');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function gitDir(reposDir: string, repo: string): string {
  const [owner, name] = repo.split('/') as [string, string];
  for (const dir of [
    join(reposDir, `${owner}+${name}`, 'repo'),
    join(reposDir, `${owner}+${name}`),
    join(reposDir, owner, name),
  ])
    if (existsSync(dir)) return dir;
  throw new Error(`no clone of ${repo} under ${reposDir}`);
}

function git(dir: string, args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

class Source {
  readonly dir: string;
  readonly r: Repo;
  constructor(reposDir: string, r: Repo) {
    this.r = r;
    this.dir = gitDir(reposDir, r.repo);
  }
  files(under: string): string[] {
    return git(this.dir, ['ls-tree', '-r', '--name-only', this.r.commit, under]).split('\n').filter(Boolean).sort();
  }
  read(path: string): string {
    return git(this.dir, ['show', `${this.r.commit}:${path}`]).replace(/^\uFEFF/, '');
  }
  at(path: string): string {
    return `${this.r.repo}@${this.r.commit.slice(0, 12)}:${path}`;
  }
}

// ---- microsoft/Recognizers-Text: Specs/Sequence/<Language>/<Model>.json

const RT_MODELS: Record<string, { type: string; typeName: string }> = {
  PhoneNumberModel: { type: 'PHONE_NUMBER', typeName: 'phonenumber' },
  EmailModel: { type: 'EMAIL_ADDRESS', typeName: 'email' },
  IpAddressModel: { type: 'IP_ADDRESS', typeName: 'ip' },
  URLModel: { type: 'URL', typeName: 'url' },
};

const LANG: Record<string, string> = {
  Chinese: 'zh',
  Dutch: 'nl',
  English: 'en',
  French: 'fr',
  German: 'de',
  Hindi: 'hi',
  Italian: 'it',
  Japanese: 'ja',
  Korean: 'ko',
  Portuguese: 'pt',
  Spanish: 'es',
  Turkish: 'tr',
};

interface RtCase {
  Input: string;
  Results: Array<{ Text: string; Start?: number; End?: number; TypeName: string }>;
}

function recognizersText(src: Source, family: string): StructuredCase[] {
  const out: StructuredCase[] = [];
  for (const path of src.files('Specs/Sequence')) {
    const m = /^Specs\/Sequence\/(\w+)\/(\w+)\.json$/.exec(path);
    const model = m && RT_MODELS[m[2]!];
    if (!m || !model) continue;
    const cases = JSON.parse(src.read(path)) as RtCase[];
    cases.forEach((c, i) => {
      const entities: Array<[number, number, string]> = [];
      let from = 0;
      for (const r of c.Results) {
        if (r.TypeName !== model.typeName) throw new Error(`${path}#${i}: type ${r.TypeName}`);
        // End is inclusive where given; without offsets, the first occurrence after the previous result
        let start = r.Start !== undefined && c.Input.slice(r.Start, r.Start + r.Text.length) === r.Text ? r.Start : -1;
        if (start < 0) start = c.Input.indexOf(r.Text, from);
        // the reference implementation lower-cases some results ("x" of an extension)
        if (start < 0 && c.Input.toLowerCase().length === c.Input.length)
          start = c.Input.toLowerCase().indexOf(r.Text.toLowerCase(), from);
        if (start < 0) throw new Error(`${path}#${i}: ${r.Text} not in its input`);
        entities.push([start, start + r.Text.length, model.type]);
        from = start + r.Text.length;
      }
      out.push({
        id: `${family}/${m[1]}/${m[2]}/${i}`,
        family,
        source: src.at(path),
        lang: LANG[m[1]!] ?? m[1]!,
        text: c.Input,
        entities,
        checked: [model.type],
      });
    });
  }
  return out;
}

// ---- facebook/duckling: Duckling/<Dimension>/[<LANG>/]Corpus.hs — each example is a whole text that is
// one value; each negative-corpus string holds none.

const DUCKLING_DIMENSIONS: Record<string, string> = {
  PhoneNumber: 'PHONE_NUMBER',
  Email: 'EMAIL_ADDRESS',
  Url: 'URL',
  CreditCardNumber: 'CREDIT_CARD',
};

/** The string literals of Haskell source that are elements of a list (after `[` or `,`), with their block. */
export function haskellListStrings(source: string): Array<{ block: string; text: string }> {
  const src = '\n' + source; // a definition on the first line starts a block too
  const out: Array<{ block: string; text: string }> = [];
  let block = '';
  let prev = '';
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (ch === '-' && src[i + 1] === '-') {
      while (i < src.length && src[i] !== '\n') i++;
      prev = '';
      continue;
    }
    if (ch === '\n' && /[a-z]/.test(src[i + 1] ?? '')) {
      block = /^[A-Za-z0-9_']+/.exec(src.slice(i + 1))![0];
      prev = '';
      continue;
    }
    if (ch === '"') {
      let s = '';
      let j = i + 1;
      for (; src[j] !== '"'; j++) {
        if (src[j] !== '\\') {
          s += src[j];
          continue;
        }
        const e = src[++j]!;
        if (/[0-9]/.test(e)) {
          const d = /^[0-9]+/.exec(src.slice(j))![0];
          s += String.fromCodePoint(Number(d));
          j += d.length - 1;
        } else if (e === 'x') {
          const d = /^[0-9a-fA-F]+/.exec(src.slice(j + 1))![0];
          s += String.fromCodePoint(parseInt(d, 16));
          j += d.length;
        } else if (e === '&') continue;
        else s += ({ n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" } as Record<string, string>)[e] ?? e;
      }
      if (prev === '[' || prev === ',') out.push({ block, text: s });
      prev = '"';
      i = j;
      continue;
    }
    if (!/\s/.test(ch)) prev = ch;
  }
  return out;
}

function duckling(src: Source, family: string): StructuredCase[] {
  const out: StructuredCase[] = [];
  for (const path of src.files('Duckling')) {
    const m = /^Duckling\/(\w+)\/(?:(\w+)\/)?Corpus\.hs$/.exec(path);
    const type = m && DUCKLING_DIMENSIONS[m[1]!];
    if (!m || !type) continue;
    haskellListStrings(src.read(path)).forEach(({ block, text }, i) => {
      if (block !== 'allExamples' && block !== 'negativeCorpus') return;
      const lead = text.length - text.trimStart().length;
      const end = text.trimEnd().length;
      out.push({
        id: `${family}/${m[1]}/${m[2] ?? 'all'}/${i}`,
        family,
        source: src.at(path),
        lang: (m[2] ?? 'en').toLowerCase(),
        text,
        entities: block === 'allExamples' ? [[lead, end, type]] : [],
        checked: [type],
      });
    });
  }
  return out;
}

// ---- LeapBeyond/scrubadub: the BEFORE / AFTER pairs of its detector tests' docstrings, where AFTER writes
// each value it must find as {{TYPE}}

const SCRUBADUB_TYPES: Record<string, string> = {
  PHONE: 'PHONE_NUMBER',
  SOCIAL_SECURITY_NUMBER: 'US_SSN',
  EMAIL: 'EMAIL_ADDRESS',
  URL: 'URL',
  CREDIT_CARD: 'CREDIT_CARD',
  NATIONAL_INSURANCE_NUMBER: 'UK_NINO',
};

/** A Python string's text, its escapes read (\n, \t, \', \", \\). */
function pyUnescape(s: string): string {
  return s.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t' })[c as 'n' | 't'] ?? c);
}

/** BEFORE aligned with AFTER: the gaps AFTER writes as {{TYPE}}; undefined when they do not line up. */
export function alignBeforeAfter(before: string, after: string): Array<[number, number, string]> | undefined {
  const parts = after.split(/\{\{([A-Z_]+)\}\}/);
  if (!before.startsWith(parts[0]!)) return undefined;
  const out: Array<[number, number, string]> = [];
  let at = parts[0]!.length;
  for (let k = 1; k < parts.length; k += 2) {
    const next = parts[k + 1]!;
    let end: number;
    if (k + 2 >= parts.length) {
      if (!before.endsWith(next) || before.length - next.length <= at) return undefined;
      end = before.length - next.length;
    } else {
      if (next === '') return undefined; // two values side by side: no boundary between them
      end = before.indexOf(next, at + 1);
      if (end < 0) return undefined;
    }
    out.push([at, end, parts[k]!]);
    at = end + next.length;
  }
  return out;
}

const DOCSTRING_PAIR = /BEFORE:([^\n]*(?:\n(?![ \t]*AFTER:)[^\n]*)*)\n[ \t]*AFTER:([\s\S]*?)"""/g;

function scrubadub(src: Source, family: string): StructuredCase[] {
  const out: StructuredCase[] = [];
  for (const path of src.files('tests')) {
    if (!/^tests\/test_detector_\w+\.py$/.test(path)) continue;
    const body = src.read(path);
    const pairs: Array<[string, string]> = [];
    for (const m of body.matchAll(DOCSTRING_PAIR)) {
      const before = pyUnescape(m[1]!.trim());
      const after = pyUnescape(m[2]!.trim());
      if (!before.includes('%s')) {
        pairs.push([before, after]);
        continue;
      }
      // a template the test fills with each value of its calls: self.check_phone_numbers('…', '…')
      for (const call of body.matchAll(/self\.check_\w+\(([\s\S]*?)\n\s*\)/g))
        for (const lit of call[1]!.matchAll(/'((?:[^'\\]|\\.)*)'/g)) {
          const v = pyUnescape(lit[1]!);
          pairs.push([before.replace('%s', v), after.replace('%s', v)]);
        }
    }
    pairs.forEach(([before, after], i) => {
      const gaps = alignBeforeAfter(before, after);
      if (!gaps) return;
      const entities = gaps
        .filter(([, , t]) => SCRUBADUB_TYPES[t])
        .map(([s0, e0, t]): [number, number, string] => [s0, e0, SCRUBADUB_TYPES[t]!]);
      if (entities.length === 0) return;
      out.push({
        id: `${family}/${path}/${i}`,
        family,
        source: src.at(path),
        lang: 'en',
        text: before,
        entities,
        checked: [...new Set(entities.map((e) => e[2]))].sort(),
      });
    });
  }
  return out;
}

// ---- secrets: rule examples (noseyparker, kingfisher) and ripsecrets' test files

/** Our type for a rule's credential by the rule's name; "ANY" where we have none of that vendor. */
export function secretTypeOfRule(name: string): string {
  const rules: Array<[RegExp, string]> = [
    [/^AWS (API Key|Access Key ID)/i, 'AWS_ACCESS_KEY'],
    [/^AWS Secret Access Key/i, 'AWS_SECRET_KEY'],
    [/^GitHub .*Token/i, 'GITHUB_TOKEN'],
    [/^GitLab .*Token/i, 'GITLAB_TOKEN'],
    [/^Slack Webhook/i, 'SLACK_WEBHOOK'],
    [/^Slack .*Token/i, 'SLACK_TOKEN'],
    [/^Stripe .*Key/i, 'STRIPE_KEY'],
    [/^(npm|NPM) .*Token/, 'NPM_TOKEN'],
    [/^OpenAI .*Key/i, 'OPENAI_API_KEY'],
    [/^Anthropic .*Key/i, 'ANTHROPIC_API_KEY'],
    [/^Hugging ?Face .*Token/i, 'HUGGINGFACE_TOKEN'],
    [/^Google API Key/i, 'GOOGLE_API_KEY'],
    [/^(Google|GCP) .*Service Account/i, 'GCP_SERVICE_ACCOUNT_KEY'],
    [/^JSON Web Token|^JWT\b/i, 'JWT'],
    [
      /Private Key$|^PEM-Encoded Private Key|^PKCS ?#?8 Private Key|^RSA Private Key|^OpenSSH Private Key/i,
      'PRIVATE_KEY',
    ],
  ];
  for (const [re, t] of rules) if (re.test(name)) return t;
  return 'ANY';
}

/** A rule that names an identifier rather than a credential (kept out: its examples are neither). */
function identifierRule(name: string, categories: readonly string[] | undefined, visible: unknown): boolean {
  if (secretTypeOfRule(name) !== 'ANY') return false;
  if (categories?.includes('identifier') && !categories.includes('secret')) return true;
  if (visible === false) return true;
  return /\b(Client ID|App(lication)? ID|Account (ID|Name|Identifier)|Username|User ?name|Domain|Host|URL|Bucket|Org(anization)? (Name|ID)|Product ID|Bot ID|Instance|Email|Public Key|Recipient|Resource Name)$/i.test(
    name,
  );
}

interface YamlRule {
  id: string;
  name: string;
  categories?: string[];
  visible?: boolean;
  examples?: string[];
  negative_examples?: string[];
}

function ruleExamples(
  src: Source,
  family: string,
  under: string,
): { cases: StructuredCase[]; left: string[]; contradicted: number } {
  const out: StructuredCase[] = [];
  const left: string[] = [];
  for (const path of src.files(under)) {
    if (!/\.ya?ml$/.test(path)) continue;
    const doc = parseYaml(src.read(path)) as { rules?: YamlRule[] } | null;
    for (const r of doc?.rules ?? []) {
      if (identifierRule(r.name, r.categories, r.visible)) {
        left.push(`${r.id} (${r.name})`);
        continue;
      }
      const type = secretTypeOfRule(r.name);
      const push = (text: unknown, i: number, secret: string | null) => {
        if (typeof text !== 'string' || !text.trim()) return;
        out.push({
          id: `${family}/${r.id}/${secret === null ? 'neg' : 'pos'}/${i}`,
          family,
          source: `${src.at(path)} ${r.id}`,
          lang: 'code',
          text,
          secret,
        });
      };
      (r.examples ?? []).forEach((t, i) => push(t, i, type));
      (r.negative_examples ?? []).forEach((t, i) => push(t, i, null));
    }
  }
  // a rule's negative example that another rule of the source gives as an example holds a credential
  const positive = new Set(out.filter((c) => c.secret !== null).map((c) => c.text));
  const contradicted = out.filter((c) => c.secret === null && positive.has(c.text)).length;
  return { cases: out.filter((c) => c.secret !== null || !positive.has(c.text)), left, contradicted };
}

const RIPSECRETS_TYPES: Record<string, string> = {
  gcp: 'GOOGLE_API_KEY',
  github: 'GITHUB_TOKEN',
  gitlab: 'GITLAB_TOKEN',
  jwt: 'JWT',
  stripe: 'STRIPE_KEY',
  pem_key: 'PRIVATE_KEY',
  private_key: 'PRIVATE_KEY',
};

function ripsecrets(src: Source, family: string): StructuredCase[] {
  const out: StructuredCase[] = [];
  for (const path of src.files('test')) {
    const name = path.split('/').pop()!;
    const body = src.read(path);
    const mk = (text: string, i: number, secret: string | null): StructuredCase => ({
      id: `${family}/${path}/${i}`,
      family,
      source: src.at(path),
      lang: 'code',
      text,
      secret,
    });
    if (path === 'test/none') body.split('\n').forEach((l, i) => l.trim() && out.push(mk(l, i, null)));
    else if (path.startsWith('test/one_per_line/'))
      body.split('\n').forEach((l, i) => l.trim() && out.push(mk(l, i, RIPSECRETS_TYPES[name] ?? 'ANY')));
    else if (path.startsWith('test/one_per_file/')) out.push(mk(body, 0, RIPSECRETS_TYPES[name] ?? 'ANY'));
  }
  return out;
}

// ---- build

function dedupe(cases: StructuredCase[]): StructuredCase[] {
  const seen = new Set<string>();
  return cases.filter((c) => {
    const k = JSON.stringify([c.family, c.text, c.entities ?? null, c.checked ?? null, c.secret ?? null]);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function main(): void {
  const reposDir = arg('repos');
  if (!reposDir) throw new Error('usage: node scripts/detect/build-structured-data.ts --repos DIR');
  const src = (f: string) => new Source(reposDir, STRUCTURED_REPOS[f]!);
  const np = ruleExamples(src('noseyparker'), 'noseyparker', 'crates/noseyparker/data/default/builtin/rules');
  const kf = ruleExamples(src('kingfisher'), 'kingfisher', 'data/rules');
  const cases = dedupe([
    ...recognizersText(src('recognizers-text'), 'recognizers-text'),
    ...duckling(src('duckling'), 'duckling'),
    ...scrubadub(src('scrubadub'), 'scrubadub'),
    ...np.cases,
    ...kf.cases,
    ...ripsecrets(src('ripsecrets'), 'ripsecrets'),
  ]);
  mkdirSync(OUT, { recursive: true });
  const body = cases.map((c) => JSON.stringify(c)).join('\n') + '\n';
  writeFileSync(join(OUT, 'cases.jsonl.gz'), gzipSync(Buffer.from(body, 'utf8'), { level: 9 }));
  const sha = createHash('sha256').update(body).digest('hex');
  const npTexts = new Set(np.cases.map((c) => c.text));
  const shared = kf.cases.filter((c) => npTexts.has(c.text)).length;
  writeFileSync(join(OUT, 'SOURCES.md'), sourcesMd(cases, sha, np, kf, shared));
  process.stdout.write(`${cases.length} cases, sha256 ${sha}\n`);
}

function sourcesMd(
  cases: StructuredCase[],
  sha: string,
  np: { left: string[]; contradicted: number },
  kf: { left: string[]; contradicted: number },
  shared: number,
): string {
  const rows: string[] = [];
  for (const [family, r] of Object.entries(STRUCTURED_REPOS)) {
    const of = cases.filter((c) => c.family === family);
    const counts = new Map<string, number>();
    for (const c of of) {
      const k =
        c.secret !== undefined
          ? c.secret === null
            ? 'must not match'
            : `secret ${c.secret}`
          : c.entities!.length
            ? c.entities![0]![2]
            : `no ${c.checked![0]}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const what = [...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    rows.push(
      `| \`${family}\` | [${r.repo}](https://github.com/${r.repo}) \`${r.commit.slice(0, 12)}\` | ${r.licence} (${r.notice}) | ${of.length} | ${what} |`,
    );
  }
  return `# Structured PII and secrets as other people labelled them

Written by \`node scripts/detect/build-structured-data.ts --repos DIR\` (do not edit by hand). One gzipped
JSONL file, \`cases.jsonl.gz\` (sha256 of the uncompressed text \`${sha}\`), one case a line; scored by
\`npm run eval -- --only structured\` (src/detect/eval/structured.ts). Each family is one repository's own
test data, at a pinned commit; no detector here was written from any of them, so every family is held out.

| family | repository, commit | licence | cases | what (entities of the first type / cases) |
|---|---|---|---:|---|
${rows.join('\n')}

Each case keeps its source's licence (all permissive: MIT, BSD-3-Clause, Apache-2.0; the notices above are
the copyright lines of each repository's LICENSE or NOTICE); \`source\` names repository, commit and path (and the rule
id). Only the test strings and their labels are copied, not the code around them.

## Label rules

- **Recognizers-Text** (\`Specs/Sequence/<Language>/{PhoneNumber,Email,IpAddress,URL}Model.json\`): each
  \`Input\` is a case, each of its \`Results\` an entity (phonenumber → PHONE_NUMBER, email → EMAIL_ADDRESS,
  ip → IP_ADDRESS, url → URL) at its \`Start\` (the \`End\` there is inclusive) or, without one, the first
  occurrence of its \`Text\` (ignoring case) after the previous result. An input without results is a negative of its type.
  The file's type is the only checked one: a phone found in the URL file is not counted. Cases the
  reference implementation marks \`NotSupported\` on some platforms are kept (the label is the spec's).
  GUID, hashtag, mention and quoted-text models are not read: we have no such types.
- **Duckling** (\`Duckling/{PhoneNumber,Email,Url,CreditCardNumber}/[<LANG>/]Corpus.hs\`): each example
  string of \`allExamples\` is one value filling the text (PHONE_NUMBER, EMAIL_ADDRESS, URL, CREDIT_CARD);
  each string literal of \`negativeCorpus\` holds none (strings built by code, like \`T.replicate …\`, are
  not read). Examples are bare values, without a sentence around them; the e-mail examples include spelt
  forms (\`alice at exAmple.io\`), as Duckling's authors label them.
- **scrubadub** (\`tests/test_detector_*.py\`): each docstring's \`BEFORE:\` text is a case, its \`AFTER:\`
  text says where the values are (\`{{PHONE}}\` → PHONE_NUMBER, \`{{SOCIAL_SECURITY_NUMBER}}\` → US_SSN,
  \`{{EMAIL}}\` → EMAIL_ADDRESS, \`{{URL}}\` → URL, \`{{CREDIT_CARD}}\` → CREDIT_CARD,
  \`{{NATIONAL_INSURANCE_NUMBER}}\` → UK_NINO; the others, such as names, Skype or Twitter handles and dates of
  birth, are not read), found by aligning the two texts; a docstring template filled by the test's calls
  (\`self.check_phone_numbers('…', …)\`) gives one case per value. Only the types a case labels are checked in it.
- **Nosey Parker** (\`crates/noseyparker/data/default/builtin/rules/*.yml\`) and **Kingfisher**
  (\`data/rules/*.yml\`): each rule's \`examples\` are texts holding a credential, its
  \`negative_examples\` texts that the rule must not match (\`secret: null\`). A rule's credential is given
  our type by the rule's name (scripts/detect/build-structured-data.ts, \`secretTypeOfRule\`), or \`ANY\`
  where we have no type of that vendor. Rules about identifiers rather than credentials (Nosey Parker's
  category \`identifier\` without \`secret\`, Kingfisher's \`visible: false\` helper rules, names ending in
  Client ID, Username, Domain, URL, Bucket and the like) are left out: ${np.left.length} of Nosey Parker's
  and ${kf.left.length} of Kingfisher's. A negative example of one rule that another rule of the same source gives
  as an example is no negative (the source says it holds a credential): ${np.contradicted} of Nosey Parker's and
  ${kf.contradicted} of Kingfisher's are dropped. Kingfisher's rules began as a copy of Nosey Parker's: ${shared} of its
  example texts are also Nosey Parker's (kept in both families; a family is scored on its own).
  A negative example is the source's word that *that rule* must not match, not that no credential is
  there: some are near-misses of one rule that are still credential-shaped.
- **ripsecrets** (\`test/\`): each line of \`test/none\` is a text with no secret (ripsecrets' own
  expectation; its first line is a Stripe-shaped key marked \`pragma: allowlist secret\`); each line of
  \`test/one_per_line/<vendor>\` and each file of \`test/one_per_file/\` holds one secret, typed by the
  file's name where we have that vendor's type, else \`ANY\`.

Identical cases within a family are kept once.
`;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
