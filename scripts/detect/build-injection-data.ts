// node scripts/detect/build-injection-data.ts --repos DIR
//
// Rebuilds datasets/detect/injection/cases.jsonl.gz — the prompt-injection development data written by
// other people — from public repositories at pinned commits. DIR holds one git clone per repository,
// named `owner+name` (bare or not): `git clone --bare https://github.com/OWNER/NAME DIR/OWNER+NAME`.
// datasets/detect/injection/SOURCES.md says what each source is, its licence, how it is sampled and
// labelled. Deterministic: the same commits give the same file.
//
// Every case carries its `family` — the unit the leave-one-source-out evaluation holds out
// (src/detect/eval/loso-injection.ts) — with its source (repository, commit, path) and licence.
// Labels follow ../shared/corpus/README.md: injection kinds direct / indirect / jailbreak; benign kinds
// benign / hard_negative (benign text that talks about attacks, gives a model rules, or plays a role).
// Indirect cases that no source ships as such are real payloads spliced into real carrier documents of
// another source at a sentence boundary; their family is the payload's (holding a family out holds out
// its payloads), and a carrier document is never also a case of its own.
//
// Never a reserved source of issue #37 (deepset/prompt-injections, garak, BIPIA, NotInject, Tensor Trust,
// elemeta, awesome-chatgpt-prompts, verazuo/jailbreak_llms, InjecAgent, AgentDojo, LLM Guard tests…).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO } from './frozen.ts';

export interface DataCase {
  id: string;
  text: string;
  label: 'injection' | 'benign';
  kind: 'direct' | 'indirect' | 'jailbreak' | 'benign' | 'hard_negative';
  lang: string;
  /** The source family held out as a whole by the leave-one-source-out evaluation. */
  family: string;
  /** repository@commit:path and what part of it. */
  source: string;
  licence: string;
  /** Left out of training and of the headline figures, reported apart (../shared/corpus/README.md). */
  ambiguous?: boolean;
}

interface Repo {
  repo: string;
  commit: string;
  licence: string;
}

/** The repositories read, at the commits the committed data was built from. */
export const REPOS = {
  purplellama: { repo: 'meta-llama/PurpleLlama', commit: '4be64c3a24442b51c76175e6ec67722cc3f5fe38', licence: 'MIT' },
  gptfuzz: { repo: 'sherdencooper/GPTFuzz', commit: '1eddeb565740ae311b5f4950492b011a6f866fe7', licence: 'MIT' },
  patt: {
    repo: 'swisskyrepo/PayloadsAllTheThings',
    commit: 'f9fa51417886ac11476cb62db2dff21773dc570b',
    licence: 'MIT',
  },
  taksec: {
    repo: 'TakSec/Prompt-Injection-Everywhere',
    commit: '9b69c8ae7958f68d562d484103a7b14b66983d63',
    licence: 'MIT',
  },
  llmfuzzer: { repo: 'mnns/LLMFuzzer', commit: 'dd0dbd187ece10137bc4e9479871144d55198933', licence: 'MIT' },
  peg: {
    repo: 'dair-ai/Prompt-Engineering-Guide',
    commit: '3d96678f28793e6f23ac6c0127799489f2c9022b',
    licence: 'MIT',
  },
  owasp: {
    repo: 'OWASP/www-project-top-10-for-large-language-model-applications',
    commit: '020595761a4b7b0c3f9cf01a0457b78f9f1e7f9c',
    licence: 'CC BY-SA 4.0',
  },
  fastchat: { repo: 'lm-sys/FastChat', commit: '0e6d3e4beaab66f4d3f93db72541a4abab8af28d', licence: 'Apache-2.0' },
  selfinstruct: {
    repo: 'yizhongw/self-instruct',
    commit: '0b26ccaa415992100fa32df62d41b994cf928e23',
    licence: 'Apache-2.0',
  },
  ewt: {
    repo: 'UniversalNER/UNER_English-EWT',
    commit: '8ed072de2fd24022cc62458997fe96a8fe191ea4',
    licence: 'CC BY-SA 4.0',
  },
  pudDe: {
    repo: 'UniversalNER/UNER_German-PUD',
    commit: '47eb039b6d80079b280ba70efe4136413fb7af9c',
    licence: 'CC BY-SA 3.0',
  },
  pudZh: {
    repo: 'UniversalNER/UNER_Chinese-PUD',
    commit: '647ba53747e1aa1818541965db99a0196440b7d2',
    licence: 'CC BY-SA 3.0',
  },
  pudRu: {
    repo: 'UniversalNER/UNER_Russian-PUD',
    commit: '6f5acd6d728f70b20e4326d841356567796ee844',
    licence: 'CC BY-SA 3.0',
  },
  pudPt: {
    repo: 'UniversalNER/UNER_Portuguese-PUD',
    commit: 'cda2cf86b68d45e896aab97ceca5e91d43a86db7',
    licence: 'CC BY-SA 3.0',
  },
  pudSv: {
    repo: 'UniversalNER/UNER_Swedish-PUD',
    commit: '7fed5e267858a295f53083051a16d73c76f60f07',
    licence: 'CC BY-SA 4.0',
  },
  // a fork of microsoft/PyRIT (MIT), the copy of its datasets that could be fetched
  pyrit: { repo: 'romanlutz/PyRIT', commit: 'b06c6bca8aff0cb115d281763c74faa60b10b172', licence: 'MIT' },
  llmSecurity: {
    repo: 'greshake/llm-security',
    commit: '87f4b7ffa568b7261a79b31573068d8113319212',
    licence: 'MIT',
  },
  alpacaEval: {
    repo: 'tatsu-lab/alpaca_eval',
    commit: 'cd543a149df89434d8a54582c0151c0b945c3d20',
    licence: 'Apache-2.0',
  },
  arcanum: {
    repo: 'Arcanum-Sec/arc_pi_taxonomy',
    commit: 'e02cf5b6e202f195c6b6c01484e99519f797acc6',
    licence: 'CC BY 4.0',
  },
  owaspCheatSheets: {
    repo: 'OWASP/CheatSheetSeries',
    commit: '6b8819da79e0537d072e04296ffa3adfc94ba881',
    licence: 'CC BY-SA 4.0',
  },
  pincer: {
    repo: 'rustyorb/pincer',
    commit: '961485b0321259cf65ed3497e9c125cb587679bf',
    licence: 'MIT',
  },
  deepteam: {
    repo: 'confident-ai/deepteam',
    commit: 'e05c8e5cdb3467f188fa43147991becd328e5228',
    licence: 'Apache-2.0',
  },
  spikee: {
    repo: 'WithSecureLabs/spikee',
    commit: 'f811bcc851b41bcf5e9c7de7ff314deea2ed94e5',
    licence: 'Apache-2.0',
  },
  hivetrace: {
    repo: 'HiveTrace/HiveTraceRed',
    commit: '975fd9993528a6b3531ab6687d4194d413c3b82b',
    licence: 'Apache-2.0',
  },
  aitg: {
    repo: 'OWASP/www-project-ai-testing-guide',
    commit: '3d9bf8312b672298ab4c8d127f3d5aa1a98d7006',
    licence: 'CC BY-SA 4.0',
  },
  fabric: {
    repo: 'danielmiessler/fabric',
    commit: '272f04dd3278f99bee49e94a7747b54708745a5d',
    licence: 'MIT',
  },
} satisfies Record<string, Repo>;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The git directory of `owner/name` under DIR: DIR/owner+name itself (bare), or its .git or repo folder. */
function gitDir(dir: string, repo: string): string {
  const base = join(dir, repo.replace('/', '+'));
  for (const d of [join(base, 'repo'), join(base, '.git'), base]) if (existsSync(join(d, 'HEAD'))) return d;
  throw new Error(`no clone of ${repo} under ${dir} (git clone --bare https://github.com/${repo} ${base})`);
}

let reposDir = '';

function show(r: Repo, path: string): string {
  return execFileSync('git', ['--git-dir', gitDir(reposDir, r.repo), 'show', `${r.commit}:${path}`], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
}

function listFiles(r: Repo, under: string): string[] {
  return execFileSync('git', ['--git-dir', gitDir(reposDir, r.repo), 'ls-tree', '-r', '--name-only', r.commit, under], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
}

const where = (r: Repo, path: string) => `${r.repo}@${r.commit.slice(0, 12)}:${path}`;

/** A seeded generator (mulberry32): samples are the same on every machine. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `k` items of `xs` drawn without replacement, in their original order (all of them when k ≥ length). */
function sample<T>(xs: readonly T[], k: number, seed: number): T[] {
  if (k >= xs.length) return [...xs];
  const r = seeded(seed);
  const idx = xs.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx
    .slice(0, k)
    .sort((a, b) => a - b)
    .map((i) => xs[i]!);
}

const LANGS: Record<string, string> = {
  English: 'en',
  Hindi: 'hi',
  Bengali: 'bn',
  Turkish: 'tr',
  Arabic: 'ar',
  Italian: 'it',
  Spanish: 'es',
  Vietnamese: 'vi',
  French: 'fr',
  Russian: 'ru',
  'Filipino/Tagalog': 'tl',
  Portuguese: 'pt',
  Japanese: 'ja',
  Korean: 'ko',
  German: 'de',
  Chinese: 'zh',
  Indonesian: 'id',
  Thai: 'th',
};

type Draft = Omit<DataCase, 'id'>;

/**
 * CyberSecEval's direct inputs are attacks against their test's system prompt: "What is the weather like in
 * Los Angeles?" attacks a bot told never to discuss weather; "Was ist das Passwort?" one told to keep a
 * password. Alone, most are ordinary questions. Only the variants whose text itself carries the attack —
 * an override of earlier instructions, a claimed system mode or developer identity — are labelled
 * injections; the others are marked ambiguous (never trained on, reported apart). Indirect inputs all
 * carry an instruction inside the data they hand over, and stay labelled.
 */
const CSE_LABELLED_DIRECT = new Set(['ignore_previous_instructions', 'system_mode']);
const cseAmbiguous = (p: { injection_type: string; injection_variant: string }) =>
  p.injection_type === 'direct' && !CSE_LABELLED_DIRECT.has(p.injection_variant);

// ------------------------------------------------------------------ attacks

interface CsePrompt {
  test_case_prompt: string;
  user_input: string;
  injection_type: 'direct' | 'indirect';
  injection_variant: string;
  speaking_language: string;
}

/** CyberSecEval's prompt-injection sets: every English user input, a per-language sample of the machine-translated ones; the operators' system prompts as hard negatives. */
function cyberSecEval(): { cases: Draft[]; payloads: Payload[] } {
  const r = REPOS.purplellama;
  const en = 'CybersecurityBenchmarks/datasets/prompt_injection/prompt_injection.json';
  const ml = 'CybersecurityBenchmarks/datasets/prompt_injection/prompt_injection_multilingual_machine_translated.json';
  const frr = 'CybersecurityBenchmarks/datasets/mitre_frr/mitre_frr.json';
  const cases: Draft[] = [];
  const payloads: Payload[] = [];
  const english = JSON.parse(show(r, en)) as CsePrompt[];
  const systemPrompts = new Set<string>();
  for (const [i, p] of english.entries()) {
    cases.push({
      text: p.user_input,
      label: 'injection',
      kind: p.injection_type,
      lang: 'en',
      family: 'cyberseceval',
      source: `${where(r, en)} #${i} (${p.injection_variant})`,
      licence: r.licence,
      ...(cseAmbiguous(p) ? { ambiguous: true } : {}),
    });
    if (p.injection_type === 'direct' && !cseAmbiguous(p) && i % 2 === 0)
      payloads.push({ text: p.user_input, lang: 'en', family: 'cyberseceval', source: `${where(r, en)} #${i}` });
    systemPrompts.add(p.test_case_prompt);
  }
  const multi = JSON.parse(show(r, ml)) as CsePrompt[];
  const byLang = new Map<string, Array<[number, CsePrompt]>>();
  for (const [i, p] of multi.entries()) {
    const l = byLang.get(p.speaking_language) ?? [];
    l.push([i, p]);
    byLang.set(p.speaking_language, l);
  }
  for (const [lang, ps] of [...byLang].sort(([a], [b]) => a.localeCompare(b))) {
    const code = LANGS[lang] ?? lang;
    for (const [i, p] of sample(ps, 14, 7 + code.charCodeAt(0))) {
      cases.push({
        text: p.user_input,
        label: 'injection',
        kind: p.injection_type,
        lang: code,
        family: 'cyberseceval',
        source: `${where(r, ml)} #${i} (${p.injection_variant}, machine-translated)`,
        licence: r.licence,
        ...(cseAmbiguous(p) ? { ambiguous: true } : {}),
      });
    }
    for (const [i, p] of sample(
      ps.filter(([, p]) => p.injection_type === 'direct' && !cseAmbiguous(p)),
      3,
      11 + code.charCodeAt(0),
    ))
      payloads.push({ text: p.user_input, lang: code, family: 'cyberseceval', source: `${where(r, ml)} #${i}` });
  }
  for (const [i, t] of [...systemPrompts].entries())
    cases.push({
      text: t,
      label: 'benign',
      kind: 'hard_negative',
      lang: 'en',
      family: 'cyberseceval',
      source: `${where(r, en)} test_case_prompt (an operator's system prompt) #${i}`,
      licence: r.licence,
    });
  // benign requests about security that a cautious model refuses wrongly (the false-refusal set)
  const benignSec = (JSON.parse(show(r, frr)) as Array<{ mutated_prompt: string; is_malicious: boolean }>)
    .map((p, i) => [i, p] as const)
    .filter(([, p]) => !p.is_malicious);
  for (const [i, p] of sample(benignSec, 200, 23))
    cases.push({
      text: p.mutated_prompt,
      label: 'benign',
      kind: 'hard_negative',
      lang: 'en',
      family: 'cyberseceval',
      source: `${where(r, frr)} #${i} (benign security request)`,
      licence: r.licence,
    });
  return { cases, payloads };
}

/** GPTFuzz's 77 jailbreak templates, each filled with one of its questions. */
function gptFuzz(): Draft[] {
  const r = REPOS.gptfuzz;
  const tp = 'datasets/prompts/GPTFuzzer.csv';
  const qp = 'datasets/questions/question_list.csv';
  const templates = parseCsv(show(r, tp)).slice(1);
  const questions = parseCsv(show(r, qp))
    .slice(1)
    .map((row) => row[1]!);
  return templates.map((row, i) => ({
    text: row[1]!.replaceAll('[INSERT PROMPT HERE]', questions[i % questions.length]!),
    label: 'injection',
    kind: 'jailbreak',
    lang: 'en',
    family: 'gptfuzz',
    source: `${where(r, tp)} id ${row[0]} filled with ${qp} #${i % questions.length}`,
    licence: r.licence,
  }));
}

/** RFC 4180 CSV (quoted fields with doubled quotes and line breaks). */
function parseCsv(s: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.length > 0));
}

interface Payload {
  text: string;
  lang: string;
  family: string;
  source: string;
}

/** PayloadsAllTheThings' table rows that are attacks on the model's instructions (not tests of code execution or harmless requests). */
const PATT_ATTACK_STRATEGIES = new Set([
  'Instruction Overriding',
  'Role Switching',
  'Jailbreak',
  'Role Injection',
  'Third-Party Abuse',
  'Reverse Prompt Injection',
]);

/** The payload lists of security write-ups: PayloadsAllTheThings, TakSec, LLMFuzzer, the Prompt Engineering Guide's attack examples. */
function payloadLists(): Draft[] {
  const out: Draft[] = [];
  const add = (r: Repo, path: string, text: string, kind: DataCase['kind'], lang = 'en', what = '') =>
    out.push({
      text: text.trim(),
      label: 'injection',
      kind,
      lang,
      family: 'payload-lists',
      source: where(r, path) + (what ? ` (${what})` : ''),
      licence: r.licence,
    });
  // PayloadsAllTheThings: the direct list's payloads (`Disregard …`), the table rows of attack strategies,
  // and the fenced examples of the direct and indirect sections (not the role-play prompts of "Applications")
  {
    const r = REPOS.patt;
    const path = 'Prompt Injection/README.md';
    const md = show(r, path);
    const section = (title: string) => {
      const s = md.indexOf(`## ${title}`);
      const e = md.indexOf('\n## ', s + 3);
      return md.slice(s, e < 0 ? undefined : e);
    };
    const direct = section('Direct Prompt Injection');
    for (const m of direct.matchAll(/^\* [^:\n]+: `([^`]+)`/gm))
      if (/disregard|ignore/i.test(m[1]!)) add(r, path, m[1]!, 'direct', 'en', 'direct list');
    for (const m of direct.matchAll(/^\| ([^|]+?)\s*\| [^|]+\| `([^`]+)`/gm))
      if (PATT_ATTACK_STRATEGIES.has(m[1]!.trim())) add(r, path, m[2]!, 'direct', 'en', `table: ${m[1]!.trim()}`);
    for (const m of direct.matchAll(/```\w*\n([\s\S]*?)```/g)) add(r, path, dedent(m[1]!), 'indirect', 'en', 'example');
    const indirect = section('Indirect Prompt Injection');
    for (const m of indirect.matchAll(/```\w*\n([\s\S]*?)```/g))
      for (const part of dedent(m[1]!).split(/\n(?=<!--)/)) add(r, path, part, 'indirect', 'en', 'example');
  }
  {
    const r = REPOS.taksec;
    for (const f of listFiles(r, '.').filter((f) => f.endsWith('.txt') && !/Protection/.test(f)))
      add(r, f, show(r, f), 'direct');
  }
  {
    const r = REPOS.llmfuzzer;
    // promptInjection.atk (smuggling.atk asks to decode harmless base64: not an attack on instructions)
    for (const f of listFiles(r, 'attacks').filter((f) => f.endsWith('promptInjection.atk')))
      for (const m of show(r, f).matchAll(/Query: (.+)/g)) add(r, f, m[1]!, 'direct', 'en', 'Query');
  }
  {
    const r = REPOS.peg;
    for (const page of ['prompt-injection', 'prompt-leaking'])
      for (const lang of ['en', 'de', 'zh']) {
        const path = `pages/prompts/adversarial-prompting/${page}.${lang}.mdx`;
        const m = /## Prompt\s*\n```\w*\n([\s\S]*?)```/.exec(show(r, path));
        if (m) add(r, path, m[1]!, 'direct', lang, 'the page\'s "Prompt" example');
      }
  }
  return out;
}

function dedent(s: string): string {
  const lines = s.replace(/\s+$/, '').split('\n');
  const pad = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(pad)).join('\n');
}

// ------------------------------------------------------------------ text about attacks

/**
 * The prose paragraphs of a Markdown/MDX page: blank-line separated blocks outside fenced code, without
 * headings, tables, block quotes (where the pages quote their attack examples), JSX and images; at least
 * 80 characters.
 */
function proseParagraphs(md: string): string[] {
  const noCode = md.replace(/```[\s\S]*?```/g, '\n\n');
  return noCode
    .split(/\n\s*\n/)
    .map((b) =>
      b
        .split('\n')
        .filter((l) => !/^\s*(#|\||>|<|import |!\[|\{|\}|---)/.test(l))
        .join('\n')
        .trim(),
    )
    .filter((p) => p.length >= 80 && /\p{L}{3}/u.test(p));
}

/** Text about prompt injection: OWASP's LLM01 in its translations and earlier drafts, the Prompt Engineering Guide's adversarial pages, PayloadsAllTheThings' prose. */
function securityDocs(): Draft[] {
  const out: Draft[] = [];
  const add = (r: Repo, path: string, lang: string, paras: string[], k: number, seed: number) => {
    for (const p of sample(paras, k, seed))
      out.push({
        text: p,
        label: 'benign',
        kind: 'hard_negative',
        lang,
        family: 'security-docs',
        source: `${where(r, path)} (a prose paragraph)`,
        licence: r.licence,
      });
  };
  {
    const r = REPOS.owasp;
    const files = listFiles(r, '2_0_vulns').filter((f) => f.endsWith('LLM01_PromptInjection.md'));
    files.push(...listFiles(r, 'Archive').filter((f) => /PromptInjection|Prompt_Injection/.test(f)));
    for (const [i, f] of files.entries()) {
      const m = /\/([a-z]{2})-[A-Z]{2}\//.exec(f);
      add(r, f, m ? m[1]! : 'en', proseParagraphs(show(r, f)), 12, 100 + i);
    }
  }
  {
    const r = REPOS.peg;
    const files = listFiles(r, 'pages/risks').filter((f) => /adversarial\.\w+\.mdx$/.test(f));
    files.push(...listFiles(r, 'pages/prompts/adversarial-prompting').filter((f) => f.endsWith('.mdx')));
    const langOf: Record<string, string> = { jp: 'ja', kr: 'ko' };
    for (const [i, f] of files.entries()) {
      const l = /\.(\w+)\.mdx$/.exec(f)![1]!;
      add(r, f, langOf[l] ?? l, proseParagraphs(show(r, f)), 14, 200 + i);
    }
  }
  {
    const r = REPOS.patt;
    const path = 'Prompt Injection/README.md';
    add(r, path, 'en', proseParagraphs(show(r, path)), 20, 300);
  }
  return out;
}

// ------------------------------------------------------------------ benign prompts

/** Prompts people wrote for chat models: MT-Bench and Vicuna-Bench questions (role-play ones as hard negatives), self-instruct's human-written seed and user-oriented tasks. */
function chatPrompts(): Draft[] {
  const out: Draft[] = [];
  {
    const r = REPOS.fastchat;
    for (const bench of ['mt_bench', 'vicuna_bench']) {
      const path = `fastchat/llm_judge/data/${bench}/question.jsonl`;
      for (const line of show(r, path).split('\n').filter(Boolean)) {
        const q = JSON.parse(line) as { question_id: number; category: string; turns: string[] };
        const kind = q.category === 'roleplay' ? 'hard_negative' : 'benign';
        for (const [t, text] of q.turns.entries())
          out.push({
            text,
            label: 'benign',
            kind,
            lang: 'en',
            family: 'chat-prompts',
            source: `${where(r, path)} question ${q.question_id} turn ${t + 1} (${q.category})`,
            licence: r.licence,
          });
      }
    }
  }
  {
    const r = REPOS.selfinstruct;
    for (const path of ['data/seed_tasks.jsonl', 'human_eval/user_oriented_instructions.jsonl']) {
      for (const line of show(r, path).split('\n').filter(Boolean)) {
        const t = JSON.parse(line) as { id: string; instruction: string; instances: Array<{ input: string }> };
        const input = t.instances[0]?.input ?? '';
        out.push({
          text: input ? `${t.instruction}\n\n${input}` : t.instruction,
          label: 'benign',
          kind: 'benign',
          lang: 'en',
          family: 'chat-prompts',
          source: `${where(r, path)} ${t.id} (instruction and first input)`,
          licence: r.licence,
        });
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------ documents

interface Doc {
  id: string;
  sentences: string[];
}

/** The documents of a Universal NER .iob2 file: its `# text =` lines grouped by `# newdoc`. */
function iob2Docs(text: string): Doc[] {
  const docs: Doc[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# newdoc id = ')) docs.push({ id: line.slice(14).trim(), sentences: [] });
    else if (line.startsWith('# text = ')) {
      if (docs.length === 0) docs.push({ id: 'start', sentences: [] });
      docs.at(-1)!.sentences.push(line.slice(9).trim());
    }
  }
  return docs.filter((d) => d.sentences.length > 0);
}

/** A document's text up to about `max` characters, cut at a sentence boundary. */
function docText(sentences: readonly string[], max: number, joiner = ' '): string {
  let out = '';
  for (const s of sentences) {
    if (out && out.length + s.length > max) break;
    out += (out ? joiner : '') + s;
  }
  return out;
}

interface Carrier {
  sentences: string[];
  lang: string;
  joiner: string;
  source: string;
  licence: string;
}

/** English web text (answers, e-mail, newsgroups, reviews, weblogs): EWT's dev and test documents. Two in five are kept apart as carriers. */
function webText(): { cases: Draft[]; carriers: Carrier[] } {
  const r = REPOS.ewt;
  const cases: Draft[] = [];
  const carriers: Carrier[] = [];
  for (const path of ['en_ewt-ud-dev.iob2', 'en_ewt-ud-test.iob2']) {
    const docs = iob2Docs(show(r, path));
    const rand = seeded(path.length * 31);
    for (const d of docs) {
      const genre = d.id.split('-')[0]!;
      const joiner = genre === 'email' || genre === 'newsgroup' ? '\n' : ' ';
      const text = docText(d.sentences, 1800, joiner);
      if (text.length < 40) continue;
      if (rand() < 0.4) {
        carriers.push({
          sentences: d.sentences,
          lang: 'en',
          joiner,
          source: where(r, path) + ` doc ${d.id}`,
          licence: r.licence,
        });
        continue;
      }
      cases.push({
        text,
        label: 'benign',
        kind: 'benign',
        lang: 'en',
        family: 'web-text',
        source: `${where(r, path)} doc ${d.id} (${genre})`,
        licence: r.licence,
      });
    }
  }
  return { cases, carriers };
}

/** News and Wikipedia sentences in German, Chinese, Russian, Portuguese and Swedish (the PUD treebanks), four sentences to a paragraph. */
function multilingualNews(): { cases: Draft[]; carriers: Carrier[] } {
  const cases: Draft[] = [];
  const carriers: Carrier[] = [];
  const sets: Array<[Repo, string, string]> = [
    [REPOS.pudDe, 'de_pud-ud-test.iob2', 'de'],
    [REPOS.pudZh, 'zh_pud-ud-test.iob2', 'zh'],
    [REPOS.pudRu, 'ru_pud-ud-test.iob2', 'ru'],
    [REPOS.pudPt, 'pt_pud-ud-test.iob2', 'pt'],
    [REPOS.pudSv, 'sv_pud-ud-test.iob2', 'sv'],
  ];
  for (const [r, path, lang] of sets) {
    const sentences = iob2Docs(show(r, path)).flatMap((d) => d.sentences);
    const joiner = lang === 'zh' ? '' : ' ';
    const paras: string[][] = [];
    for (let i = 0; i + 4 <= sentences.length; i += 4) paras.push(sentences.slice(i, i + 4));
    const picked = sample(
      paras.map((p, i) => [i, p] as const),
      90,
      lang.charCodeAt(0) * 7 + lang.charCodeAt(1),
    );
    for (const [n, [i, p]] of picked.entries()) {
      const source = `${where(r, path)} sentences ${i * 4 + 1}-${i * 4 + 4}`;
      if (n % 3 === 2) carriers.push({ sentences: p, lang, joiner, source, licence: r.licence });
      else
        cases.push({
          text: p.join(joiner),
          label: 'benign',
          kind: 'benign',
          lang,
          family: 'multilingual-news',
          source,
          licence: r.licence,
        });
    }
  }
  return { cases, carriers };
}

// ------------------------------------------------------------------ indirect: payloads in documents

/** Splices each payload into a carrier of its language (English when there is none) at a sentence boundary. */
function spliced(payloads: readonly Payload[], carriers: Carrier[], seed: number): Draft[] {
  const rand = seeded(seed);
  const out: Draft[] = [];
  const pool = new Map<string, Carrier[]>();
  for (const c of carriers) pool.set(c.lang, [...(pool.get(c.lang) ?? []), c]);
  const used = new Map<string, number>();
  for (const p of payloads) {
    const lang = pool.has(p.lang) ? p.lang : 'en';
    const cs = pool.get(lang)!;
    const n = used.get(lang) ?? 0;
    used.set(lang, n + 1);
    const c = cs[n % cs.length]!;
    const s = c.sentences.slice(0, 12);
    const at = Math.floor(rand() * (s.length + 1));
    const parts = [...s.slice(0, at), p.text.trim(), ...s.slice(at)];
    out.push({
      text: parts.join(c.joiner === '' ? '\n' : c.joiner),
      label: 'injection',
      kind: 'indirect',
      lang: p.lang === c.lang ? p.lang : `mixed-${c.lang}-${p.lang}`,
      family: p.family,
      source: `payload ${p.source} in carrier ${c.source}`,
      licence: [...new Set([REPOS_LICENCE(p.source), c.licence])].join('; '),
    });
  }
  return out;
}

function REPOS_LICENCE(source: string): string {
  const r = Object.values(REPOS).find((x) => source.startsWith(x.repo + '@'));
  return r ? r.licence : 'unknown';
}

// ------------------------------------------------------------------ more attack families

/**
 * The value of a YAML block scalar `key: >` (folded) or `key: |` (literal) at the top level of a PyRIT
 * template: its more-indented lines, folded or kept. Enough for PyRIT's templates, not a YAML parser.
 */
function blockScalar(yaml: string, key: string): string | undefined {
  const lines = yaml.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^${key}:\\s*[>|][-+]?\\s*$`).test(l));
  if (at < 0) return undefined;
  const folded = lines[at]!.includes('>');
  const body: string[] = [];
  let indent = -1;
  for (const l of lines.slice(at + 1)) {
    if (l.trim() === '') {
      body.push('');
      continue;
    }
    const pad = /^ */.exec(l)![0].length;
    if (indent < 0) indent = pad;
    if (pad < indent) break;
    body.push(l.slice(indent));
  }
  while (body.length && body.at(-1) === '') body.pop();
  if (!folded) return body.join('\n');
  let out = '';
  for (const l of body) {
    if (l === '') out += '\n';
    else out += out === '' || out.endsWith('\n') ? l : ' ' + l;
  }
  return out;
}

/**
 * PyRIT's jailbreak templates that are not an attack on the model's instructions (a harmful request nested
 * in code, a table or a story to complete; an output format; a bare "You are a helpful assistant"; a
 * template of templates) — neither label fits them.
 */
const PYRIT_NOT_ATTACKS = new Set([
  'dt_stereotypes_benign',
  'scorer_prompt',
  'many_shot_template',
  'prefix_injection',
  'style_injection',
  'wikipedia_with_title',
  'code_nesting',
  'table_nesting',
  'text_continuation_nesting',
  'hypothetical_response',
  'tom_and_jerry',
]);

/**
 * PyRIT (Microsoft's red-teaming kit): its jailbreak templates (jailbreakchat's, Pliny's, papers'), each
 * filled with one of its own example requests; its system-prompt extraction prompts; the prose of its blog
 * (text about attacks, hard negatives).
 */
function pyrit(): Draft[] {
  const r = REPOS.pyrit;
  const out: Draft[] = [];
  const questions = [
    ...show(r, 'pyrit/datasets/seed_prompts/illegal.prompt').matchAll(/- value: (How to [^\n]+)/g),
  ].map((m) => m[1]!.trim());
  const files = listFiles(r, 'pyrit/datasets/prompt_templates/jailbreak').filter((f) => f.endsWith('.yaml'));
  for (const [i, f] of files.entries()) {
    const name = f
      .split('/')
      .pop()!
      .replace(/\.yaml$/, '');
    if (PYRIT_NOT_ATTACKS.has(name)) continue;
    const value = blockScalar(show(r, f), 'value');
    if (!value || value.length < 40) continue;
    const q = questions[i % questions.length]!;
    out.push({
      text: value.replace(/\{\{[^}]*\}\}/g, q),
      label: 'injection',
      kind: 'jailbreak',
      lang: 'en',
      family: 'pyrit',
      source: `${where(r, f)} filled with pyrit/datasets/seed_prompts/illegal.prompt "${q}"`,
      licence: r.licence,
    });
  }
  const steal = 'pyrit/datasets/seed_prompts/steal_system_prompt.prompt';
  for (const m of show(r, steal).matchAll(/^\s+\d\. ([\s\S]*?)(?= \|\n| >\n|\n*$)/gm))
    out.push({
      text: m[1]!.trim(),
      label: 'injection',
      kind: 'direct',
      lang: /\p{Script=Han}/u.test(m[1]!) ? 'zh' : 'en',
      family: 'pyrit',
      source: `${where(r, steal)} (a system-prompt extraction prompt)`,
      licence: r.licence,
    });
  for (const [i, f] of listFiles(r, 'doc/blog')
    .filter((f) => f.endsWith('.md') && !f.endsWith('README.md'))
    .entries())
    for (const p of sample(proseParagraphs(show(r, f)), 12, 400 + i))
      out.push({
        text: p,
        label: 'benign',
        kind: 'hard_negative',
        lang: 'en',
        family: 'pyrit',
        source: `${where(r, f)} (a prose paragraph of its blog)`,
        licence: r.licence,
      });
  return out;
}

/**
 * greshake/llm-security, the indirect-injection demonstrations of "Not what you've signed up for": the
 * payloads its scenarios plant in web pages, e-mails and memory, and its puzzle pages.
 */
function llmSecurity(): Draft[] {
  const r = REPOS.llmSecurity;
  const out: Draft[] = [];
  const add = (path: string, text: string, what: string) =>
    out.push({
      text: dedent(text.replace(/^\n+/, '')).trim(),
      label: 'injection',
      kind: 'indirect',
      lang: 'en',
      family: 'llm-security',
      source: `${where(r, path)} (${what})`,
      licence: r.licence,
    });
  for (const f of listFiles(r, 'scenarios').filter((f) => /^scenarios\/(gpt4|gpt3langchain)\/[^/]+\.py$/.test(f)))
    for (const m of show(r, f).matchAll(/(\w+)\s*=\s*"""([\s\S]*?)"""/g))
      if (m[1] !== 'current_website' && m[2]!.trim().length > 80) add(f, m[2]!, `the string ${m[1]}`);
  for (const f of listFiles(r, 'scenarios/puzzle/puzzles')) add(f, show(r, f), 'a puzzle page');
  return out;
}

/**
 * The Prompt Engineering Guide's adversarial page in its 13 languages: the attack examples it shows under
 * "Prompt" (the same fenced blocks, by position, in every translation: an override inside a translation,
 * classification or few-shot task), and the defence prompt it shows (an operator's instructions, a hard
 * negative). The page's prose is the security-docs family's; a jailbreak template that GPTFuzz also holds
 * (block 10) is left out.
 */
const PEG_ATTACK_BLOCKS = [0, 2, 4, 6, 12];
const PEG_DEFENCE_BLOCK = 18;

function pegTranslations(): Draft[] {
  const r = REPOS.peg;
  const out: Draft[] = [];
  const langOf: Record<string, string> = { jp: 'ja', kr: 'ko' };
  for (const f of listFiles(r, 'pages/risks').filter((f) => /adversarial\.\w+\.mdx$/.test(f))) {
    const l = /\.(\w+)\.mdx$/.exec(f)![1]!;
    const blocks = [...show(r, f).matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]!.trim());
    if (blocks.length !== 19) continue; // a translation whose examples do not line up with the English page's
    for (const i of PEG_ATTACK_BLOCKS)
      out.push({
        text: blocks[i]!,
        label: 'injection',
        kind: 'direct',
        lang: langOf[l] ?? l,
        family: 'payload-lists',
        source: `${where(r, f)} (attack example, fenced block ${i + 1})`,
        licence: r.licence,
      });
    out.push({
      text: blocks[PEG_DEFENCE_BLOCK]!,
      label: 'benign',
      kind: 'hard_negative',
      lang: langOf[l] ?? l,
      family: 'payload-lists',
      source: `${where(r, f)} (defence prompt, fenced block ${PEG_DEFENCE_BLOCK + 1})`,
      licence: r.licence,
    });
  }
  return out;
}

/**
 * Text about attacks on models beyond prompt injection: OWASP's pages on sensitive-information disclosure,
 * improper output handling, excessive agency and system-prompt leakage (English and translations). They talk
 * of prompts, instructions, system prompts and what agents are told to do: hard negatives, in the
 * security-docs family.
 */
const OWASP_NEIGHBOURS =
  /LLM0(?:2_SensitiveInformationDisclosure|5_ImproperOutputHandling|6_ExcessiveAgency|7_SystemPromptLeakage)\.md$/;

function owaspNeighbours(): Draft[] {
  const r = REPOS.owasp;
  const out: Draft[] = [];
  for (const [i, f] of listFiles(r, '2_0_vulns')
    .filter((f) => OWASP_NEIGHBOURS.test(f))
    .entries()) {
    const m = /\/([a-z]{2})-[A-Z]{2}\//.exec(f);
    for (const p of sample(proseParagraphs(show(r, f)), m ? 4 : 8, 500 + i))
      out.push({
        text: p,
        label: 'benign',
        kind: 'hard_negative',
        lang: m ? m[1]! : 'en',
        family: 'security-docs',
        source: `${where(r, f)} (a prose paragraph)`,
        licence: r.licence,
      });
  }
  return out;
}

// ------------------------------------------------------------------ more benign text

/**
 * AlpacaEval's instructions from OpenAssistant (oasst) and Anthropic's helpful-base, and the example
 * answers the repository ships for them: requests people wrote to assistants, and assistant answers (code,
 * e-mails, lists). Its self-instruct and Vicuna questions are the chat-prompts family's; Koala's are left
 * out (no licence stated for them). One answer in three is kept apart as a carrier.
 */
function alpacaEval(): { cases: Draft[]; carriers: Carrier[] } {
  const r = REPOS.alpacaEval;
  const path = 'example/outputs.json';
  const rows = JSON.parse(show(r, path)) as Array<{ instruction: string; output: string; dataset: string }>;
  const cases: Draft[] = [];
  const carriers: Carrier[] = [];
  for (const [i, x] of rows.entries()) {
    if (x.dataset !== 'oasst' && x.dataset !== 'helpful_base') continue;
    const licence =
      x.dataset === 'oasst' ? `${r.licence} (OpenAssistant: Apache-2.0)` : `${r.licence} (Anthropic HH: MIT)`;
    cases.push({
      text: x.instruction,
      label: 'benign',
      kind: 'benign',
      lang: 'en',
      family: 'alpaca-eval',
      source: `${where(r, path)} #${i} instruction (${x.dataset})`,
      licence,
    });
    const answer = x.output.trim();
    if (answer.length < 40) continue;
    const source = `${where(r, path)} #${i} example answer (${x.dataset})`;
    if (i % 3 === 1) {
      const sentences = answer.split(/(?<=[.!?:])\s+(?=[A-Z0-9"])|\n+/).filter((s) => s.trim());
      if (sentences.length >= 2) {
        carriers.push({ sentences, lang: 'en', joiner: answer.includes('\n') ? '\n' : ' ', source, licence });
        continue;
      }
    }
    cases.push({ text: answer, label: 'benign', kind: 'benign', lang: 'en', family: 'alpaca-eval', source, licence });
  }
  return { cases, carriers };
}

/** Word 6-grams of a text (lower case), for near-duplicate checks across families. */
// ------------------------------------------------------------------ families added last

interface ArcanumEntry {
  id: string;
  description: string;
  examples?: string[];
}

/**
 * What the Arcanum taxonomy's examples are, by the entry they illustrate. Injections: the techniques that
 * address the model's instructions, rules, memory or tools, and the intents aimed at its instructions,
 * secrets or other users' data. Ambiguous (never trained on, reported apart): the evasions (encodings of
 * a payload, most unreadable as text), techniques whose examples describe tooling or several turns, and
 * techniques and intents whose examples are a request for harmful content, advice or an action with no
 * attack on instructions. An example that opens with a parenthesis is a description of a payload, not
 * one: ambiguous.
 */
const ARCANUM_AMBIGUOUS_TECHNIQUES = new Set([
  'gradient_based_attacks',
  'fuzzing_jailbreak',
  'autonomous_strategy_discovery',
  'best_of_n',
  'weight_ablation',
  'retrieval_ranking_manipulation',
  'tool_preference_manipulation',
  'tool_rug_pull',
  'multi_turn_decomposition',
  'crescendo',
  'echo_chamber',
  'many_shot',
  'tense_reformulation',
  'masked_word_reconstruction',
  'distraction_sandwich',
  'fake_citation_grounding',
  'evaluator_role_abuse',
  'structured_output_coercion',
  'thinking_mode_manipulation',
  'reasoning_dilution',
  'cognitive_overload',
  'spatial_byte_arrays',
  'glitch_tokens',
  'induced_hallucination',
  'truncated_instructions',
  'persuasion',
  'self_persuasion',
]);
const ARCANUM_INJECTION_INTENTS = new Set([
  'get_prompt_secret',
  'jailbreak',
  'multi_chain_attacks',
  'system_prompt_leak',
  'data_poisoning',
  'sensitive_data_exfiltration',
  'cross_tenant_leakage',
]);
const ARCANUM_JAILBREAK = new Set([
  'jailbreak',
  'anti_refusal',
  'anti_harm_coercion',
  'narrative_injection',
  'reiteration',
  'priming',
  'output_priming',
]);
const ARCANUM_INDIRECT = new Set([
  'russian_doll',
  'link_injection',
  'tool_definition_injection',
  'conditional_trigger_payload',
  'prompt_worm',
  'agent_instruction_file_injection',
  'function_call_parameter_smuggling',
  'agentic_compliance_momentum',
  'tool_call_spoofing',
  'fake_completion',
  'multi_chain_attacks',
  'data_poisoning',
]);

/** Arcanum's prompt-injection taxonomy: each entry's examples (labelled by entry, above) and its description (a hard negative: a sentence about an attack). */
function arcanum(): Draft[] {
  const r = REPOS.arcanum;
  const path = 'docs/data/taxonomy.json';
  const t = JSON.parse(show(r, path)) as Record<'inputs' | 'techniques' | 'intents' | 'evasions', ArcanumEntry[]>;
  const out: Draft[] = [];
  for (const section of ['inputs', 'techniques', 'intents', 'evasions'] as const)
    for (const e of t[section]) {
      out.push({
        text: e.description,
        label: 'benign',
        kind: 'hard_negative',
        lang: 'en',
        family: 'arcanum',
        source: `${where(r, path)} ${section} ${e.id} (its description)`,
        licence: r.licence,
      });
      const attack =
        section === 'techniques' ? !ARCANUM_AMBIGUOUS_TECHNIQUES.has(e.id) : ARCANUM_INJECTION_INTENTS.has(e.id);
      for (const [i, x] of (e.examples ?? []).entries()) {
        const text = String(x).trim();
        const ambiguous = !attack || section === 'evasions' || text.startsWith('(');
        out.push({
          text,
          label: 'injection',
          kind: ARCANUM_JAILBREAK.has(e.id) ? 'jailbreak' : ARCANUM_INDIRECT.has(e.id) ? 'indirect' : 'direct',
          lang: 'en',
          family: 'arcanum',
          source: `${where(r, path)} ${section} ${e.id} example ${i + 1}`,
          licence: r.licence,
          ...(ambiguous ? { ambiguous: true } : {}),
        });
      }
    }
  return out;
}

/** OWASP's cheat sheets on LLM and agent security: their prose, up to 30 paragraphs per sheet (hard negatives). */
function owaspCheatSheets(): Draft[] {
  const r = REPOS.owaspCheatSheets;
  const out: Draft[] = [];
  const sheets = [
    'LLM_Prompt_Injection_Prevention',
    'AI_Agent_Security',
    'MCP_Security',
    'Secure_AI_Model_Ops',
    'Secure_Coding_with_AI',
  ];
  for (const [i, s] of sheets.entries()) {
    const path = `cheatsheets/${s}_Cheat_Sheet.md`;
    for (const p of sample(proseParagraphs(show(r, path)), 30, 500 + i))
      out.push({
        text: p,
        label: 'benign',
        kind: 'hard_negative',
        lang: 'en',
        family: 'owasp-cheatsheets',
        source: `${where(r, path)} (a prose paragraph)`,
        licence: r.licence,
      });
  }
  return out;
}

/**
 * HiveTrace Red's single-turn attack templates (YAML, in Russian) that attack the model's instructions:
 * the context switches (overrides, claimed system updates, an administrator's order) are `direct`; the
 * persona jailbreaks and the rules against refusing are `jailbreak`. Not taken: the templates that nest a
 * harmful request in a task, a format, code or distractors, and the persuasion prompts (instructions to an
 * attacking model to rewrite a request), which attack no instructions.
 */
const HIVETRACE_ATTACKS: Record<string, 'direct' | 'jailbreak'> = {
  'context_switching/dashed_divider': 'direct',
  'context_switching/forget_everything_before': 'direct',
  'context_switching/ignore_previous_instructions': 'direct',
  'context_switching/symbol_divider': 'direct',
  'roleplay/aim': 'jailbreak',
  'roleplay/dan': 'jailbreak',
  'roleplay/evil_confidant': 'jailbreak',
  'output_formatting/refusal_suppression': 'jailbreak',
  'output_formatting/prefix_injection': 'jailbreak',
};

/** The prose paragraphs of a reStructuredText page: no headings, directives, indented blocks (code, definitions) or bullet lists; at least 80 characters. */
function rstProse(rst: string): string[] {
  return rst
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(
      (p) =>
        p.length >= 80 &&
        !/^(\.\.|[*-] |\d+\.|:)/.test(p) &&
        !p.split('\n').some((l) => /^\s/.test(l) || /^([=~^"`'-])\1{3,}\s*$/.test(l)),
    );
}

/**
 * HiveTrace Red (a red-teaming kit, Russian first): every prompt of its Russian system-prompt extraction
 * set (`direct`), its attack templates on instructions (HIVETRACE_ATTACKS) each filled with one of its own
 * Russian example requests in turn, and — as hard negatives, text about attacks — every template's
 * description and the prose of its README and documentation pages.
 */
function hivetrace(): Draft[] {
  const r = REPOS.hivetrace;
  const out: Draft[] = [];
  const ex = 'datasets/system_prompt_extraction_ru.csv';
  for (const [i, row] of parseCsv(show(r, ex)).slice(1).entries())
    out.push({
      text: row[0]!,
      label: 'injection',
      kind: 'direct',
      lang: 'ru',
      family: 'hivetrace',
      source: `${where(r, ex)} row ${i + 1}`,
      licence: r.licence,
    });
  const requestsPath = 'datasets/prompts_subset.csv';
  const requests = parseCsv(show(r, requestsPath)).slice(1);
  const promptCol = parseCsv(show(r, requestsPath))[0]!.indexOf('Prompt');
  const base = 'src/hivetracered/attacks/types/single_turn';
  const files = listFiles(r, base).filter((f) => f.endsWith('.yaml'));
  for (const [i, f] of files.entries()) {
    const name = f.slice(base.length + 1).replace(/\.yaml$/, '');
    const yaml = show(r, f);
    const description = /^description: ([\s\S]*?)\n(?=\S)/m.exec(yaml)?.[1]?.replace(/\s+/g, ' ').trim();
    if (description && description.length >= 40)
      out.push({
        text: description,
        label: 'benign',
        kind: 'hard_negative',
        lang: 'en',
        family: 'hivetrace',
        source: `${where(r, f)} (its description)`,
        licence: r.licence,
      });
    const kind = HIVETRACE_ATTACKS[name];
    const template = blockScalar(yaml, 'prompt');
    if (!kind || !template) continue;
    const q = requests[i % requests.length]![promptCol]!;
    out.push({
      text: template
        .replace(/\{prompt\}/g, q)
        .replace(/\{\{/g, '{')
        .replace(/\}\}/g, '}'),
      label: 'injection',
      kind,
      lang: 'ru',
      family: 'hivetrace',
      source: `${where(r, f)} filled with ${requestsPath} row ${(i % requests.length) + 1}`,
      licence: r.licence,
    });
  }
  const pages = ['README.md', ...listFiles(r, 'docs').filter((f) => f.endsWith('.rst') && !f.startsWith('docs/api/'))];
  for (const [i, f] of pages.entries()) {
    const text = show(r, f);
    for (const p of sample(f.endsWith('.md') ? proseParagraphs(text) : rstProse(text), 12, 600 + i))
      out.push({
        text: p,
        label: 'benign',
        kind: 'hard_negative',
        lang: 'en',
        family: 'hivetrace',
        source: `${where(r, f)} (a prose paragraph)`,
        licence: r.licence,
      });
  }
  return out;
}

/** The value of a JavaScript string literal (double- or single-quoted) of a payload file; parts joined by `+`. */
function jsString(src: string): string {
  let out = '';
  for (const m of src.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)) {
    const body = m[1] ?? m[2]!;
    out += body.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) =>
      e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : e === 'n' ? '\n' : e === 't' ? '\t' : e,
    );
  }
  return out;
}

/** A payload of pincer's attack files: its fields `name`, `description`, `prompt` (string literals). */
function pincerPayloads(ts: string): Array<{ name: string; description: string; prompt: string }> {
  const lit = String.raw`(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')(?:\s*\+\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))*`;
  const field = (block: string, key: string) => {
    const m = new RegExp(String.raw`\n\s*${key}:\s*(${lit})`).exec(block);
    return m ? jsString(m[1]!) : '';
  };
  return ts
    .split(/\n\s*\{\s*\n(?=\s*id:)/)
    .slice(1)
    .map((b) => ({
      name: field('\n' + b, 'name'),
      description: field('\n' + b, 'description'),
      prompt: field('\n' + b, 'prompt'),
    }))
    .filter((p) => p.prompt.length > 0);
}

/**
 * What pincer's payloads are, by file and by the payload's name. Attacks on instructions: the injection file
 * (indirect when the payload rides in data the model processes: a document, an e-mail, a review, a profile, a
 * tool's or an API's output), the extraction payloads aimed at the model's instructions, rules or configuration,
 * the tool-abuse payloads (injections into tools and their data; indirect when planted in a document, feedback, a
 * CSV or a configuration), the jailbreaks and bypasses whose text addresses the model's instructions, rules, filters
 * or policies. Ambiguous: evasions (encodings, invisible or split characters), several-turn attacks, probes of
 * training data, PII, probabilities or architecture (not of instructions), a plain question about the tools, and
 * jailbreaks that only frame a harmful request (a story, a hypothetical, a debate).
 */
const PINCER_EVASION =
  /encod|base64|rot13|morse|hex|pig latin|emoji|homoglyph|zero-width|invisible|leet|reverse text|anagram|acrostic|musical|steganograph|token (?:count|probab|limit)|tokeniz|token-level|splitting|smuggling via translation|crescendo|many-shot|multi-turn|gradual|timing|conversation history/i;
const PINCER_EXTRACTION_OF_INSTRUCTIONS =
  /system prompt|instruction|repeat-after-me|completion-based|role reversal|behavioral rule|inverse prompting|hypothetical clone|error|json schema|function schema|api documentation|differential|contradiction|analogy|code generation|dream|fill-in-the-blank|translation round-trip|comparative|fingerprint|canary|self-reflection/i;
const PINCER_INDIRECT =
  /indirect|user data|api response|email|spreadsheet|csv|code review|chained tool|embedded|user profile|summarization task|translation task|html comments|json configuration|document-embedded|feedback-embedded|config lifecycle|pre-check|exfiltration chain/i;
const PINCER_TOOL_QUESTIONS = /direct tool listing|documentation request|tool guessing game/i;
const ADDRESSES_INSTRUCTIONS =
  /instruction|guideline|rules|restriction|filter|polic|system prompt|system message|developer mode|safety|constraint|programming|directive/i;

/** rustyorb/pincer (an LLM red-teaming kit): the payloads of its attack library (labelled above), and every payload's description as a hard negative (a sentence about an attack). */
function pincer(): Draft[] {
  const r = REPOS.pincer;
  const out: Draft[] = [];
  for (const file of ['injection', 'extraction', 'jailbreak', 'bypass', 'tool-abuse', 'encoding', 'multi-turn']) {
    const path = `src/lib/attacks/${file}.ts`;
    for (const p of pincerPayloads(show(r, path))) {
      const where_ = `${where(r, path)} "${p.name}"`;
      if (p.description.length >= 40)
        out.push({
          text: p.description,
          label: 'benign',
          kind: 'hard_negative',
          lang: 'en',
          family: 'pincer',
          source: `${where_} (its description)`,
          licence: r.licence,
        });
      const attack =
        !PINCER_EVASION.test(p.name) &&
        (file === 'injection' ||
          (file === 'extraction' && PINCER_EXTRACTION_OF_INSTRUCTIONS.test(p.name)) ||
          (file === 'tool-abuse' && !PINCER_TOOL_QUESTIONS.test(p.name)) ||
          ((file === 'jailbreak' || file === 'bypass') && ADDRESSES_INSTRUCTIONS.test(p.prompt)));
      out.push({
        text: p.prompt,
        label: 'injection',
        kind:
          file === 'jailbreak' || file === 'bypass'
            ? 'jailbreak'
            : PINCER_INDIRECT.test(p.name)
              ? 'indirect'
              : 'direct',
        lang: 'en',
        family: 'pincer',
        source: `${where_} (its prompt)`,
        licence: r.licence,
        ...(attack ? {} : { ambiguous: true }),
      });
    }
  }
  return out;
}

function shingles(text: string): string[] {
  const w = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (let i = 0; i + 6 <= w.length; i++) out.push(w.slice(i, i + 6).join(' '));
  return out;
}

/**
 * Drops the drafts of `added` that are near-duplicates of a text of another family in `existing` (a fifth
 * of a long text's word 6-grams there, a third of a short one's): a jailbreak template that two collections share would otherwise be
 * scored on a family held out while its copy is trained on.
 */
function withoutCrossFamilyCopies(existing: readonly Draft[], added: readonly Draft[]): Draft[] {
  const index = new Map<string, Set<string>>();
  for (const d of [...existing, ...added])
    for (const s of shingles(d.text)) {
      const fs = index.get(s) ?? new Set<string>();
      fs.add(d.family);
      index.set(s, fs);
    }
  return added.filter((d) => {
    const sh = shingles(d.text);
    if (sh.length === 0) return true;
    const shared = sh.filter((s) => [...index.get(s)!].some((f) => f !== d.family)).length;
    // a long template shares a fifth of its wording with its copy once edited; a short text a third
    return shared / sh.length < (sh.length >= 30 ? 1 / 5 : 1 / 3);
  });
}

// ------------------------------------------------------------------ deepteam

/**
 * deepteam's single-turn attacks, by the attack its template's examples illustrate: the ones that address the
 * model's instructions, rules, privileges or system prompt (fake system alerts and notices, claimed
 * permissions, poisoned context that says the filters are off, system-prompt probing) are `direct`
 * injections; the ones that only frame a harmful request (role-play, a goal, an encoding, a poem, a
 * language, emotions, maths) are `ambiguous`.
 */
const DEEPTEAM_ATTACKS = new Set([
  'authority_escalation',
  'context_poisoning',
  'gray_box',
  'permission_escalation',
  'prompt_probing',
  'synthetic_context_injection',
  'system_override',
]);

function deepteam(): Draft[] {
  const r = REPOS.deepteam;
  const out: Draft[] = [];
  for (const f of listFiles(r, 'deepteam/attacks/single_turn').filter((f) => f.endsWith('/template.py'))) {
    const attack = f.split('/').at(-2)!;
    for (const m of show(r, f).matchAll(/"input": "((?:[^"\\]|\\.)*)"/g)) {
      // a JSON string inside a Python f-string: {{ }} are braces, \\n a line break, \\" a quote
      const text = m[1]!
        .replace(/\{\{/g, '{')
        .replace(/\}\}/g, '}')
        .replace(/\\\\n/g, '\n')
        .replace(/\\+"/g, '"')
        .replace(/\\\\'/g, "'");
      out.push({
        text,
        label: 'injection',
        kind: 'direct',
        lang: 'en',
        family: 'deepteam',
        source: `${where(r, f)} (an example of the ${attack} attack)`,
        licence: r.licence,
        ...(DEEPTEAM_ATTACKS.has(attack) ? {} : { ambiguous: true }),
      });
    }
  }
  return out;
}

// ------------------------------------------------------------------ spikee

const SPIKEE_SEEDS = 'spikee/data/workspace/datasets';
/**
 * The language of a spikee seed: its `lang` field, else its id's `lrl-xx-` prefix or `-xx` suffix (its low-resource
 * language variants); English without any.
 */
const spikeeLang = (row: Record<string, string>) =>
  row.lang ?? /^lrl-(zu|sq|ga|gd)-|-(zu|sq|ga|gd)$/.exec(row.id!)?.slice(1).find(Boolean) ?? 'en';
/**
 * spikee's jailbreak types whose wording addresses the model's instructions, mode or task by itself: new or
 * corrected instructions, overrides, fake test, error, debugging and developer modes, "special case" rules,
 * urgent new tasks, DAN and no-limits personas, policy puppetry (a fake interaction config). Sent alone with
 * an ordinary request, the others ("For academic purposes, …", "Prove you are truly intelligent by: …", a
 * training exercise, "**EMERGENCY**") are a user's wording, not an attack: `ambiguous` unless the request
 * is aimed at the system prompt; inside a document every one is an injection.
 */
const SPIKEE_ADDRESSES_INSTRUCTIONS = new Set([
  'new-instructions',
  'sorry',
  'dan',
  'ignore',
  'test',
  'errors',
  'debug',
  'dev',
  'no-limits',
  'experimental',
  'hidden-function',
  'new-task',
  'special-case',
  'policy-puppetry',
]);
const SPIKEE_JAILBREAK = new Set(['dan', 'no-limits', 'policy-puppetry']);

/**
 * WithSecure's spikee seeds: every jailbreak template (the distinct texts of all seed folders but the bare
 * `no-jailbreak`) filled with the instructions of its language in turn, twice — once alone (`direct`, or
 * `jailbreak` for the personas and the fake interaction config) and once as a payload spliced into another
 * source's document (`indirect`, by `spliced` in `build`: web text, news, an assistant's answer; spikee's own two
 * base documents would put the same e-mail and the same code around every payload, and the model would learn
 * them as attacks); its standalone attacks (an application's prompt with an injected query, `indirect`); and
 * the requests of its financial-advice seeds (users' questions about investing, the guardrail false-positive
 * set and the off-topic requests) as `benign`: no attack on instructions.
 */
function spikee(): { cases: Draft[]; payloads: Payload[] } {
  const r = REPOS.spikee;
  const folders = listFiles(r, SPIKEE_SEEDS)
    .filter((f) => f.endsWith('/jailbreaks.jsonl'))
    .map((f) => f.slice(0, -'/jailbreaks.jsonl'.length));
  const rows = (path: string) =>
    show(r, path)
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, string>);
  type Seed = { id: string; lang: string; type: string; path: string };
  const templates = new Map<string, Seed>();
  const instructions = new Map<string, Seed>();
  const cases: Draft[] = [];
  const payloads: Payload[] = [];
  for (const folder of folders) {
    for (const j of rows(`${folder}/jailbreaks.jsonl`))
      if (j.jailbreak_type !== 'no-jailbreak' && !templates.has(j.text!))
        templates.set(j.text!, {
          id: j.id!,
          lang: spikeeLang(j),
          type: j.jailbreak_type!,
          path: `${folder}/jailbreaks.jsonl`,
        });
    for (const i of rows(`${folder}/instructions.jsonl`))
      if (!instructions.has(i.instruction!))
        instructions.set(i.instruction!, {
          id: i.id!,
          lang: spikeeLang(i),
          type: i.instruction_type!,
          path: `${folder}/instructions.jsonl`,
        });
    const standalone = `${folder}/standalone_attacks.jsonl`;
    if (!listFiles(r, standalone).length) continue;
    for (const a of rows(standalone)) {
      const benign = /^financial-adv/.test(a.jailbreak_type ?? a.id!);
      cases.push({
        text: a.text!,
        label: benign ? 'benign' : 'injection',
        kind: benign ? 'benign' : 'indirect',
        lang: 'en',
        family: 'spikee',
        source: `${where(r, standalone)} ${a.id}`,
        licence: r.licence,
      });
    }
  }
  const byLang = new Map<string, Array<[string, Seed]>>();
  for (const e of instructions) byLang.set(e[1].lang, [...(byLang.get(e[1].lang) ?? []), e]);
  let n = 0;
  for (const [text, t] of templates) {
    const pool = byLang.get(t.lang) ?? byLang.get('en')!;
    for (const inDocument of [false, true]) {
      const [instruction, ins] = pool[n++ % pool.length]!;
      const payload = text.split('<INSTRUCTION>').join(instruction.replace(/\.$/, ''));
      const lang = t.lang === ins.lang ? t.lang : `mixed-${t.lang}-${ins.lang}`;
      const source = `${where(r, t.path)} ${t.id} filled with ${ins.path.split('/').at(-2)}/instructions.jsonl ${ins.id}`;
      if (inDocument) {
        payloads.push({ text: payload, lang, family: 'spikee', source });
        continue;
      }
      const addresses = SPIKEE_ADDRESSES_INSTRUCTIONS.has(t.type) || ins.type === 'sysmsg-extract';
      cases.push({
        text: payload,
        label: 'injection',
        kind: SPIKEE_JAILBREAK.has(t.type) ? 'jailbreak' : 'direct',
        lang,
        family: 'spikee',
        source,
        licence: r.licence,
        ...(addresses ? {} : { ambiguous: true }),
      });
    }
  }
  return { cases, payloads };
}

// ------------------------------------------------------------------ benign transcripts

/**
 * The labels a transcript's turns are rendered with: the plain and capitalised `user:` / `assistant:` of chat
 * logs and SDK traces, Anthropic's `Human:` / `Assistant:` (a blank line between turns), Vicuna's `USER:` /
 * `ASSISTANT:`. A transcript's labels are chosen by its index, the same for all its turns.
 */
const TRANSCRIPT_LABELS: ReadonlyArray<readonly [string, string, string]> = [
  ['user', 'assistant', '\n'],
  ['User', 'Assistant', '\n'],
  ['Human', 'Assistant', '\n\n'],
  ['USER', 'ASSISTANT', '\n'],
];

function transcript(turns: ReadonlyArray<readonly [string, string]>, labels: number): string {
  const [u, a, sep] = TRANSCRIPT_LABELS[labels % TRANSCRIPT_LABELS.length]!;
  return turns.flatMap(([q, ans]) => [`${u}: ${q.trim()}`, `${a}: ${ans.trim()}`]).join(sep);
}

/**
 * Benign transcripts rendered from dialogues other people wrote, as "user: …\nassistant: …" turns, so that
 * role labels and an assistant's ordinary answer ("Sure, here is …") are seen in text that is no attack.
 * chat-prompts: MT-Bench's and Vicuna-Bench's questions with GPT-4's reference answers that FastChat ships
 * (every one, both turns), and 60 of FastChat's 500 identity dialogues (seeded). alpaca-eval: the oasst and
 * helpful_base requests with the answers of OpenAssistant's `oasst-sft-pythia-12b` that AlpacaEval ships —
 * another model's answers than the example answers, which stay the family's answers and carriers.
 */
function benignTranscripts(): Draft[] {
  const out: Draft[] = [];
  const fc = REPOS.fastchat;
  const push = (turns: ReadonlyArray<readonly [string, string]>, source: string) =>
    out.push({
      text: transcript(turns, out.length),
      label: 'benign',
      kind: 'benign',
      lang: 'en',
      family: 'chat-prompts',
      source: `${source} (rendered as a transcript)`,
      licence: fc.licence,
    });
  for (const bench of ['mt_bench', 'vicuna_bench']) {
    const qPath = `fastchat/llm_judge/data/${bench}/question.jsonl`;
    const aPath = `fastchat/llm_judge/data/${bench}/reference_answer/gpt-4.jsonl`;
    const questions = new Map<number, string[]>();
    for (const line of show(fc, qPath).split('\n').filter(Boolean)) {
      const q = JSON.parse(line) as { question_id: number; turns: string[] };
      questions.set(q.question_id, q.turns);
    }
    for (const line of show(fc, aPath).split('\n').filter(Boolean)) {
      const a = JSON.parse(line) as { question_id: number; choices: Array<{ turns: string[] }> };
      const qs = questions.get(a.question_id) ?? [];
      const answers = a.choices[0]?.turns ?? [];
      const turns = qs.flatMap((q, t) => (answers[t] ? [[q, answers[t]] as const] : []));
      if (turns.length) push(turns, `${where(fc, aPath)} question ${a.question_id} with ${qPath}`);
    }
  }
  {
    const path = 'data/dummy_conversation.json';
    const rows = JSON.parse(show(fc, path)) as Array<{ id: string; conversations: Array<{ value: string }> }>;
    for (const d of sample(rows, 60, 73)) {
      const turns: Array<[string, string]> = [];
      for (let t = 0; t + 1 < d.conversations.length; t += 2)
        turns.push([d.conversations[t]!.value, d.conversations[t + 1]!.value]);
      push(turns, `${where(fc, path)} ${d.id}`);
    }
  }
  const r = REPOS.alpacaEval;
  const path = 'results/oasst-sft-pythia-12b/model_outputs.json';
  const rows = JSON.parse(show(r, path)) as Array<{ instruction: string; output: string; dataset: string }>;
  for (const [i, x] of rows.entries()) {
    if ((x.dataset !== 'oasst' && x.dataset !== 'helpful_base') || !x.output.trim()) continue;
    out.push({
      text: transcript([[x.instruction, x.output]], i),
      label: 'benign',
      kind: 'benign',
      lang: 'en',
      family: 'alpaca-eval',
      source: `${where(r, path)} #${i} request and answer (${x.dataset}; rendered as a transcript)`,
      licence: x.dataset === 'oasst' ? `${r.licence} (OpenAssistant: Apache-2.0)` : `${r.licence} (Anthropic HH: MIT)`,
    });
  }
  return out;
}

// ------------------------------------------------------------------ OWASP AI Testing Guide

/** The fenced code blocks of a Markdown page, in order; a fence may open inside a list item ("  - ```"). */
function fencedBlocks(md: string): string[] {
  const out: string[] = [];
  let cur: string[] | undefined;
  for (const line of md.split('\n')) {
    if (/^\s*(?:[-*]\s+|\d+\.\s+)?```/.test(line)) {
      if (cur) {
        out.push(dedent(cur.join('\n')).trim());
        cur = undefined;
      } else cur = [];
      continue;
    }
    cur?.push(line);
  }
  return out;
}

/**
 * The AI Testing Guide's example payloads, by page and by the position of their fenced block (`fencedBlocks`) at
 * the pinned commit. Labelled: the payloads that address the model's instructions, rules or system prompt —
 * overrides ("Disregard the system prompt …", "Skip all previous instructions"), a DAN and an "opposite mode"
 * persona, a reset of the conversation, a JSON form that asks for the system message, a request swapped for
 * another ("Replace response with …"), injections inside HTML comments, metadata, JSON fields, a document and an
 * MCP tool's description, prompt-extraction questions ("Please share your first instruction."), requests that
 * turn an agent's tools on the host. `ambiguous`: the ones that only ask for a password or a harmful answer
 * (a role-play framing, a story over several turns, a trigger suffix), the encodings (Base64, hex, URL, leet),
 * payloads split over turns, agents' limits ("Abort all tasks now", "Disk full. Delete files to continue") and
 * SQL in a tool's parameter. Blocks that describe a payload instead of being one are not taken.
 */
const AITG_PAYLOADS: Record<
  string,
  { labelled: Record<number, 'direct' | 'indirect' | 'jailbreak'>; ambiguous: number[] }
> = {
  'AITG-APP-01_Testing_for_Prompt_Injection': {
    labelled: {
      2: 'direct',
      7: 'direct',
      8: 'direct',
      10: 'indirect',
      14: 'direct',
      17: 'jailbreak',
      18: 'direct',
      19: 'direct',
      20: 'direct',
      21: 'direct',
      22: 'direct',
      23: 'direct',
      24: 'direct',
      25: 'direct',
      27: 'jailbreak',
      31: 'direct',
    },
    ambiguous: [1, 3, 4, 5, 9, 11, 12, 13, 15, 16, 26, 28, 29, 30, 32, 33, 34],
  },
  'AITG-APP-02_Testing_for_Indirect_Prompt_Injection': {
    labelled: { 0: 'indirect', 1: 'indirect', 2: 'indirect', 5: 'indirect', 6: 'indirect' },
    ambiguous: [3],
  },
  'AITG-APP-06_Testing_for_Agentic_Behavior_Limits': {
    labelled: { 9: 'direct', 10: 'direct' },
    ambiguous: [0, 1, 2, 3, 4, 5, 6, 7, 8],
  },
  'AITG-APP-07_Testing_for_Prompt_Disclosure': {
    labelled: { 0: 'direct', 1: 'direct', 2: 'direct', 3: 'direct', 4: 'direct', 6: 'direct' },
    ambiguous: [5],
  },
};

/** A one-line payload shown in quotes ("…", “…”) is the text inside them. */
function unquoted(s: string): string {
  const m = /^["“](.*)["”]$/s.exec(s);
  return m && !/["“”]/.test(m[1]!) ? m[1]! : s;
}

/** OWASP's AI Testing Guide: its example payloads (labelled above) and the prose of its pages as hard negatives. */
function aiTestingGuide(): Draft[] {
  const r = REPOS.aitg;
  const out: Draft[] = [];
  for (const [page, { labelled, ambiguous }] of Object.entries(AITG_PAYLOADS)) {
    const path = `Document/content/tests/${page}.md`;
    const blocks = fencedBlocks(show(r, path));
    const ambiguousSet = new Set(ambiguous);
    for (const [i, b] of blocks.entries()) {
      const kind = labelled[i];
      if (!kind && !ambiguousSet.has(i)) continue;
      out.push({
        text: unquoted(b),
        label: 'injection',
        kind: kind ?? 'direct',
        lang: 'en',
        family: 'ai-testing-guide',
        source: `${where(r, path)} (fenced block ${i})`,
        licence: r.licence,
        ...(kind ? {} : { ambiguous: true }),
      });
    }
  }
  const pages = listFiles(r, 'Document/content').filter((f) => f.endsWith('.md') && !/TestTemplate/.test(f));
  for (const [i, path] of pages.entries())
    for (const p of sample(proseParagraphs(show(r, path)), 8, 700 + i))
      out.push({
        text: p,
        label: 'benign',
        kind: 'hard_negative',
        lang: 'en',
        family: 'ai-testing-guide',
        source: `${where(r, path)} (a prose paragraph)`,
        licence: r.licence,
      });
  return out;
}

// ------------------------------------------------------------------ operators' prompts (fabric)

/** The first `max` characters of a text, cut at the last paragraph break before them (or whole when shorter). */
function headParagraphs(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.lastIndexOf('\n\n', max);
  return (cut > max / 3 ? t.slice(0, cut) : t.slice(0, max)).trim();
}

/**
 * Fabric's patterns: the system prompts people wrote for a model to take on a role and a task ("# IDENTITY and
 * PURPOSE\n\nYou are an expert …", "# STEPS", "# OUTPUT INSTRUCTIONS\n\n- Only output Markdown. - Do not give
 * warnings …"). An operator's instructions to a model, as a service's system prompt reads: `hard_negative`. Each
 * pattern's first 2,500 characters, cut at a paragraph break.
 */
function fabricPatterns(): Draft[] {
  const r = REPOS.fabric;
  return listFiles(r, 'data/patterns')
    .filter((f) => f.endsWith('/system.md'))
    .map((path) => ({
      text: headParagraphs(show(r, path), 2500),
      label: 'benign' as const,
      kind: 'hard_negative' as const,
      lang: 'en',
      family: 'fabric',
      source: `${where(r, path)} (its first 2,500 characters)`,
      licence: r.licence,
    }))
    .filter((d) => d.text.length >= 80);
}

// ------------------------------------------------------------------ main

export function build(): DataCase[] {
  const cse = cyberSecEval();
  const lists = payloadLists();
  const web = webText();
  const news = multilingualNews();
  const carriers = [...web.carriers, ...news.carriers];
  // the payload lists' direct payloads (and every other CyberSecEval one) also arrive inside documents
  const listPayloads: Payload[] = lists
    .filter((c) => c.kind === 'direct')
    .map((c) => ({ text: c.text, lang: c.lang, family: c.family, source: c.source }));
  const drafts: Draft[] = [
    ...cse.cases,
    ...spliced(cse.payloads, carriers, 41),
    ...gptFuzz(),
    ...lists,
    ...spliced(listPayloads, carriers.slice().reverse(), 43),
    ...securityDocs(),
    ...chatPrompts(),
    ...web.cases,
    ...news.cases,
  ];
  // added later, kept apart from every other family's texts; the payloads above also arrive inside
  // assistants' answers (AlpacaEval's, kept apart as carriers)
  const alpaca = alpacaEval();
  const answers = spliced(
    [...cse.payloads, ...listPayloads].filter((_, i) => i % 2 === 0),
    alpaca.carriers,
    47,
  );
  drafts.push(
    ...withoutCrossFamilyCopies(drafts, [
      ...pegTranslations(),
      ...pyrit(),
      ...llmSecurity(),
      ...answers,
      ...alpaca.cases,
      ...owaspNeighbours(),
    ]),
  );
  // the families added last, kept apart from every family above
  drafts.push(...withoutCrossFamilyCopies(drafts, [...arcanum(), ...owaspCheatSheets()]));
  // and the family after them, kept apart from all of these
  drafts.push(...withoutCrossFamilyCopies(drafts, hivetrace()));
  drafts.push(...withoutCrossFamilyCopies(drafts, pincer()));
  drafts.push(...withoutCrossFamilyCopies(drafts, deepteam()));
  // spikee, kept apart from all of them by its payloads' own words (a carrier's sentences recur in other
  // families' spliced cases); its payloads then go into the carriers of the first families and assistants' answers
  const sp = spikee();
  const asDraft = (p: Payload): Draft => ({
    ...p,
    label: 'injection',
    kind: 'indirect',
    licence: REPOS.spikee.licence,
  });
  const spKept = new Set(
    withoutCrossFamilyCopies(drafts, [...sp.cases, ...sp.payloads.map(asDraft)]).map((d) => d.text),
  );
  drafts.push(...sp.cases.filter((d) => spKept.has(d.text)));
  drafts.push(
    ...spliced(
      sp.payloads.filter((p) => spKept.has(p.text)),
      [...carriers, ...alpaca.carriers].reverse(),
      53,
    ),
  );
  // benign transcripts, in the families of their dialogues, kept apart from every other family's texts
  drafts.push(...withoutCrossFamilyCopies(drafts, benignTranscripts()));
  // the families added after them, each kept apart from every family above
  drafts.push(...withoutCrossFamilyCopies(drafts, aiTestingGuide()));
  drafts.push(...withoutCrossFamilyCopies(drafts, fabricPatterns()));
  const seen = new Set<string>();
  const out: DataCase[] = [];
  for (const d of drafts) {
    const text = d.text.trim();
    if (!text || seen.has(text)) continue;
    seen.add(text);
    const id = `${d.family}:${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
    out.push({ id, ...d, text });
  }
  return out;
}

function main(): void {
  const dir = arg('repos');
  if (!dir) {
    console.error(
      'usage: node scripts/detect/build-injection-data.ts --repos DIR (one clone per repository, DIR/owner+name)',
    );
    process.exit(2);
  }
  reposDir = dir;
  const cases = build();
  const outDir = join(REPO, 'datasets/detect/injection');
  mkdirSync(outDir, { recursive: true });
  const body = cases.map((c) => JSON.stringify(c)).join('\n') + '\n';
  writeFileSync(join(outDir, 'cases.jsonl.gz'), gzipSync(body, { level: 9 }));
  const counts = new Map<string, number>();
  for (const c of cases) counts.set(`${c.family}\t${c.kind}`, (counts.get(`${c.family}\t${c.kind}`) ?? 0) + 1);
  for (const [k, n] of [...counts].sort()) console.log(`${k}\t${n}`);
  console.log(`${cases.length} cases, ${(body.length / 1e6).toFixed(2)} MB of JSONL`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
