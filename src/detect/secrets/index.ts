import { checksum } from '../../core/index.ts';
import * as chars from '../text/chars.ts';
import type { Finding } from '../types.ts';
import * as vendorsModule from './vendors.ts';
import type { VendorRule } from './vendors.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const {
  APOSTROPHE,
  BACKTICK,
  CLOSE_BRACKET,
  COLON,
  DIGIT_0,
  DIGIT_9,
  EQUALS,
  GREATER,
  HYPHEN,
  isAsciiAlnum,
  isAsciiDigit,
  isAsciiLetter,
  isAsciiUpper,
  lowerAscii,
  QUOTE,
  SPACE,
  TAB,
  UNDERSCORE,
} = chars;
const { AZURE_SIGNATURES, VENDOR_RULES } = vendorsModule;

// ---------------------------------------------------------------- placeholders

const PLACEHOLDER_WORDS =
  /example|sample|placeholder|dummy|changeme|change_me|your[_-]?|redacted|xxxx|\*\*\*|\.\.\.|<[^>]{0,40}>|\$\{|\{\{|%s|notarealkey|not_a_real|fake|insert|replace_?me|todo/i;

/** True for obvious placeholders: documented examples, x-runs, very low variety, counting runs, template markers. */
export function isPlaceholder(v: string): boolean {
  if (PLACEHOLDER_WORDS.test(v)) return true;
  // the "core" drops a short word prefix such as `sk_` or `ghp_live_` (/^[a-z]{2,6}[-_](?:[a-z]{2,8}[-_])?/i)
  let off = wordPrefixEnd(v, 0, 6);
  if (off > 0) off = wordPrefixEnd(v, off, 8) || off;
  const n = v.length - off;
  if (n < 8) return false;
  if (isCountingRun(v, off)) return true;
  // at most 3 distinct characters, or at most 6 in a core of 16 or more
  const cap = n >= 16 ? 6 : 3;
  return distinctCodePoints(v, off, cap + 1) <= cap;
}

/** v[from..] counts up or down one step at a time ("1234567890", "abcdefgh", "9876543210"; 9 and 0 wrap). */
function isCountingRun(v: string, from: number): boolean {
  const step = (a: number, b: number) =>
    b - a === 1 || (a === DIGIT_9 && b === DIGIT_0) ? 1 : a - b === 1 || (a === DIGIT_0 && b === DIGIT_9) ? -1 : 0;
  const dir = step(v.charCodeAt(from), v.charCodeAt(from + 1));
  if (dir === 0) return false;
  for (let i = from + 2; i < v.length; i++) if (step(v.charCodeAt(i - 1), v.charCodeAt(i)) !== dir) return false;
  return true;
}

/** End (after the separator) of a run of 2..max ASCII letters at `from` followed by '-' or '_'; 0 if none. */
function wordPrefixEnd(v: string, from: number, max: number): number {
  let i = from;
  while (i < v.length && isAsciiLetter(v.charCodeAt(i))) i++;
  const n = i - from;
  const c = v.charCodeAt(i);
  return n >= 2 && n <= max && (c === HYPHEN || c === UNDERSCORE) ? i + 1 : 0;
}

const seenCodePoints: number[] = [];

/** Number of distinct code points in v from `from` (as `new Set(string)` counts), counting stops at `stop`. */
function distinctCodePoints(v: string, from: number, stop: number): number {
  const seen = seenCodePoints;
  seen.length = 0;
  for (let i = from; i < v.length; i++) {
    let c = v.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < v.length) {
      const d = v.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (!seen.includes(c)) {
      seen.push(c);
      if (seen.length >= stop) break;
    }
  }
  return seen.length;
}

const charCounts = new Int32Array(65536);
const charOrder: number[] = [];

/**
 * Shannon entropy in bits per UTF-16 code unit: text/checksums.ts's shannonEntropy without its Map (sums in
 * the same order, first occurrence first, so the result is the same double).
 */
function entropy(s: string): number {
  const n = s.length;
  if (n === 0) return 0;
  const order = charOrder;
  order.length = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const k = charCounts[c]!;
    charCounts[c] = k + 1;
    if (k === 0) order.push(c);
  }
  let h = 0;
  for (const c of order) {
    const p = charCounts[c]! / n;
    h -= p * Math.log2(p);
    charCounts[c] = 0;
  }
  return h;
}

// ---------------------------------------------------------------- svc_live_ tokens

// The format is core's (core/token-format.ts): the checksum is computed there, once, for accounts issuing tokens and detect finding them.
export function isValidSvcToken(token: string): boolean {
  const m = /^svc_live_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/.exec(token);
  return m !== null && checksum(m[1]!) === m[2];
}

// ---------------------------------------------------------------- fixed-format tokens

interface TokenRule {
  type: string;
  /** Which literal a match starts with: the rule's sticky regex is tried only where that literal occurs. */
  starts: TokenStart;
  re: RegExp;
  score: number;
  validate?: (v: string, text: string, start: number) => boolean;
}

function b64urlJson(part: string): unknown {
  try {
    const s = Buffer.from(part, 'base64url').toString('utf8');
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function jwtOk(v: string): boolean {
  const [h, p] = v.split('.');
  if (!h || !p) return false;
  const header = b64urlJson(h);
  if (!header || typeof header !== 'object' || !('alg' in header)) return false;
  const payload = Buffer.from(p, 'base64url').toString('utf8');
  return payload.startsWith('{');
}

function slackOk(v: string): boolean {
  if (isPlaceholder(v)) return false;
  if (v.startsWith('xapp-')) return /^xapp-\d-[A-Z0-9]{8,14}-\d{10,16}-[a-z0-9]{32,80}$/.test(v);
  // rotating tokens and their refresh tokens (xoxe.xoxp-1-…, xoxe-1-…): https://api.slack.com/authentication/rotation
  if (/^xox[a-z]-\d-[A-Za-z0-9-]{40,}$/.test(v)) return /\d/.test(v.slice(7)) && /[A-Za-z]/.test(v.slice(7));
  const parts = v.split('-');
  const nums = parts.slice(1, -1);
  const last = parts[parts.length - 1] ?? '';
  if (nums.length < 2 || !nums.every((x) => /^\d{8,16}$/.test(x))) return false;
  return last.length >= 20 && /^[A-Za-z0-9]+$/.test(last);
}

function privateKeyBodyOk(block: string): boolean {
  const body = block
    .replace(/-----(?:BEGIN|END)[^-]{0,60}-----/g, '')
    .replace(/\\n/g, '\n')
    .replace(/^[A-Za-z-]{1,30}:.*$/gm, '');
  const b64 = body.replace(/[^A-Za-z0-9+/=]/g, '');
  if (b64.length < 40) return false;
  return !isPlaceholder(body.replace(/\s+/g, '')) && entropy(b64) > 4;
}

export const TOKEN_RULES: TokenRule[] = [
  {
    type: 'AWS_ACCESS_KEY',
    starts: 'aws',
    re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z2-7]{16}(?![A-Za-z0-9])/y,
    score: 0.95,
    validate: (v) => !isPlaceholder(v) && !v.endsWith('EXAMPLE'),
  },
  {
    type: 'GITHUB_TOKEN',
    starts: 'gh',
    re: /(?<![A-Za-z0-9_])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/y,
    score: 0.95,
    validate: (v) => !isPlaceholder(v),
  },
  {
    type: 'GITHUB_TOKEN',
    starts: 'ghpat',
    re: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{60,251}(?![A-Za-z0-9_])/y,
    score: 0.95,
    validate: (v) => !isPlaceholder(v),
  },
  {
    type: 'GITLAB_TOKEN',
    starts: 'gl',
    // https://docs.gitlab.com/ee/security/tokens/#token-prefixes
    re: /(?<![A-Za-z0-9_-])(?:glpat|gldt|glptt|glrt|glsoat|glcbt|gloas|glft|glimt|glagent|glffct|glwt)-[A-Za-z0-9_-]{20,64}(?![A-Za-z0-9_-])/y,
    score: 0.95,
    validate: (v) => !isPlaceholder(v),
  },
  {
    type: 'SLACK_TOKEN',
    starts: 'xox',
    re: /(?<![A-Za-z0-9])xox[abposre]-[0-9A-Za-z-]{10,250}(?![A-Za-z0-9-])/y,
    score: 0.9,
    validate: slackOk,
  },
  {
    type: 'SLACK_TOKEN',
    starts: 'xapp',
    re: /(?<![A-Za-z0-9])xapp-[0-9A-Za-z-]{10,250}(?![A-Za-z0-9-])/y,
    score: 0.9,
    validate: slackOk,
  },
  {
    type: 'SLACK_WEBHOOK',
    starts: 'hook',
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Z0-9]{6,12}\/[AB][A-Z0-9]{6,12}\/[A-Za-z0-9]{20,40}(?![A-Za-z0-9])/y,
    score: 0.95,
    validate: (v) => !isPlaceholder(v.slice(30)),
  },
  {
    type: 'STRIPE_KEY',
    starts: 'stripe',
    re: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,247}(?![A-Za-z0-9])/y,
    score: 0.95,
    validate: (v) => !isPlaceholder(v),
  },
  {
    type: 'NPM_TOKEN',
    starts: 'npm',
    re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/y,
    score: 0.9,
    validate: (v) => !isPlaceholder(v),
  },
  {
    type: 'OPENAI_API_KEY',
    starts: 'sk-',
    re: /(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/y,
    score: 0.95,
    validate: (v) =>
      !isPlaceholder(v) && (v.includes('T3BlbkFJ') || (/^sk-(?:proj|svcacct|admin)-/.test(v) && v.length >= 100)),
  },
  {
    type: 'ANTHROPIC_API_KEY',
    starts: 'sk-',
    re: /(?<![A-Za-z0-9_-])sk-ant-(?:api|admin|oat|sid)\d{2}-[A-Za-z0-9_-]{80,120}(?![A-Za-z0-9_-])/y,
    score: 0.95,
    validate: (v) => !isPlaceholder(v),
  },
  {
    type: 'HUGGINGFACE_TOKEN',
    starts: 'hf',
    re: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{34,40}(?![A-Za-z0-9])/y,
    score: 0.9,
    validate: (v) => !isPlaceholder(v) && /[A-Z]/.test(v) && /[a-z]/.test(v.slice(3)),
  },
  {
    type: 'GOOGLE_API_KEY',
    starts: 'aiza',
    re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/y,
    score: 0.95,
    validate: (v) => !isPlaceholder(v),
  },
  { type: 'AZURE_KEY', starts: 'acct', re: /(?<![A-Za-z0-9])AccountKey=[A-Za-z0-9+/]{86}==/y, score: 0.95 },
  {
    type: 'AZURE_KEY',
    starts: 'q~',
    re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/y,
    score: 0.85,
  },
  {
    type: 'AGENT_LEDGER_TOKEN',
    starts: 'svc',
    re: /(?<![A-Za-z0-9_])svc_live_[0-9A-Za-z]{36}(?![A-Za-z0-9])/y,
    score: 0.99,
    validate: isValidSvcToken,
  },
  {
    type: 'JWT',
    starts: 'jwt',
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,4096}\.eyJ[A-Za-z0-9_-]{2,16384}\.[A-Za-z0-9_-]{10,4096}(?![A-Za-z0-9_-])/y,
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
    const endIdx = text.indexOf('-----END', s + m[0].length);
    let e: number;
    if (endIdx !== -1 && endIdx < limit) {
      const close = text.indexOf('-----', endIdx + 8);
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
    if (privateKeyBodyOk(text.slice(s, e))) out.push({ type: 'PRIVATE_KEY', start: s, end: e, score: 0.99 });
    PK_BEGIN_RE.lastIndex = Math.max(PK_BEGIN_RE.lastIndex, e);
  }
  return out;
}

// ---------------------------------------------------------------- assignments to secret-looking names

const KEYWORD_RE =
  /password|passwd|passphrase|pass(?![a-z])|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|credential|client[_-]?secret|signing[_-]?key|encryption[_-]?key|auth(?![a-z])|key(?![a-z])|(?<![a-z])pat(?![a-z])/gi;
const KEYWORD_AT = new RegExp(KEYWORD_RE.source, 'iy');
/** Words that end a key name just before "key" (api_key, accesskey, ...), as in KEYWORD_RE. */
const KEY_NAME_WORDS = ['api', 'access', 'auth', 'private', 'signing', 'encryption'];

/**
 * Start/end pairs of KEYWORD_RE's successive matches (what a global exec loop yields), without running
 * its 15-way case-insensitive alternation over the whole text: every keyword holds "pass", "pwd", "ke"
 * (token and the *key names) or "cre" (secret, credential), which indexOf finds in the lowercased text;
 * the sticky regex is tried only at the keyword starts those imply.
 */
function keywordMatches(text: string): number[] {
  const out: number[] = [];
  const lower = text.toLowerCase();
  if (lower.length !== text.length) {
    // 'İ' lowercases to two code units: indices in `lower` would not be those of `text`
    KEYWORD_RE.lastIndex = 0;
    for (let m = KEYWORD_RE.exec(text); m; m = KEYWORD_RE.exec(text)) out.push(m.index, m.index + m[0].length);
    return out;
  }
  let next = 0;
  for (const s of keywordStarts(lower)) {
    if (s < next) continue;
    KEYWORD_AT.lastIndex = s;
    if (!KEYWORD_AT.test(text)) continue; // e.g. "passage", or a non-ASCII letter that lowercases to ASCII
    next = KEYWORD_AT.lastIndex;
    out.push(s, next);
  }
  return out;
}

/** Ascending positions where a keyword may start: a superset of KEYWORD_RE's match starts. */
function keywordStarts(lower: string): number[] {
  const starts: number[] = [];
  // "pass", and "pat" (a personal access token: ADO_PAT, github_pat) as a word of the name only, a weak name
  // (STRONG_NAME): one search for both
  for (let q = lower.indexOf('pa'); q !== -1; q = lower.indexOf('pa', q + 2)) {
    const c = lower.charCodeAt(q + 2);
    if (c === 115 /* s */ && lower.charCodeAt(q + 3) === 115) starts.push(q);
    else if (c === 116 /* t */ && !isLowerLetter(lower.charCodeAt(q - 1)) && !isLowerLetter(lower.charCodeAt(q + 3)))
      starts.push(q);
  }
  // "pwd" from its "wd": 'w' is rarer than 'p', and indexOf's cost goes with its first character's count
  for (let q = lower.indexOf('wd'); q !== -1; q = lower.indexOf('wd', q + 1))
    if (lower.charCodeAt(q - 1) === 112) starts.push(q - 1);
  for (let q = lower.indexOf('ke'); q !== -1; q = lower.indexOf('ke', q + 1)) {
    if (startsAt(lower, 'token', q - 2)) starts.push(q - 2);
    else if (lower.charCodeAt(q + 2) === 121 /* y */) {
      const end = isSeparator(lower.charCodeAt(q - 1)) ? q - 1 : q;
      for (const w of KEY_NAME_WORDS) if (startsAt(lower, w, end - w.length)) starts.push(end - w.length);
      starts.push(q); // any other name ending in "key" (SENDGRID_KEY, appKey): a weak name, see WEAK_NAME
    }
  }
  for (let q = lower.indexOf('uth'); q !== -1; q = lower.indexOf('uth', q + 1))
    if (lower.charCodeAt(q - 1) === 97 /* a */) starts.push(q - 1);
  for (let q = lower.indexOf('cre'); q !== -1; q = lower.indexOf('cre', q + 1)) {
    if (startsAt(lower, 'credential', q)) starts.push(q);
    else if (startsAt(lower, 'secret', q - 2)) {
      starts.push(q - 2);
      const end = isSeparator(lower.charCodeAt(q - 3)) ? q - 3 : q - 2;
      if (startsAt(lower, 'client', end - 6)) starts.push(end - 6);
    }
  }
  return starts.sort((x, y) => x - y);
}

function isLowerLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

/**
 * A name written before its value with a space: a CLI flag ("--password …"), a shell "set" ("set KEY …")
 * or a C macro ("#define API_KEY \"…\"", as Arduino sketches hold their keys).
 */
function spacedAssignment(text: string, ks: number): boolean {
  // the key name may have taken the dashes in ("--password")
  if (text.charCodeAt(ks) === HYPHEN && text.charCodeAt(ks + 1) === HYPHEN) return true;
  if (ks >= 2 && text.charCodeAt(ks - 1) === HYPHEN && text.charCodeAt(ks - 2) === HYPHEN) return true;
  if (startsAt(text, '#define ', ks - 8)) return true;
  // a PowerShell parameter or a one-dash flag naming a password ("-Password …", "-pass …")
  // (the key name has taken the dash in)
  if (text.charCodeAt(ks) === HYPHEN && (ks === 0 || isBlank(text.charCodeAt(ks - 1))))
    return isPasswordName(text.slice(ks, Math.min(text.length, ks + 12)));
  return ks >= 4 && startsAtIgnoreCase(text, 'set ', ks - 4) && (ks === 4 || !isAsciiAlnum(text.charCodeAt(ks - 5)));
}

function startsAtIgnoreCase(text: string, lit: string, pos: number): boolean {
  if (pos < 0 || pos + lit.length > text.length) return false;
  for (let k = 0; k < lit.length; k++) if (lowerAscii(text.charCodeAt(pos + k)) !== lit.charCodeAt(k)) return false;
  return true;
}

/** text.startsWith(lit, pos), false (instead of a match at 0) for a negative pos. */
function startsAt(text: string, lit: string, pos: number): boolean {
  return pos >= 0 && text.startsWith(lit, pos);
}

function isSeparator(c: number): boolean {
  return c === UNDERSCORE || c === HYPHEN; // _ -
}

function asciiTable(re: RegExp): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) t[c] = re.test(String.fromCharCode(c)) ? 1 : 0;
  return t;
}

/** [A-Za-z0-9_.-]: the characters of a key name. */
const KEY_CHAR = asciiTable(/[A-Za-z0-9_.-]/);
const VALUE_END_RE = /[\s,;"'`)}\]]/;
const VALUE_END = asciiTable(VALUE_END_RE);

function isKeyChar(c: number): boolean {
  return c < 128 && KEY_CHAR[c] === 1;
}

/** Where an unquoted value stops: whitespace (Unicode's too, as \s has it) or , ; quotes ) } ]. */
function endsValue(c: number): boolean {
  return c < 128 ? VALUE_END[c] === 1 : VALUE_END_RE.test(String.fromCharCode(c));
}

/** Key names that hold references or metadata, not secrets. */
const NON_SECRET_KEY =
  /(?:^|[_.-])?(?:id|ids|name|names|file|path|dir|url|uri|type|version|variable|var|env|length|len|count|expiry|expires|expiration|ttl|hint|policy|field|header|prefix|format|label|mode|enabled|required|reset|hash|public|endpoint|location|ref|arn|rotation)$/i;
const PUBLIC_KEY = /public|publishable|pub[_-]?key/i;
/** Tokens that page through results: opaque, not credentials (NextContinuationToken, page_token). */
const PAGING_TOKEN = /(?:continuation|next|page|pagination|sync|resume|cursor|marker)[_-]?token$/i;
/**
 * A name that only says "key" or "auth" (SENDGRID_KEY, appKey, _auth) rather than password, secret, token,
 * credential or an api/access/private/signing key: its value must look random (secretValueOk's `weak`).
 */
const STRONG_NAME =
  /pass|pwd|secret|token|credential|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|signing|encryption/;
/** Names ending in "key" that are keys of a map, table, cache or list, or public material, not credentials. */
const NON_SECRET_KEY_NAME =
  /(?:sort|cache|partition|primary|foreign|idempotency|object|route|dedupe?|lookup|map|range|row|shard|bucket|translation|i18n|message|ssh|gpg|pgp|host|registry|tracking|issue|project|unique|composite|group|order|index|dict|entry|attr|prop|column|table|state|storage|queue|topic|event|metric|tag|step|nav|react|list|item|cursor|page|search|hot|short|modifier|shortcut|mod|meta|alt|ctrl|shift|cmd|press|up|down|on|off)[_-]?key$|^(?:key|keys)$/i;
const CODE_REF =
  /^(?:os\.|process\.env|env\.|getenv|config\.|settings\.|self\.|this\.|args\.|params\.|request\.|req\.|input\(|none$|null$|nil$|true$|false$|undefined$)/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URL_VALUE = /^(?:https?|file):\/\//i;
/** Code, not a value: a dotted name (output.subarray, React.FC<…>, aspnetcore.identity.x), a call or an index. */
const CODE_EXPRESSION =
  /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+(?:\??\.?[(<[].*)?$|^[A-Za-z_$][\w$]*[(<[]|\$\d*$|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** Words joined by _ - or spaces (reset_password, X-Amz-Security-Token, Show password), paths, ARNs. */
const WORDS_PATH_OR_ARN = /^[A-Za-z]+(?:[_ -][A-Za-z]+)+$|^(?:#|~|\.{1,2})\/|^(?:\/[a-z0-9._-]+)+\/?$|^arn:/;

/**
 * A TypeScript or Java identifier made of words (NodeType, KDFInput, CreateOAuth2TokenCommand): letters and
 * at most two digits, two or more capitalised words or acronyms, words 3.5 letters long on average. A random
 * string of the same alphabet has more digits and shorter runs of lower-case letters.
 */
function identifierLike(v: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(v)) return false;
  const humps = v.match(/[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|[A-Z]|\d+/g) ?? [];
  let letters = 0;
  let words = 0;
  let digits = 0;
  let capitalised = 0;
  for (const h of humps) {
    if (isAsciiDigit(h.charCodeAt(0))) digits += h.length;
    else {
      letters += h.length;
      words++;
      if (h.length >= 2 && isAsciiUpper(h.charCodeAt(0))) capitalised++;
    }
  }
  return digits <= 2 && capitalised >= 2 && letters / words >= 3.5;
}

/**
 * A value worth reporting: long enough, no placeholder, reference or identifier, varied enough.
 * The cheap character-class tests run first; the order does not change the answer.
 */
function secretValueOk(value: string, passwordLike: boolean, weak = false): boolean {
  const n = value.length;
  if (n < (passwordLike ? 6 : weak ? 16 : 12) || n > 200) return false;
  let letter = false;
  let digit = false;
  let other = false;
  let upperAfterFirst = false;
  let capsOrUnderscore = true;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (isAsciiDigit(c)) digit = true;
    else if (isAsciiLetter(c)) {
      letter = true;
      if (isAsciiUpper(c) && i > 0) upperAfterFirst = true;
    } else other = true;
    if (!(isAsciiUpper(c) || c === UNDERSCORE)) capsOrUnderscore = false;
    if (letter && !capsOrUnderscore && (passwordLike ? digit || other || upperAfterFirst : digit)) break; // all known
  }
  // a letter, and a digit (passwords: a digit, a symbol or an inner capital); this also rules out
  // all-digit values and (no digit) camelCase identifiers
  if (!letter) return false;
  if (passwordLike ? !(digit || other || upperAfterFirst) : !digit) return false;
  if (capsOrUnderscore) return false; // PASSWORD, MY_SECRET: variable names / placeholders
  if ('$%{[<('.includes(value[0]!)) return false; // references, templates
  // a UUID under a name that only says key is an id; under api_key, token or secret it is the credential
  // of the vendors whose keys are UUIDs (Heroku's API key, among others)
  if (!passwordLike && weak && UUID.test(value)) return false;
  if (CODE_REF.test(value) || URL_VALUE.test(value) || isPlaceholder(value)) return false;
  if (CODE_EXPRESSION.test(value) && !randomPart(value)) return false;
  if (WORDS_PATH_OR_ARN.test(value) || identifierLike(value)) return false;
  return entropy(value) >= (passwordLike ? 2.5 : weak ? 3.5 : 3.2);
}

/**
 * A dotted value with a part no code names: 16+ letters and digits with a digit, a capital and a small
 * letter after its first char, not a word-built identifier (a Vault token "s.Z4bTMtngfLeQ18AqVoBBkUAOD1",
 * "hawk.nHAOHdJjXoNyzAcTDC5M.R2gq…"; not config.getAccessTokenForUser or settings.SECRET_KEY_2024).
 */
function randomPart(value: string): boolean {
  for (const part of value.split('.'))
    if (
      part.length >= 16 &&
      /^[A-Za-z0-9]+$/.test(part) &&
      /\d/.test(part) &&
      /[A-Z]/.test(part.slice(1)) &&
      /[a-z]/.test(part) &&
      !identifierLike(part)
    )
      return true;
  return false;
}

/** Values assigned to secret-looking names; `specific`: the token findings, sorted by start; `ms`: keywordMatches. */
function detectAssignments(text: string, specific: readonly Finding[], ms: readonly number[]): Finding[] {
  const out: Finding[] = [];
  const len = text.length;
  let skipUntil = -1;
  for (let j = 0; j < ms.length; j += 2) {
    const kw = ms[j]!;
    if (kw < skipUntil) continue;
    // expand to the whole key name
    let ks = kw;
    while (ks > 0 && kw - ks < 40 && isKeyChar(text.charCodeAt(ks - 1))) ks--;
    let ke = ms[j + 1]!;
    while (ke < len && ke - kw < 40 && isKeyChar(text.charCodeAt(ke))) ke++;
    skipUntil = ke;
    const key = text.slice(ks, ke);
    if (NON_SECRET_KEY.test(key) || PUBLIC_KEY.test(key) || PAGING_TOKEN.test(key)) continue;
    // key close quote, spaces, operator (= : := =>), spaces, open quote
    let i = ke;
    const keyQuoted = text.charCodeAt(i) === QUOTE || text.charCodeAt(i) === APOSTROPHE;
    if (keyQuoted) i++;
    if (keyQuoted && text.charCodeAt(i) === CLOSE_BRACKET) i++; // os.environ["KEY"] = …, config['key'] = …
    // names padded into a column ("fbApiKey:            \"…\"", ":password       => '…'"): up to 40 blanks
    while (i < len && i - ke < 40 && isBlank(text.charCodeAt(i))) i++;
    const op = text.charCodeAt(i);
    const op2 = text.charCodeAt(i + 1);
    let spaced = false;
    let prose = false;
    if ((op === COLON && op2 === EQUALS) || (op === EQUALS && op2 === GREATER)) i += 2;
    else if (op === EQUALS || op === COLON) i++;
    else if (keyQuoted && startsAtIgnoreCase(text, 'value=', i))
      i += 6; // <add key="KEY" value="…"/>
    else if (!keyQuoted && i > ke && isPasswordName(key) && proseValueStart(text, ke) > 0) {
      // "the password is 'Secret123'", "the password for user 'postgres' is 'admin'"
      i = proseValueStart(text, ke);
      prose = true;
    } else if (i > ke && spacedAssignment(text, ks)) {
      // "set KEY value", "--key value": the name, a space, the value
    } else if (i > ke && i - ke <= 2 && !keyQuoted) {
      // the name, a space, the value, in prose or a command ("access token sgp_…", "-Password …"): only a
      // value that looks random, as under a name that only says key
      spaced = true;
    } else continue;
    const opEnd = i;
    while (i < len && i - opEnd < 40 && isBlank(text.charCodeAt(i))) i++;
    const quote = text.charCodeAt(i);
    const quoted = quote === QUOTE || quote === APOSTROPHE || quote === BACKTICK;
    if (quoted) i++;
    const vs = i;
    const limit = Math.min(len, vs + 200);
    if (quoted) {
      while (i < limit && text.charCodeAt(i) !== quote && text.charCodeAt(i) !== 10) i++;
      if (text.charCodeAt(i) !== quote) continue;
    } else {
      while (i < limit && !endsValue(text.charCodeAt(i))) i++;
    }
    // A value overlapping a specific token is dropped in the end anyway (e.g. GITHUB_TOKEN=ghp_...). Its
    // verdict matters only when a keyword starts inside it: a reported value makes this loop skip those.
    if (overlapsSorted(vs, i, specific) && !keywordStartsIn(ms, j + 2, ke, i)) continue;
    // a sentence's last word: without the sentence's punctuation
    if (prose && !quoted) while (i > vs && PROSE_END.includes(text[i - 1]!)) i--;
    const value = text.slice(vs, i);
    const lowerKey = key.toLowerCase();
    const passwordLike = isPasswordName(key);
    const weak = spaced || !STRONG_NAME.test(lowerKey);
    if (weak && NON_SECRET_KEY_NAME.test(lowerKey)) continue;
    let type = 'GENERIC_SECRET';
    if (lowerKey.includes('aws') && lowerKey.includes('secret')) type = 'AWS_SECRET_KEY';
    else if (/^secret[_-]?(?:access[_-]?)?key$/.test(lowerKey) && AWS_SECRET.test(value)) type = 'AWS_SECRET_KEY';
    if (type === 'AWS_SECRET_KEY' && !AWS_SECRET.test(value)) type = 'GENERIC_SECRET';
    // a password written as a string is one whatever it looks like ('open sesame', "centipede"); in prose
    // only a quoted one or one that looks like a password
    const ok =
      secretValueOk(value, passwordLike && !spaced, weak) ||
      ((quoted || connectionStringPair(text, ks, i)) &&
        !spaced &&
        PASSWORD_NAME_END.test(lowerKey) &&
        plainPasswordOk(value));
    if (DOCUMENTED_EXAMPLES.has(value)) continue;
    if (!ok || (prose && !quoted && !(/\d/.test(value) && /[A-Za-z]/.test(value)))) continue;
    out.push({ type, start: vs, end: i, score: type === 'AWS_SECRET_KEY' ? 0.9 : passwordLike ? 0.8 : 0.75 });
    skipUntil = i;
  }
  return out;
}

const AWS_SECRET = /^[A-Za-z0-9/+]{40}$/;

// ---------------------------------------------------------------- random tokens after a secret word

/** [A-Za-z0-9_+/=.-]: the characters of a token (base64, base64url, hex, vendor prefixes and dots). */
const TOKEN_CHAR = asciiTable(/[A-Za-z0-9_+/=.-]/);
/** How far after a secret word (on its line) a token may start: "clarifai access key for the bot: …". */
const LINE_TOKEN_REACH = 100;
/**
 * Words just before the secret word or between it and the token that say the token is a digest, an id or
 * public material, not a credential ("the key's sha256 fingerprint is …", "key id 4f2…", "GPG key 4AEE…").
 */
const DIGEST_OR_ID_WORDS =
  /sha|hash|checksum|digest|integrity|fingerprint|commit|uuid|nonce|\bids?\b|public|gpg|pgp|ssh/i;
/** How far before the secret word DIGEST_OR_ID_WORDS are looked for ("ssh public key: …"). */
const WORDS_BEFORE = 24;

function isTokenChar(c: number): boolean {
  return c < 128 && TOKEN_CHAR[c] === 1;
}

/**
 * A token that looks drawn at random rather than written: its longest letter-and-digit run has 16+
 * characters, a letter and a digit, no run of 9 letters of one case (words, identifiers), not more than 80 %
 * digits (numbers, timestamps), no camel-case identifier's shape, and the entropy of random text of its
 * alphabet (hex ≥ 3.0 bits a character — a random 32-hex key has about 3.8 — other ≥ 3.8; base62 has about
 * 4.6 at 32 characters). Not a dotted name (code), not a placeholder.
 */
function randomLookingToken(t: string): boolean {
  let best = 0;
  let bestStart = 0;
  for (let i = 0; i < t.length;) {
    if (!isAsciiAlnum(t.charCodeAt(i))) {
      i++;
      continue;
    }
    const s = i;
    while (i < t.length && isAsciiAlnum(t.charCodeAt(i))) i++;
    if (i - s > best) {
      best = i - s;
      bestStart = s;
    }
  }
  if (best < 16) return false;
  const core = t.slice(bestStart, bestStart + best);
  let digits = 0;
  let letters = 0;
  let hex = true;
  let run = 0;
  let runCase = 0; // 1 lower, 2 upper
  for (let i = 0; i < core.length; i++) {
    const c = core.charCodeAt(i);
    if (isAsciiDigit(c)) {
      digits++;
      run = 0;
      continue;
    }
    letters++;
    const lc = lowerAscii(c);
    if (lc > 102 /* f */) hex = false;
    const cs = c === lc ? 1 : 2;
    run = cs === runCase ? run + 1 : 1;
    runCase = cs;
    if (run >= 9) return false;
  }
  if (!digits || !letters || digits > 0.8 * core.length) return false;
  // a camel-case name with a digit or two (resolveAwsSdkSigV4AConfig): five small letters, then a capital
  let lead = 0;
  while (lead < core.length && isLowerLetter(core.charCodeAt(lead))) lead++;
  if (lead >= 5 && isAsciiUpper(core.charCodeAt(lead))) return false;
  if (identifierLike(core) || isPlaceholder(t)) return false;
  return entropy(core) >= (hex ? 3.0 : 3.8);
}

/**
 * Random-looking tokens on the line after a secret word, within LINE_TOKEN_REACH characters: a vendor's
 * key named in prose, a table or a call rather than assigned ("clarifai access key dkHL49…", "Unseal Key 2:
 * 0tZn+7QQ…", `GrafanaClient("eyJr…")` after a comment naming the token). Only values that look random
 * (randomLookingToken) and no digest or id named between word and token. `ms`: keywordMatches. Linear: the
 * text after each word is read once (`scanned` only grows) and a token is read once.
 */
function detectKeywordLineTokens(text: string, ms: readonly number[]): Finding[] {
  const out: Finding[] = [];
  const len = text.length;
  let scanned = 0;
  for (let j = 0; j < ms.length; j += 2) {
    const kw = ms[j]!;
    const ke = ms[j + 1]!;
    if (ke + LINE_TOKEN_REACH <= scanned) continue;
    // the name the word is part of, as detectAssignments reads it: names of ids, public keys, paging tokens
    // and map keys do not name a credential (a bare "key" does here: the token after it must look random)
    let ks = kw;
    while (ks > 0 && kw - ks < 40 && isKeyChar(text.charCodeAt(ks - 1))) ks--;
    let ne = ke;
    while (ne < len && ne - ke < 40 && isKeyChar(text.charCodeAt(ne))) ne++;
    const name = text.slice(ks, ne);
    if (NON_SECRET_KEY.test(name) || PUBLIC_KEY.test(name) || PAGING_TOKEN.test(name)) continue;
    if (NON_SECRET_KEY_NAME.test(name) && !/^keys?$/i.test(name)) continue;
    let i = Math.max(ke, scanned);
    const reach = Math.min(len, ke + LINE_TOKEN_REACH);
    while (i < reach) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) break; // the word's line only
      if (!isTokenChar(c) || isTokenChar(text.charCodeAt(i - 1))) {
        i++;
        continue;
      }
      const ts = i;
      const limit = Math.min(len, ts + 200);
      while (i < limit && isTokenChar(text.charCodeAt(i))) i++;
      let te = i;
      while (te > ts && text.charCodeAt(te - 1) === 46 /* . */) te--; // a sentence's full stop
      if (te - ts < 16 || !isAsciiAlnum(text.charCodeAt(ts)) || isTokenChar(text.charCodeAt(i))) continue;
      const t = text.slice(ts, te);
      if (t.includes('.')) continue; // code (dotted names), hosts, versions
      if (!randomLookingToken(t)) continue;
      if (DIGEST_OR_ID_WORDS.test(text.slice(Math.max(kw - WORDS_BEFORE, ts - LINE_TOKEN_REACH - WORDS_BEFORE, 0), ts)))
        continue;
      out.push({ type: 'GENERIC_SECRET', start: ts, end: te, score: 0.6 });
    }
    scanned = Math.max(scanned, i);
  }
  return out;
}

/**
 * Where the value starts in "<password word> … is <value>" on one line: " is " within 48 chars of the name's
 * end with no sentence end before it; 0 if none.
 */
function proseValueStart(text: string, ke: number): number {
  const stop = Math.min(text.length - 3, ke + 48);
  for (let i = ke; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 46 /* . */ || c === 33 /* ! */ || c === 63 /* ? */ || c === 59 /* ; */ || c === 61 /* = */)
      return 0;
    if (
      c === SPACE &&
      lowerAscii(text.charCodeAt(i + 1)) === 105 /* i */ &&
      lowerAscii(text.charCodeAt(i + 2)) === 115 /* s */
    ) {
      const d = text.charCodeAt(i + 3);
      if (d === SPACE || d === COLON) return i + 4;
    }
  }
  return 0;
}

const PROSE_END = '.,:!?)';

/**
 * A pair of a connection string ("Server=db;User Id=app;Password=goodspec;"): the name right after a ';' and
 * the value ending at one, so the value is the string's password whatever its shape.
 */
function connectionStringPair(text: string, ks: number, ve: number): boolean {
  let p = ks - 1;
  while (p >= 0 && ks - p < 4 && isBlank(text.charCodeAt(p))) p--;
  return p >= 0 && text.charCodeAt(p) === 59 /* ; */ && text.charCodeAt(ve) === 59;
}

/** Does the name say password ("pass", "pwd" in any case)? */
function isPasswordName(key: string): boolean {
  const k = key.toLowerCase();
  return k.includes('pass') || k.includes('pwd');
}

/** A name that ends by naming a password (db_password, AdminPassword, pwd), not an enum of its states. */
const PASSWORD_NAME_END = /(?:pass|password|passwd|passphrase|pwd)$/;

/** Words a password field is described by or typed as, not a password ("password": "string"). */
const NOT_A_PASSWORD =
  /^(?:string|str|text|number|int|integer|bool|boolean|object|array|any|none|null|nil|undefined|empty|blank|hidden|required|optional|mandatory|invalid|incorrect|wrong|correct|valid|expired|missing|unknown|default|true|false|yes|no|on|off|enabled|disabled|secret|user|username|login|\*+|•+)$/i;

/**
 * A quoted value under a password name that secretValueOk's shape tests refuse (lower-case words, short
 * words): a password still, unless it names a type or a state, repeats the word password, is written in
 * capitals (a constant's name), is a placeholder or a reference, or is no word at all (punctuation first,
 * no letter, more than three words).
 */
function plainPasswordOk(v: string): boolean {
  const n = v.length;
  if (n < 4 || n > 64 || NOT_A_PASSWORD.test(v)) return false;
  // starts with a letter or digit, holds a letter, at most three words
  if (!/^[A-Za-z0-9][^\s]*(?: [^\s]+){0,2}$/.test(v) || !/[A-Za-z]/.test(v)) return false;
  if (/pass|pwd/i.test(v) || /^[A-Z0-9_]+$/.test(v)) return false;
  if (CODE_REF.test(v) || isPlaceholder(v) || URL_VALUE.test(v)) return false;
  return !CODE_EXPRESSION.test(v);
}

/** True when one of the keyword matches (start/end pairs, ascending) from index `from` on starts in [lo, hi). */
function keywordStartsIn(ms: readonly number[], from: number, lo: number, hi: number): boolean {
  for (let k = from; k < ms.length && ms[k]! < hi; k += 2) if (ms[k]! >= lo) return true;
  return false;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

const URL_CRED_AT =
  /(?<![A-Za-z0-9+.-])[a-z][a-z0-9+.-]{1,20}:\/\/([^\s/:@"'`]{0,64}):([^\s/@"'`]{1,128})@[A-Za-z0-9.-]{1,253}/iy;
const CLI_PASSWORD_RE = /(?<=\s)-p([^\s"'`-][^\s"'`]{3,63})(?=\s)/g;

/** [A-Za-z0-9+.-]: the characters of a URL scheme (the regex is case-insensitive). */
const SCHEME_CHAR = asciiTable(/[A-Za-z0-9+.-]/);

/**
 * URL_CRED_AT's successive matches (as a global exec loop finds them), tried only where one can start:
 * a match's "://" is the first after its start, and its lookbehind puts the start at the beginning of
 * the run of scheme characters before that "://", so each "://" gives one candidate.
 */
function* credentialUrlMatches(text: string): Generator<RegExpExecArray> {
  if (!text.includes('@')) return;
  let next = 0;
  for (let c = text.indexOf('://'); c !== -1; c = text.indexOf('://', c + 1)) {
    let s = c;
    while (s > 0 && c - s <= 21 && SCHEME_CHAR[text.charCodeAt(s - 1)] === 1) s--;
    if (s < next || c - s < 2) continue;
    URL_CRED_AT.lastIndex = s;
    const m = URL_CRED_AT.exec(text);
    if (!m) continue;
    next = URL_CRED_AT.lastIndex;
    yield m;
  }
}

/**
 * The password of a command line's user option: curl's `-u` / `--user user:password`
 * (https://curl.se/docs/manpage.html#-u), or a `-p` after `-u user` on the same line (docker login, psexec,
 * sshpass and the like). A `-p` that is a port (digits only), a reference ($VAR, %VAR%) or a placeholder is
 * none. Each `-u` reads at most the rest of its line, up to 200 chars, and stops at the next `-u`.
 */
function detectCliCredentials(text: string): Finding[] {
  const out: Finding[] = [];
  for (let q = text.indexOf('-u'); q !== -1; q = text.indexOf('-u', q + 2)) {
    let at: number;
    if (
      text.charCodeAt(q + 2) === SPACE &&
      (q === 0 || isBlank(text.charCodeAt(q - 1)) || text.charCodeAt(q - 1) === 10)
    )
      at = q + 3;
    else if (
      startsAt(text, 'ser', q + 2) &&
      text.charCodeAt(q - 1) === HYPHEN &&
      (text.charCodeAt(q + 5) === SPACE || text.charCodeAt(q + 5) === EQUALS)
    )
      at = q + 6;
    else continue;
    const line = Math.min(text.length, at + 200);
    let e = at;
    const quote = text.charCodeAt(e) === QUOTE || text.charCodeAt(e) === APOSTROPHE ? text.charCodeAt(e++) : 0;
    const us = e;
    while (e < line && !isBlank(text.charCodeAt(e)) && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== quote) e++;
    const colon = text.indexOf(':', us);
    if (colon > us && colon < e) {
      cliPassword(text, colon + 1, e, out);
      continue;
    }
    // -u user … -p password, on the same line, before another -u
    for (let k = e; k + 3 < line; k++) {
      const c = text.charCodeAt(k);
      if (c === 10) break;
      if (c !== HYPHEN || !isBlank(text.charCodeAt(k - 1))) continue;
      if (text.charCodeAt(k + 1) === 117 /* u */) break;
      if (text.charCodeAt(k + 1) !== 112 /* p */ || text.charCodeAt(k + 2) !== SPACE) continue;
      let vs = k + 3;
      const vq = text.charCodeAt(vs) === QUOTE || text.charCodeAt(vs) === APOSTROPHE ? text.charCodeAt(vs++) : 0;
      let ve = vs;
      while (ve < line && !isBlank(text.charCodeAt(ve)) && text.charCodeAt(ve) !== 10 && text.charCodeAt(ve) !== vq)
        ve++;
      cliPassword(text, vs, ve, out);
      break;
    }
  }
  return out;
}

function cliPassword(text: string, vs: number, ve: number, out: Finding[]): void {
  const v = text.slice(vs, ve);
  if (/^\d+$/.test(v) || /%/.test(v)) return;
  if (!(secretValueOk(v, true) || plainPasswordOk(v))) return;
  out.push({ type: 'GENERIC_SECRET', start: vs, end: ve, score: 0.8 });
}

function detectCredentialUrls(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of credentialUrlMatches(text)) {
    const user = m[1]!;
    const pass = m[2]!;
    if (isPlaceholder(pass) || isPlaceholder(user) || /^[A-Z_]+$/.test(pass) || /^\{|\}$/.test(pass)) continue;
    if (pass.length < 4) continue;
    // "https://username:password@host", "user:pass": the fields' names, as in documentation
    if (/^(?:pass(?:word|wd)?|pwd|secret)$/i.test(pass) || pass === user) continue;
    const ps = m.index + m[0].indexOf(':' + pass + '@', m[0].indexOf('//') + 2 + user.length - 1) + 1;
    out.push({ type: 'GENERIC_SECRET', start: ps, end: ps + pass.length, score: 0.85 });
  }
  // "-p" first: it is rarer than the 'm' that starts both names
  const mysql = text.includes('-p') && (text.includes('mysql') || text.includes('mariadb'));
  CLI_PASSWORD_RE.lastIndex = mysql ? 0 : text.length;
  for (let m = CLI_PASSWORD_RE.exec(text); m; m = CLI_PASSWORD_RE.exec(text)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const line = text.slice(Math.max(lineStart, m.index - 120), m.index);
    if (!/\b(?:mysql|mysqldump|mariadb|mysqladmin)\b/.test(line)) continue;
    const v = m[1]!;
    if (isPlaceholder(v) || !secretValueOk(v, true)) continue;
    out.push({ type: 'GENERIC_SECRET', start: m.index + 2, end: m.index + 2 + v.length, score: 0.8 });
  }
  return out;
}

// ---------------------------------------------------------------- HTTP authorization headers

/** [A-Za-z0-9._~+/=-]: a bearer token's characters (RFC 6750's b64token). */
const B64TOKEN = asciiTable(/[A-Za-z0-9._~+/=-]/);

/**
 * The credential of an HTTP Authorization header or a bearer token anywhere ("Authorization: Bearer …",
 * "Authorization: token …", "Authorization: Basic <base64 of user:password>", "-H 'Bearer …'"), found from
 * the rarer "earer " and "uthorization" by indexOf. RFC 6750 (bearer), RFC 7617 (basic).
 */
function detectAuthHeaders(text: string): Finding[] {
  const out: Finding[] = [];
  const push = (vs: number, basic: boolean) => {
    let i = vs;
    while (i < text.length && i - vs < 4096 && B64TOKEN[text.charCodeAt(i)] === 1) i++;
    const v = text.slice(vs, i);
    if (out.length > 0 && out[out.length - 1]!.start === vs) return;
    if (basic ? basicCredentialOk(v) : bearerOk(v))
      out.push({ type: 'GENERIC_SECRET', start: vs, end: i, score: 0.85 });
  };
  for (const q of bearerWords(text)) if (!isAsciiLetter(text.charCodeAt(q - 1))) push(q + 7, false);
  // from the rare "zation" (V8 looks for a pattern of fewer than 7 characters by its first, here a 'u')
  for (let z = text.indexOf('zation', 6); z !== -1; z = text.indexOf('zation', z + 1)) {
    const q = z - 6;
    if (!text.startsWith('uthori', q)) continue;
    // "Authorization": "…", authorization: …, Authorization=…: the separator, then a scheme word
    let i = q + 12;
    const lim = Math.min(text.length, i + 8);
    while (i < lim && ' \t"\':='.includes(text[i]!)) i++;
    if (i === q + 12) continue;
    const w = i;
    while (i < text.length && i - w < 10 && isAsciiLetter(text.charCodeAt(i))) i++;
    const scheme = text.slice(w, i).toLowerCase();
    if (text.charCodeAt(i) !== SPACE) continue;
    if (scheme === 'basic') push(i + 1, true);
    else if (scheme === 'token' || scheme === 'bot' || scheme === 'apikey' || scheme === 'key') push(i + 1, false);
  }
  return out;
}

/**
 * Ascending starts of "Bearer " and "bearer ": found from their first letter, one search for each case
 * ("earer " would be searched by its 'e', the commonest letter).
 */
function bearerWords(text: string): number[] {
  const out: number[] = [];
  for (let q = text.indexOf('B'); q !== -1; q = text.indexOf('B', q + 1))
    if (text.startsWith('earer ', q + 1)) out.push(q);
  const upper = out.length;
  for (let q = text.indexOf('b'); q !== -1; q = text.indexOf('b', q + 1))
    if (text.startsWith('earer ', q + 1)) out.push(q);
  return upper > 0 && out.length > upper ? out.sort((x, y) => x - y) : out;
}

function bearerOk(v: string): boolean {
  // our own token is known by its checksum: one that fails it is a typo or a test value, not a credential
  if (v.startsWith('svc_live_')) return false;
  if (v.length < 16 || !/\d/.test(v) || !/[A-Za-z]/.test(v) || isPlaceholder(v)) return false;
  return entropy(v.slice(0, 200)) >= 3.2 && !CODE_EXPRESSION.test(v) && !WORDS_PATH_OR_ARN.test(v);
}

/** Basic credentials: base64 of printable "user:password", the password not a placeholder. */
function basicCredentialOk(v: string): boolean {
  if (v.length < 8 || !/^[A-Za-z0-9+/]+={0,2}$/.test(v) || isPlaceholder(v)) return false;
  const d = Buffer.from(v, 'base64').toString('latin1');
  const colon = d.indexOf(':');
  return colon > 0 && colon < d.length - 1 && /^[\x20-\x7e]+$/.test(d) && !isPlaceholder(d.slice(colon + 1));
}

type TokenStart =
  | 'aws'
  | 'gh'
  | 'ghpat'
  | 'gl'
  | 'xox'
  | 'xapp'
  | 'hook'
  | 'stripe'
  | 'npm'
  | 'sk-'
  | 'hf'
  | 'aiza'
  | 'acct'
  | 'q~'
  | 'svc'
  | 'jwt';
type TokenStarts = Partial<Record<TokenStart, number[]>>;

const GITLAB_PREFIXES = [
  'glpat',
  'gldt',
  'glptt',
  'glrt',
  'glsoat',
  'glcbt',
  'gloas',
  'glft',
  'glimt',
  'glagent',
  'glffct',
  'glwt',
];
const SLACK_TYPES = new Set([...'abposre'].map((c) => c.charCodeAt(0)));

/**
 * Where the token literals occur, each list ascending: indexOf finds the few characters the literals
 * end with ('_', '-', '~', 'J') or begin with ('A'), their neighbours say which literal it is. A rule's
 * regex then runs only at its literal's occurrences, and most texts run none.
 * `beginMarker` is true when the text holds a "-----BEGIN" the earlier one-regex prefix scan saw: not one
 * whose first dash ends a prefix such as "sk-" (that scan consumed it); kept so findings stay the same.
 */
function tokenStarts(text: string): { starts: TokenStarts; beginMarker: boolean; vstarts: VendorStarts } {
  const starts: TokenStarts = {};
  const vstarts: VendorStarts = new Array<number[] | undefined>(VENDOR_RULES.length);
  const add = (k: TokenStart, pos: number) => (starts[k] ??= []).push(pos);
  for (let q = text.indexOf('_'); q !== -1; q = text.indexOf('_', q + 1)) {
    vendorAtSeparator(text, q, UNDERSCORE_IX, vstarts);
    switch (text.charCodeAt(q - 1)) {
      case 112: // p
      case 111: // o
      case 117: // u
      case 115: // s
      case 114: // r
        if (startsAt(text, 'gh', q - 3)) add('gh', q - 3);
        break;
      case 116: // t
        if (startsAt(text, 'github_pat', q - 10)) add('ghpat', q - 10);
        break;
      case 109: // m
        if (startsAt(text, 'npm', q - 3)) add('npm', q - 3);
        break;
      case 102: // f
        if (startsAt(text, 'hf', q - 2)) add('hf', q - 2);
        break;
      case 107: // k
        if (startsAt(text, 'sk', q - 2) || startsAt(text, 'rk', q - 2)) add('stripe', q - 2);
        break;
      case 101: // e
        if (startsAt(text, 'svc_live', q - 8)) add('svc', q - 8);
        break;
    }
  }
  let beginMarker = false;
  for (let q = text.indexOf('-'); q !== -1; q = text.indexOf('-', q + 1)) {
    const p = text.charCodeAt(q - 1);
    vendorAtSeparator(text, q, HYPHEN_IX, vstarts);
    // all these prefixes end in a lowercase letter
    const prefixEnd = p >= 97 && p <= 122 && dashPrefix(text, q, p, add);
    // only the first dash of a run can end a prefix; a "-----BEGIN" starts 5 dashes before the run's end
    let r = q + 1;
    while (text.charCodeAt(r) === HYPHEN) r++;
    if (r - q >= 5 && text.startsWith('BEGIN', r) && !(r - 5 === q && prefixEnd)) beginMarker = true;
    q = r - 1;
  }
  for (let q = text.indexOf('A'); q !== -1; q = text.indexOf('A', q + 1)) {
    // AWS, Google and AccountKey= keys all look behind for a non-alphanumeric: only an 'A' that starts
    // a run of letters and digits counts, the rest of the run is skipped
    if (!isAsciiAlnum(text.charCodeAt(q - 1))) {
      const n = text.charCodeAt(q + 1);
      if (n >= 65 && n <= 90 && text.charCodeAt(q + 3) === 65) add('aws', q); // AKIA, ASIA, ...: the regex checks which
      if (n === 73 && text.startsWith('AIza', q)) add('aiza', q);
      if (n === 99 && text.startsWith('AccountKey=', q)) add('acct', q);
      for (const e of A_LEADS) if (text.startsWith(e.find, q)) addVendor(vstarts, e.rule, q);
    }
    while (isAsciiAlnum(text.charCodeAt(q + 1))) q++;
  }
  for (let q = text.indexOf('Q~'); q !== -1; q = text.indexOf('Q~', q + 1)) if (q >= 4) add('q~', q - 4);
  for (let q = text.indexOf('J'); q !== -1; q = text.indexOf('J', q + 1))
    if (startsAt(text, 'ey', q - 2)) add('jwt', q - 2);
  // from the '/' (rarer than 'h') of the webhook's "https://hooks.slack.com/"
  for (let q = text.indexOf('//hooks.slack.com/'); q !== -1; q = text.indexOf('//hooks.slack.com/', q + 1)) {
    if (startsAt(text, 'https:', q - 6)) add('hook', q - 6);
  }
  vendorStartsElsewhere(text, vstarts);
  return { starts, beginMarker, vstarts };
}

/** Adds the start of the prefix (sk-, xox?-, xapp-, gl*-) that the dash at q ends, if any; p: the char before. */
function dashPrefix(text: string, q: number, p: number, add: (k: TokenStart, pos: number) => void): boolean {
  let prefixEnd = false;
  if (p === 107 && startsAt(text, 'sk', q - 2)) {
    add('sk-', q - 2);
    prefixEnd = true;
  }
  if (SLACK_TYPES.has(p) && startsAt(text, 'xox', q - 4)) {
    add('xox', q - 4);
    prefixEnd = true;
  }
  if (p === 112 && startsAt(text, 'xapp', q - 4)) {
    add('xapp', q - 4);
    prefixEnd = true;
  }
  if (p === 116 || p === 115) {
    const gl = GITLAB_PREFIXES.find((lit) => startsAt(text, lit, q - lit.length));
    if (gl) {
      add('gl', q - gl.length);
      prefixEnd = true;
    }
  }
  return prefixEnd;
}

// ---------------------------------------------------------------- vendor formats (vendors.ts)

/** Per vendor rule (VENDOR_RULES' index): its candidate starts, ascending. */
type VendorStarts = Array<number[] | undefined>;

interface SepEntry {
  lit: string;
  at: number;
  rule: number;
}
interface LeadEntry {
  find: string;
  back: number;
  rule: number;
}
/** A FIND_LEADS literal, searched by the two characters from its rarest (`pivot`, `k` characters in). */
interface PivotEntry extends LeadEntry {
  pivot: string;
  k: number;
}

/**
 * Characters from the commonest in text, logs and code to the rarer; any other is rarer still. V8 looks
 * for a short pattern by its first character and reads a long one slowly where its start is common (the
 * "/api/" of "/api/webhooks/" in every URL of a log): a literal is searched by the pair of characters
 * from its rarest on, then checked whole.
 */
const BY_FREQUENCY = ' etaoinsrhldcu\n.,:/-_"=mfpgwybvk0123456789STAECIRNOLDPMUHGBFWKYVJQXZjxqz';

function pivoted(e: LeadEntry): PivotEntry {
  const rarity = (ch: string) => (BY_FREQUENCY.includes(ch) ? BY_FREQUENCY.indexOf(ch) : BY_FREQUENCY.length);
  let k = 0;
  // the pivot keeps two characters: a one-character indexOf ('2' of "oy2") stops far more often
  for (let i = 1; i < e.find.length - 1; i++) if (rarity(e.find[i]!) > rarity(e.find[k]!)) k = i;
  return { ...e, pivot: e.find.slice(k, k + 2), k };
}

const UNDERSCORE_IX = 0;
const HYPHEN_IX = 1;
const DOT_IX = 2;
const SEP_CHARS = ['_', '-', '.'];
/** Per separator: entries by the code of the character just before it (the literal's last), and those
 * whose literal does not end at the separator (checked at each one). */
const SEP_BY_LAST: Array<Array<SepEntry[] | undefined>> = SEP_CHARS.map(() => new Array<SepEntry[] | undefined>(128));
const SEP_ANYWHERE: SepEntry[][] = SEP_CHARS.map(() => []);
/** indexOf literals that start with a separator (found in its loop), with 'A' (the 'A' loop), and the rest. */
const SEP_LEADS: LeadEntry[][] = SEP_CHARS.map(() => []);
const A_LEADS: LeadEntry[] = [];
const FIND_LEADS: PivotEntry[] = [];
let DOTTED_RULE = -1;
let COLON_RULE = -1;
let AZURE32_RULE = -1;
let AZURE64_RULE = -1;
VENDOR_RULES.forEach((r, rule) => {
  const t = r.trigger;
  if ('sep' in t) {
    const ix = SEP_CHARS.indexOf(t.sep);
    const at = t.at ?? t.lit.length;
    if (at === t.lit.length && at > 0) {
      const c = t.lit.charCodeAt(at - 1);
      (SEP_BY_LAST[ix]![c] ??= []).push({ lit: t.lit, at, rule });
    } else SEP_ANYWHERE[ix]!.push({ lit: t.lit, at, rule });
  } else if ('find' in t) {
    const e = { find: t.find, back: t.back ?? 0, rule };
    const ix = SEP_CHARS.indexOf(t.find[0]!);
    if (ix >= 0) SEP_LEADS[ix]!.push(e);
    else if (t.find[0] === 'A' && t.back === undefined) A_LEADS.push(e);
    else FIND_LEADS.push(pivoted(e));
  } else if (t.special === 'dotted') DOTTED_RULE = rule;
  else if (t.special === 'azure32') AZURE32_RULE = rule;
  else if (t.special === 'azure64') AZURE64_RULE = rule;
  else COLON_RULE = rule;
});

function addVendor(vs: VendorStarts, rule: number, pos: number): void {
  if (pos >= 0) (vs[rule] ??= []).push(pos);
}

/** The vendor literals that the separator at q (SEP_CHARS[ix]) ends or starts. */
function vendorAtSeparator(text: string, q: number, ix: number, vs: VendorStarts): void {
  const p = text.charCodeAt(q - 1);
  const byLast = p < 128 ? SEP_BY_LAST[ix]![p] : undefined;
  if (byLast) for (const e of byLast) if (startsAt(text, e.lit, q - e.at)) addVendor(vs, e.rule, q - e.at);
  for (const e of SEP_ANYWHERE[ix]!) if (startsAt(text, e.lit, q - e.at)) addVendor(vs, e.rule, q - e.at);
  for (const e of SEP_LEADS[ix]!) if (text.startsWith(e.find, q)) addVendor(vs, e.rule, q - e.back);
}

/** [A-Za-z0-9_-]: base64url, the alphabet of Discord's token parts. */
const B64URL = asciiTable(/[A-Za-z0-9_-]/);

/** The dots (vendor literals and Discord's id.timestamp.hmac), colons (Telegram's id:secret) and indexOf literals. */
function vendorStartsElsewhere(text: string, vs: VendorStarts): void {
  for (let q = text.indexOf('.'); q !== -1; q = text.indexOf('.', q + 1)) {
    vendorAtSeparator(text, q, DOT_IX, vs);
    // Discord: 23-28 base64url chars (the id, starting M, N or O), '.', 6 chars (the timestamp), '.'
    if (text.charCodeAt(q + 7) === 46 && B64URL[text.charCodeAt(q - 1)] === 1) {
      let s = q - 1;
      while (s > 0 && q - s < 29 && B64URL[text.charCodeAt(s - 1)] === 1) s--;
      const c = text.charCodeAt(s);
      if (q - s >= 23 && q - s <= 28 && c >= 77 && c <= 79) addVendor(vs, DOTTED_RULE, s);
    }
  }
  // Telegram: 6-12 digits (the bot's id), ':', 35 chars; a time's "10:22" is ruled out by its two digits
  for (let q = text.indexOf(':'); q !== -1; q = text.indexOf(':', q + 1)) {
    if (!isAsciiDigit(text.charCodeAt(q - 1)) || B64URL[text.charCodeAt(q + 35)] !== 1) continue;
    let s = q - 1;
    while (s > 0 && q - s < 13 && isAsciiDigit(text.charCodeAt(s - 1))) s--;
    if (q - s >= 6 && q - s <= 12) addVendor(vs, COLON_RULE, s);
  }
  // Azure's identifiable keys end in '=' (32 bytes) or '==' (64 bytes) a fixed distance after their signature
  for (let q = text.indexOf('='); q !== -1; q = text.indexOf('=', q + 1)) {
    const two = text.charCodeAt(q + 1) === 61;
    const sig = q - 10; // 33 + 4 + 1 + 5 characters before a lone "=", 76 + 4 + 5 + 1 before "=="
    const c = text.charCodeAt(sig);
    if ((c === 43 /* + */ || c === 65) /* A */ && AZURE_SIGNATURES.has(text.slice(sig, sig + 4)))
      addVendor(vs, two ? AZURE64_RULE : AZURE32_RULE, two ? q - 86 : q - 43);
    if (two) q++;
  }
  for (const e of FIND_LEADS) {
    const { find, k, pivot } = e;
    for (let z = text.indexOf(pivot, k); z !== -1; z = text.indexOf(pivot, z + 1))
      if (text.startsWith(find, z - k)) addVendor(vs, e.rule, z - k - e.back);
  }
}

/** Documented example values the vendors print in their docs ("documented example keys are not secrets"). */
const DOCUMENTED_EXAMPLES = new Set([
  '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11', // core.telegram.org/bots/api
  // learn.microsoft.com/en-us/purview/sit-defn-azure-devops-personal-access-token
  'abcdefghijklmnopqrstuvwxyz012345679ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnoAZDOabcd',
]);

function vendorValueOk(r: VendorRule, v: string, text: string, start: number): boolean {
  if (DOCUMENTED_EXAMPLES.has(v)) return false;
  switch (r.check) {
    case 'none':
      return !isPlaceholder(v);
    case 'mixed': {
      // the random part (the last 32 characters, or all but a 4-char prefix) has a letter and a digit
      const tail = v.slice(Math.max(4, v.length - 32));
      return !isPlaceholder(v) && /\d/.test(tail) && /[A-Za-z]/.test(tail);
    }
    case 'discord': {
      const id = Buffer.from(v.slice(0, v.indexOf('.')), 'base64url').toString('latin1');
      return /^\d{17,20}$/.test(id) && !isPlaceholder(v);
    }
    case 'telegram': {
      const secret = v.slice(v.indexOf(':') + 1);
      return /[a-z]/.test(secret) && /[A-Z]/.test(secret) && /\d/.test(secret) && !isPlaceholder(secret);
    }
    case 'sas': {
      // a storage SAS query carries its service version: …?sv=2022-11-02&…&sig=…
      const before = text.lastIndexOf('sv=', start);
      return before !== -1 && start - before < 600 && !isPlaceholder(v);
    }
  }
}

/** As findTokens, for a vendor rule. */
function findVendorTokens(text: string, r: VendorRule, cands: readonly number[], out: Finding[]): void {
  let next = 0;
  for (const s of cands) {
    if (s < next) continue;
    r.re.lastIndex = s;
    const m = r.re.exec(text);
    if (!m) continue;
    next = s + m[0].length;
    if (!vendorValueOk(r, m[0], text, s)) continue;
    out.push({ type: r.type, start: s, end: next, score: 0.9 });
  }
}

/** The matches of one rule, as its regex's global exec loop would find them (tried at `cands` only). */
function findTokens(text: string, r: TokenRule, cands: readonly number[], out: Finding[]): void {
  let next = 0;
  for (const s of cands) {
    if (s < next) continue;
    r.re.lastIndex = s;
    const m = r.re.exec(text);
    if (!m) continue;
    next = s + m[0].length;
    if (r.validate && !r.validate(m[0], text, s)) continue;
    out.push({ type: r.type, start: s, end: next, score: r.score });
  }
}

export function detectSecrets(text: string): Finding[] {
  const specific: Finding[] = [];
  const { starts, beginMarker, vstarts } = tokenStarts(text);
  for (const r of TOKEN_RULES) {
    const cands = starts[r.starts];
    if (cands) findTokens(text, r, cands, specific);
  }
  for (let i = 0; i < VENDOR_RULES.length; i++) {
    const cands = vstarts[i];
    if (cands) findVendorTokens(text, VENDOR_RULES[i]!, cands, specific);
  }
  if (beginMarker) specific.push(...detectPrivateKeys(text));
  const out = [...specific];
  // generic findings only where no specific token was found (sorted by start for a linear check)
  sortByStart(specific);
  const ms = keywordMatches(text);
  const generic = sortByStart([
    ...detectAssignments(text, specific, ms),
    ...detectKeywordLineTokens(text, ms),
    ...detectCredentialUrls(text),
    ...detectCliCredentials(text),
    ...detectAuthHeaders(text),
  ]);
  let lastEnd = -1;
  for (const f of generic) {
    if (f.start < lastEnd || overlapsSorted(f.start, f.end, specific)) continue;
    out.push(f);
    lastEnd = f.end;
  }
  return sortByStart(out);
}

/** Stable sort by start, in place; most lists come already sorted, and then no sort runs. */
function sortByStart(fs: Finding[]): Finding[] {
  for (let i = 1; i < fs.length; i++) if (fs[i]!.start < fs[i - 1]!.start) return fs.sort((a, b) => a.start - b.start);
  return fs;
}

function overlapsSorted(start: number, end: number, sorted: readonly Finding[]): boolean {
  // binary search for the first span ending after start
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < sorted.length && sorted[i]!.start < end; i++) if (sorted[i]!.end > start) return true;
  return false;
}
