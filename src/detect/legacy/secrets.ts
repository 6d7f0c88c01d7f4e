// Frozen copy of the detectors before the performance rewrite: the oracle of the equivalence tests
// (equivalence.test.ts). Not used at run time.
// Secret detectors: provider tokens with fixed prefixes, private key blocks, JWTs, our own svc_live_
// tokens (CRC-checked), credentials in URLs and high-entropy values assigned to secret-looking names.
// Documented example keys and placeholders are rejected.

import { crc32 } from "node:zlib";
import { shannonEntropy } from "../checksums.ts";
import type { Finding } from "../types.ts";

// ---------------------------------------------------------------- placeholders

const PLACEHOLDER_WORDS =
  /example|sample|placeholder|dummy|changeme|change_me|your[_-]?|redacted|xxxx|\*\*\*|\.\.\.|<[^>]{0,40}>|\$\{|\{\{|%s|notarealkey|not_a_real|fake|insert|replace_?me|todo/i;

/** True for obvious placeholders: documented examples, x-runs, very low variety, template markers. */
export function isPlaceholder(v: string): boolean {
  if (PLACEHOLDER_WORDS.test(v)) return true;
  const core = v.replace(/^[a-z]{2,6}[-_](?:[a-z]{2,8}[-_])?/i, "");
  if (core.length >= 8) {
    const distinct = new Set(core).size;
    if (distinct <= 3) return true;
    if (distinct <= 6 && core.length >= 16) return true;
  }
  return false;
}

// ---------------------------------------------------------------- svc_live_ tokens

const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Base62 (0-9A-Za-z, big-endian digits) of crc32(random part), left-padded with '0' to 6 chars. */
export function svcTokenChecksum(random: string): string {
  let n = crc32(random) >>> 0;
  let s = "";
  while (n > 0) {
    s = B62[n % 62]! + s;
    n = Math.floor(n / 62);
  }
  return s.padStart(6, "0");
}

export function isValidSvcToken(token: string): boolean {
  const m = /^svc_live_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/.exec(token);
  return m !== null && svcTokenChecksum(m[1]!) === m[2];
}

// ---------------------------------------------------------------- fixed-format tokens

interface TokenRule {
  type: string;
  re: RegExp;
  score: number;
  validate?: (v: string, text: string, start: number) => boolean;
}

function b64urlJson(part: string): unknown {
  try {
    const s = Buffer.from(part, "base64url").toString("utf8");
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function jwtOk(v: string): boolean {
  const [h, p] = v.split(".");
  if (!h || !p) return false;
  const header = b64urlJson(h);
  if (!header || typeof header !== "object" || !("alg" in header)) return false;
  const payload = Buffer.from(p, "base64url").toString("utf8");
  return payload.startsWith("{");
}

function slackOk(v: string): boolean {
  if (isPlaceholder(v)) return false;
  if (v.startsWith("xapp-")) return /^xapp-\d-[A-Z0-9]{8,14}-\d{10,16}-[a-z0-9]{32,80}$/.test(v);
  const parts = v.split("-");
  const nums = parts.slice(1, -1);
  const last = parts[parts.length - 1] ?? "";
  if (nums.length < 2 || !nums.every((x) => /^\d{8,16}$/.test(x))) return false;
  return last.length >= 20 && /^[A-Za-z0-9]+$/.test(last);
}

function privateKeyBodyOk(block: string): boolean {
  const body = block
    .replace(/-----(?:BEGIN|END)[^-]{0,60}-----/g, "")
    .replace(/\\n/g, "\n")
    .replace(/^[A-Za-z-]{1,30}:.*$/gm, "");
  const b64 = body.replace(/[^A-Za-z0-9+/=]/g, "");
  if (b64.length < 40) return false;
  return !isPlaceholder(body.replace(/\s+/g, "")) && shannonEntropy(b64) > 4;
}

export const TOKEN_RULES: TokenRule[] = [
  {
    type: "AWS_ACCESS_KEY",
    re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z2-7]{16}(?![A-Za-z0-9])/g,
    score: 0.95,
    validate: (v) => !isPlaceholder(v) && !v.endsWith("EXAMPLE"),
  },
  { type: "GITHUB_TOKEN", re: /(?<![A-Za-z0-9_])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g, score: 0.95, validate: (v) => !isPlaceholder(v) },
  { type: "GITHUB_TOKEN", re: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{60,251}(?![A-Za-z0-9_])/g, score: 0.95, validate: (v) => !isPlaceholder(v) },
  { type: "GITLAB_TOKEN", re: /(?<![A-Za-z0-9_-])(?:glpat|gldt|glptt|glrt|glsoat|glcbt|gloas)-[A-Za-z0-9_-]{20,64}(?![A-Za-z0-9_-])/g, score: 0.95, validate: (v) => !isPlaceholder(v) },
  { type: "SLACK_TOKEN", re: /(?<![A-Za-z0-9])xox[abposre]-[0-9A-Za-z-]{10,250}(?![A-Za-z0-9-])/g, score: 0.9, validate: slackOk },
  { type: "SLACK_TOKEN", re: /(?<![A-Za-z0-9])xapp-[0-9A-Za-z-]{10,250}(?![A-Za-z0-9-])/g, score: 0.9, validate: slackOk },
  {
    type: "SLACK_WEBHOOK",
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Z0-9]{6,12}\/[AB][A-Z0-9]{6,12}\/[A-Za-z0-9]{20,40}(?![A-Za-z0-9])/g,
    score: 0.95,
    validate: (v) => !isPlaceholder(v.slice(30)),
  },
  { type: "STRIPE_KEY", re: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,247}(?![A-Za-z0-9])/g, score: 0.95, validate: (v) => !isPlaceholder(v) },
  { type: "NPM_TOKEN", re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, score: 0.9, validate: (v) => !isPlaceholder(v) },
  {
    type: "OPENAI_API_KEY",
    re: /(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
    score: 0.95,
    validate: (v) => !isPlaceholder(v) && (v.includes("T3BlbkFJ") || (/^sk-(?:proj|svcacct|admin)-/.test(v) && v.length >= 100)),
  },
  {
    type: "ANTHROPIC_API_KEY",
    re: /(?<![A-Za-z0-9_-])sk-ant-(?:api|admin|oat|sid)\d{2}-[A-Za-z0-9_-]{80,120}(?![A-Za-z0-9_-])/g,
    score: 0.95,
    validate: (v) => !isPlaceholder(v),
  },
  { type: "HUGGINGFACE_TOKEN", re: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{34,40}(?![A-Za-z0-9])/g, score: 0.9, validate: (v) => !isPlaceholder(v) && /[A-Z]/.test(v) && /[a-z]/.test(v.slice(3)) },
  { type: "GOOGLE_API_KEY", re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, score: 0.95, validate: (v) => !isPlaceholder(v) },
  { type: "AZURE_KEY", re: /(?<![A-Za-z0-9])AccountKey=[A-Za-z0-9+/]{86}==/g, score: 0.95 },
  { type: "AZURE_KEY", re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, score: 0.85 },
  { type: "AGENT_LEDGER_TOKEN", re: /(?<![A-Za-z0-9_])svc_live_[0-9A-Za-z]{36}(?![A-Za-z0-9])/g, score: 0.99, validate: isValidSvcToken },
  {
    type: "JWT",
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,4096}\.eyJ[A-Za-z0-9_-]{2,16384}\.[A-Za-z0-9_-]{10,4096}(?![A-Za-z0-9_-])/g,
    score: 0.9,
    validate: jwtOk,
  },
];

const PK_BEGIN_RE = /-----BEGIN (?:[A-Z0-9]{1,12} ){0,2}PRIVATE KEY(?: BLOCK)?-----/g;

function detectPrivateKeys(text: string): Finding[] {
  const out: Finding[] = [];
  PK_BEGIN_RE.lastIndex = 0;
  for (let m = PK_BEGIN_RE.exec(text); m; m = PK_BEGIN_RE.exec(text)) {
    const s = m.index;
    const limit = Math.min(text.length, s + 16384);
    const endIdx = text.indexOf("-----END", s + m[0].length);
    let e: number;
    if (endIdx !== -1 && endIdx < limit) {
      const close = text.indexOf("-----", endIdx + 8);
      e = close !== -1 && close < endIdx + 80 ? close + 5 : endIdx + 8;
    } else {
      // no END marker: the key body runs while lines look like base64 (possibly indented)
      e = s + m[0].length;
      const bodyRe = /\r?\n[ \t]{0,16}[A-Za-z0-9+/=]{8,128}/y;
      for (;;) {
        bodyRe.lastIndex = e;
        const b = bodyRe.exec(text);
        if (!b || b.index + b[0].length > limit) break;
        e = b.index + b[0].length;
      }
    }
    if (privateKeyBodyOk(text.slice(s, e))) out.push({ type: "PRIVATE_KEY", start: s, end: e, score: 0.99 });
    PK_BEGIN_RE.lastIndex = Math.max(PK_BEGIN_RE.lastIndex, e);
  }
  return out;
}

// ---------------------------------------------------------------- assignments to secret-looking names

const KEYWORD_RE = /password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|credential|client[_-]?secret|signing[_-]?key|encryption[_-]?key/gi;
const KEY_CHARS = /[A-Za-z0-9_.-]/;
/** Key names that hold references or metadata, not secrets. */
const NON_SECRET_KEY = /(?:^|[_.-])?(?:id|ids|name|names|file|path|dir|url|uri|type|version|variable|var|env|length|len|count|expiry|expires|expiration|ttl|hint|policy|field|header|prefix|format|label|mode|enabled|required|reset|hash|public|endpoint|location|ref|arn|rotation)$/i;
const PUBLIC_KEY = /public|publishable|pub[_-]?key/i;
const CODE_REF = /^(?:os\.|process\.env|env\.|getenv|config\.|settings\.|self\.|this\.|args\.|params\.|request\.|req\.|input\(|none$|null$|nil$|true$|false$|undefined$)/i;

function secretValueOk(value: string, passwordLike: boolean): boolean {
  if (value.length < (passwordLike ? 6 : 12) || value.length > 200) return false;
  if (isPlaceholder(value)) return false;
  if (CODE_REF.test(value)) return false;
  if (/^[A-Z_]{3,}$/.test(value)) return false; // PASSWORD, MY_SECRET: variable names / placeholders
  if (/^\$|^%|^\{|^\[|^<|^\(/.test(value)) return false; // references, templates
  if (/^[a-z]+(?:[A-Z][a-z]+)*$/.test(value) && value.length < 24 && !passwordLike) return false; // camelCase identifiers
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) && !passwordLike) return false;
  if (/^\d+$/.test(value) && value.length < 12) return false;
  if (/^(?:https?|file):\/\//i.test(value)) return false;
  const h = shannonEntropy(value);
  if (passwordLike) return h >= 2.5 && /[A-Za-z]/.test(value) && (/\d/.test(value) || /[^A-Za-z0-9]/.test(value) || /[A-Z]/.test(value.slice(1)));
  return h >= 3.2 && /\d/.test(value) && /[A-Za-z]/.test(value);
}

function detectAssignments(text: string): Finding[] {
  const out: Finding[] = [];
  KEYWORD_RE.lastIndex = 0;
  let skipUntil = -1;
  for (let m = KEYWORD_RE.exec(text); m; m = KEYWORD_RE.exec(text)) {
    if (m.index < skipUntil) continue;
    // expand to the whole key name
    let ks = m.index;
    while (ks > 0 && m.index - ks < 40 && KEY_CHARS.test(text[ks - 1]!)) ks--;
    let ke = m.index + m[0].length;
    while (ke < text.length && ke - m.index < 40 && KEY_CHARS.test(text[ke]!)) ke++;
    skipUntil = ke;
    const key = text.slice(ks, ke);
    if (NON_SECRET_KEY.test(key) || PUBLIC_KEY.test(key)) continue;
    // key close quote, spaces, operator, spaces, open quote
    let i = ke;
    if (text[i] === '"' || text[i] === "'") i++;
    while (i < text.length && i - ke < 4 && (text[i] === " " || text[i] === "\t")) i++;
    let op = "";
    if (text.startsWith(":=", i) || text.startsWith("=>", i)) op = text.slice(i, i + 2);
    else if (text[i] === "=" || text[i] === ":") op = text[i]!;
    if (!op) continue;
    i += op.length;
    while (i < text.length && i - ke < 10 && (text[i] === " " || text[i] === "\t")) i++;
    let quote = "";
    if (text[i] === '"' || text[i] === "'" || text[i] === "`") {
      quote = text[i]!;
      i++;
    }
    const vs = i;
    const limit = Math.min(text.length, vs + 200);
    if (quote) {
      while (i < limit && text[i] !== quote && text[i] !== "\n") i++;
      if (text[i] !== quote) continue;
    } else {
      while (i < limit && !/[\s,;"'`)}\]]/.test(text[i]!)) i++;
    }
    const value = text.slice(vs, i);
    const lowerKey = key.toLowerCase();
    const passwordLike = /pass|pwd/.test(lowerKey);
    let type = "GENERIC_SECRET";
    if (/aws/.test(lowerKey) && /secret/.test(lowerKey)) type = "AWS_SECRET_KEY";
    else if (/^secret[_-]?key$/.test(lowerKey.replace(/^["']/, "")) && /^[A-Za-z0-9/+]{40}$/.test(value)) type = "AWS_SECRET_KEY";
    if (type === "AWS_SECRET_KEY" && !/^[A-Za-z0-9/+]{40}$/.test(value)) type = "GENERIC_SECRET";
    if (!secretValueOk(value, passwordLike)) continue;
    out.push({ type, start: vs, end: i, score: type === "AWS_SECRET_KEY" ? 0.9 : passwordLike ? 0.8 : 0.75 });
    skipUntil = i;
  }
  return out;
}

const URL_CRED_RE = /(?<![A-Za-z0-9+.-])[a-z][a-z0-9+.-]{1,20}:\/\/([^\s/:@"'`]{0,64}):([^\s/@"'`]{1,128})@[A-Za-z0-9.-]{1,253}/gi;
const CLI_PASSWORD_RE = /(?<=\s)-p([^\s"'`-][^\s"'`]{3,63})(?=\s)/g;

function detectCredentialUrls(text: string): Finding[] {
  const out: Finding[] = [];
  if (text.indexOf("://") < 0 || text.indexOf("@") < 0) URL_CRED_RE.lastIndex = text.length;
  else URL_CRED_RE.lastIndex = 0;
  for (let m = URL_CRED_RE.exec(text); m; m = URL_CRED_RE.exec(text)) {
    const user = m[1]!;
    const pass = m[2]!;
    if (isPlaceholder(pass) || isPlaceholder(user) || /^[A-Z_]+$/.test(pass) || /^\{|\}$/.test(pass)) continue;
    if (pass.length < 4) continue;
    const ps = m.index + m[0].indexOf(":" + pass + "@", m[0].indexOf("//") + 2 + user.length - 1) + 1;
    out.push({ type: "GENERIC_SECRET", start: ps, end: ps + pass.length, score: 0.85 });
  }
  CLI_PASSWORD_RE.lastIndex = /mysql|mariadb/.test(text) ? 0 : text.length;
  for (let m = CLI_PASSWORD_RE.exec(text); m; m = CLI_PASSWORD_RE.exec(text)) {
    const lineStart = text.lastIndexOf("\n", m.index) + 1;
    const line = text.slice(Math.max(lineStart, m.index - 120), m.index);
    if (!/\b(?:mysql|mysqldump|mariadb|mysqladmin)\b/.test(line)) continue;
    const v = m[1]!;
    if (isPlaceholder(v) || !secretValueOk(v, true)) continue;
    out.push({ type: "GENERIC_SECRET", start: m.index + 2, end: m.index + 2 + v.length, score: 0.8 });
  }
  return out;
}

/**
 * One pass finds the literal prefixes the token formats start with; a token rule runs only when the
 * text holds its prefix. The rules below are listed with the prefixes that gate them.
 */
const PREFIX_RE =
  /(?:gh[pousr]|github_pat|npm|hf|[sr]k|svc_live)_|(?:sk|xox[abposre]|xapp|gl(?:pat|dt|ptt|rt|soat|cbt|oas))-|A(?:KIA|SIA|BIA|CCA|GPA|IDA|IPA|NPA|NVA|ROA|PKA|SCA|Iza|ccountKey=)|Q~|eyJ|-----BEGIN|hooks\.slack\.com/g;

function ruleGate(r: TokenRule, found: ReadonlySet<string>): boolean {
  const has = (...ps: string[]) => ps.some((p) => found.has(p));
  switch (r.type) {
    case "AWS_ACCESS_KEY":
      return has("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA", "ASCA");
    case "GITHUB_TOKEN":
      return has("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_");
    case "GITLAB_TOKEN":
      return has("glpat-", "gldt-", "glptt-", "glrt-", "glsoat-", "glcbt-", "gloas-");
    case "SLACK_TOKEN":
      return [...found].some((p) => p.startsWith("xox") || p === "xapp-");
    case "SLACK_WEBHOOK":
      return has("hooks.slack.com");
    case "STRIPE_KEY":
      return has("sk_", "rk_");
    case "NPM_TOKEN":
      return has("npm_");
    case "OPENAI_API_KEY":
    case "ANTHROPIC_API_KEY":
      return has("sk-");
    case "HUGGINGFACE_TOKEN":
      return has("hf_");
    case "GOOGLE_API_KEY":
      return has("AIza");
    case "AZURE_KEY":
      return has("AccountKey=", "Q~");
    case "AGENT_LEDGER_TOKEN":
      return has("svc_live_");
    case "JWT":
      return has("eyJ");
    default:
      return true;
  }
}

export function detectSecrets(text: string): Finding[] {
  const specific: Finding[] = [];
  const found = new Set<string>();
  PREFIX_RE.lastIndex = 0;
  for (let m = PREFIX_RE.exec(text); m; m = PREFIX_RE.exec(text)) found.add(m[0]);
  for (const r of TOKEN_RULES) {
    if (!ruleGate(r, found)) continue;
    r.re.lastIndex = 0;
    for (let m = r.re.exec(text); m; m = r.re.exec(text)) {
      if (r.validate && !r.validate(m[0], text, m.index)) continue;
      specific.push({ type: r.type, start: m.index, end: m.index + m[0].length, score: r.score });
    }
  }
  if (found.has("-----BEGIN")) specific.push(...detectPrivateKeys(text));
  const out = [...specific];
  // generic findings only where no specific token was found (sorted by start for a linear check)
  specific.sort((a, b) => a.start - b.start);
  const generic = [...detectAssignments(text), ...detectCredentialUrls(text)].sort((a, b) => a.start - b.start);
  let lastEnd = -1;
  for (const f of generic) {
    if (f.start < lastEnd || overlapsSorted(f, specific)) continue;
    out.push(f);
    lastEnd = f.end;
  }
  return out.sort((a, b) => a.start - b.start);
}

function overlapsSorted(f: Finding, sorted: Finding[]): boolean {
  // binary search for the first span ending after f.start
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.end <= f.start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < sorted.length && sorted[i]!.start < f.end; i++) if (sorted[i]!.end > f.start) return true;
  return false;
}

