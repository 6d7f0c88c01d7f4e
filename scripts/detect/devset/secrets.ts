// Generated secret cases: every vendor format the detectors know, with random bodies in the vendor's
// alphabet and length (and checksum where the format has one), placed in the surroundings secrets turn
// up in: env files, JSON, YAML, shell commands and flags, logs, URLs, config files. Negatives hold
// placeholders, documented example keys, hashes, ids and public keys.

import { createHash } from 'node:crypto';
import { checksum } from '../../../src/core/token-format.ts';
import { fill, int, pick, rng, splitOf } from './build.ts';
import type { Rand, SpanCase } from './build.ts';

const OWN = "Apache-2.0 (this repository's generator; random values)";
export const SECRET_CHECKED = [
  'AWS_ACCESS_KEY',
  'AWS_SECRET_KEY',
  'GITHUB_TOKEN',
  'GITLAB_TOKEN',
  'SLACK_TOKEN',
  'SLACK_WEBHOOK',
  'STRIPE_KEY',
  'NPM_TOKEN',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'HUGGINGFACE_TOKEN',
  'GOOGLE_API_KEY',
  'AZURE_KEY',
  'AGENT_LEDGER_TOKEN',
  'PRIVATE_KEY',
  'JWT',
  'GENERIC_SECRET',
];

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const B64 = ALNUM + '+/';
const URLSAFE = ALNUM + '-_';
function str(r: Rand, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)];
  return s;
}
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** Each vendor format: its type, a generator, and names it is assigned to. */
const FORMATS: Array<{ type: string; gen: (r: Rand) => string; keys: string[] }> = [
  {
    type: 'AWS_ACCESS_KEY',
    gen: (r) => pick(r, ['AKIA', 'ASIA']) + str(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16),
    keys: ['AWS_ACCESS_KEY_ID', 'aws_access_key_id', 'accessKeyId'],
  },
  {
    type: 'GITHUB_TOKEN',
    gen: (r) => pick(r, ['ghp_', 'gho_', 'ghs_', 'ghu_']) + str(r, ALNUM, 36),
    keys: ['GITHUB_TOKEN', 'GH_TOKEN', 'github_token'],
  },
  {
    type: 'GITHUB_TOKEN',
    gen: (r) => 'github_pat_' + str(r, ALNUM, 22) + '_' + str(r, ALNUM, 59),
    keys: ['GITHUB_PAT', 'token'],
  },
  {
    type: 'GITLAB_TOKEN',
    gen: (r) => 'glpat-' + str(r, URLSAFE, 20),
    keys: ['GITLAB_TOKEN', 'CI_JOB_TOKEN_OVERRIDE', 'private_token'],
  },
  {
    type: 'SLACK_TOKEN',
    gen: (r) =>
      `xox${pick(r, ['b', 'p'])}-${str(r, '0123456789', 12)}-${str(r, '0123456789', 13)}-${str(r, ALNUM, 24)}`,
    keys: ['SLACK_BOT_TOKEN', 'slack_token', 'botToken'],
  },
  {
    type: 'SLACK_WEBHOOK',
    gen: (r) =>
      `https://hooks.slack.com/services/T${str(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 8)}/B${str(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 8)}/${str(r, ALNUM, 24)}`,
    keys: ['SLACK_WEBHOOK_URL', 'webhook_url'],
  },
  {
    type: 'STRIPE_KEY',
    gen: (r) => `${pick(r, ['sk', 'rk'])}_live_${str(r, ALNUM, int(r, 24, 99))}`,
    keys: ['STRIPE_SECRET_KEY', 'stripe_api_key', 'stripeKey'],
  },
  {
    type: 'NPM_TOKEN',
    gen: (r) => 'npm_' + str(r, ALNUM, 36),
    keys: ['NPM_TOKEN', '//registry.npmjs.org/:_authToken'],
  },
  {
    type: 'OPENAI_API_KEY',
    gen: (r) => `sk-proj-${str(r, URLSAFE, 74)}T3BlbkFJ${str(r, URLSAFE, 74)}`,
    keys: ['OPENAI_API_KEY', 'openai_key', 'apiKey'],
  },
  {
    type: 'OPENAI_API_KEY',
    gen: (r) => `sk-${str(r, ALNUM, 20)}T3BlbkFJ${str(r, ALNUM, 20)}`,
    keys: ['OPENAI_API_KEY'],
  },
  {
    type: 'ANTHROPIC_API_KEY',
    gen: (r) => `sk-ant-api03-${str(r, URLSAFE, 93)}AA`,
    keys: ['ANTHROPIC_API_KEY', 'anthropic_key', 'x-api-key'],
  },
  {
    type: 'HUGGINGFACE_TOKEN',
    gen: (r) =>
      'hf_' + str(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 2) + str(r, 'abcdefghijklmnopqrstuvwxyz', 2) + str(r, ALNUM, 30),
    keys: ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'],
  },
  { type: 'GOOGLE_API_KEY', gen: (r) => 'AIza' + str(r, URLSAFE, 35), keys: ['GOOGLE_API_KEY', 'apiKey', 'MAPS_KEY'] },
  { type: 'AZURE_KEY', gen: (r) => `AccountKey=${str(r, B64, 86)}==`, keys: ['AZURE_STORAGE_CONNECTION_STRING'] },
  {
    type: 'AGENT_LEDGER_TOKEN',
    gen: (r) => {
      const random = str(r, ALNUM, 30);
      return 'svc_live_' + random + checksum(random);
    },
    keys: ['AGENT_LEDGER_TOKEN', 'ledger_token'],
  },
  {
    type: 'JWT',
    gen: (r) =>
      b64url(JSON.stringify({ alg: pick(r, ['HS256', 'RS256', 'ES256']), typ: 'JWT' })) +
      '.' +
      b64url(
        JSON.stringify({
          sub: String(int(r, 1000, 999999)),
          name: pick(r, ['svc', 'admin', 'reader']),
          iat: 1716000000 + int(r, 0, 1e7),
          exp: 1726000000 + int(r, 0, 1e7),
        }),
      ) +
      '.' +
      str(r, URLSAFE, 43),
    keys: ['ACCESS_TOKEN', 'id_token', 'session'],
  },
];

/** Generic secrets: a value of some shape assigned to a secret-looking name. */
const GENERIC_KEYS = [
  'password',
  'DB_PASSWORD',
  'db_pass',
  'secret',
  'client_secret',
  'api_key',
  'API_SECRET',
  'auth_token',
  'private_token',
  'passwd',
  'pwd',
  'SMTP_PASSWORD',
  'REDIS_PASSWORD',
  'jwt_secret',
  'signing_key',
  'encryption_key',
  'access_token',
  'app_secret',
  'MYSQL_ROOT_PASSWORD',
  'POSTGRES_PASSWORD',
];
function genericValue(r: Rand): string {
  switch (int(r, 0, 4)) {
    case 0:
      return str(r, ALNUM, int(r, 24, 48));
    case 1:
      return str(r, ALNUM + '!#%^*', int(r, 12, 20));
    case 2:
      return createHash('sha256')
        .update(String(r()))
        .digest('hex')
        .slice(0, int(r, 32, 64));
    case 3:
      return str(r, B64, 40);
    default:
      return (
        pick(r, ['Tr0ub4dor', 'S3cure', 'Hunter', 'Blue', 'Winter']) +
        pick(r, ['!', '#', '$', '_']) +
        int(r, 10, 9999) +
        str(r, ALNUM, 4)
      );
  }
}

/** Surroundings: {K} is the key name, {S} the labelled secret. */
const SURROUNDINGS = [
  '{K}={S}',
  'export {K}="{S}"',
  '{"{K}": "{S}", "region": "eu-west-1"}',
  'config:\n  {K}: {S}\n  timeout: 30\n',
  '{K}: "{S}"',
  '2024-06-11T10:22:31Z DEBUG loaded settings {K}={S} from environment',
  'docker run -e {K}={S} -p 8080:8080 ghcr.io/acme/api:1.4',
  "const {K} = '{S}';",
  '[default]\n{K} = {S}\n',
  'Here is my .env, why does it not load?\n\nNODE_ENV=production\n{K}={S}\nPORT=3000',
  'set {K} {S}',
  '<add key="{K}" value="{S}" />',
  'environment:\n  - {K}={S}',
  'os.environ["{K}"] = "{S}"',
];

/** Surroundings of bare tokens (no key name needed for prefixed formats). */
const TOKEN_SURROUNDINGS = [
  'curl -H "Authorization: Bearer {S}" https://api.example.com/v1/me',
  'git clone https://x-access-token:{S}@github.com/acme/private.git',
  'I pasted my token {S} into the chat by mistake, how do I rotate it?',
  'tool_output: {"ok": true, "credentials": {"token": "{S}"}}',
  'Traceback (most recent call last):\n  File "deploy.py", line 12\nAuthError: token {S} rejected',
];

const CONN_URLS: Array<(r: Rand, pw: string) => string> = [
  (r, pw) => `postgres://app_${str(r, 'abcdefghijklmnopqrstuvwxyz', 4)}:${pw}@db.internal:5432/app`,
  (_r, pw) => `mysql://root:${pw}@10.0.3.7:3306/shop`,
  (_r, pw) => `redis://:${pw}@cache.internal:6379/0`,
  (_r, pw) => `mongodb+srv://admin:${pw}@cluster0.abcd.mongodb.net/test`,
  (_r, pw) => `amqp://guest2:${pw}@rabbit:5672/`,
  (_r, pw) => `https://deploy:${pw}@registry.example.com/v2/`,
];

const NEG = [
  'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
  'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'OPENAI_API_KEY=sk-your-key-here',
  'GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}',
  'password: <your-password>',
  'api_key = os.environ["API_KEY"]',
  'export STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx',
  'token: ${TOKEN}',
  'password=changeme # replace before deploying',
  'DB_PASSWORD=',
  'sha256: {HEX64}',
  'commit {HEX40}',
  'integrity sha512-{B64_86}==',
  'request_id: {UUID}',
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{B64_43} deploy@ci',
  'The password field must be at least 12 characters long.',
  'Set the secret in the dashboard under Settings → API keys.',
  'client_secret: "{{ vault.client_secret }}"',
  'Bearer token missing or expired (401)',
  'image: sha256:{HEX64}',
];

/** A PEM private key block with a random body (deterministic from the seed; no real key). */
function pem(r: Rand): string {
  const kind = pick(r, ['', 'RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ']);
  const lines = int(r, 3, 25);
  const body: string[] = [];
  for (let i = 0; i < lines; i++) body.push(str(r, B64, i === lines - 1 ? int(r, 8, 64) : 64));
  return `-----BEGIN ${kind}PRIVATE KEY-----\n${body.join('\n')}\n-----END ${kind}PRIVATE KEY-----`;
}

export function secretCases(seed = 15): SpanCase[] {
  const out: SpanCase[] = [];
  const r = rng(seed);
  let n = 0;
  for (let fi = 0; fi < FORMATS.length; fi++) {
    const f = FORMATS[fi]!;
    for (let k = 0; k < 40; k++) {
      const useToken = r() < 0.3;
      const si = useToken ? int(r, 0, TOKEN_SURROUNDINGS.length - 1) : int(r, 0, SURROUNDINGS.length - 1);
      const surroundings = useToken ? TOKEN_SURROUNDINGS : SURROUNDINGS;
      const tmpl = surroundings[si]!.replaceAll('{K}', pick(r, f.keys)).replaceAll('{S}', '{SECRET}');
      const v = f.gen(r);
      const { text, entities } = fill(tmpl, () => ({ text: v, label: f.type }));
      out.push({
        id: `sec-${n++}`,
        text,
        entities,
        checked_types: SECRET_CHECKED,
        source: `generated: ${f.type} format ${fi}, ${useToken ? 'token' : 'assignment'} surrounding ${si}`,
        licence: OWN,
        split: splitOf(`sec-${useToken ? 't' : 'a'}${si}`),
      });
    }
  }
  // AWS secret keys next to their key id
  for (let k = 0; k < 60; k++) {
    const id = 'AKIA' + str(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16);
    const sk = str(r, B64, 40);
    const si = int(r, 0, 2);
    const tmpl = [
      'AWS_ACCESS_KEY_ID={ID}\nAWS_SECRET_ACCESS_KEY={SK}',
      '[default]\naws_access_key_id = {ID}\naws_secret_access_key = {SK}',
      '{"accessKeyId": "{ID}", "secretAccessKey": "{SK}"}',
    ][si]!;
    const { text, entities } = fill(
      tmpl.replace('{ID}', '{AWS_ACCESS_KEY}').replace('{SK}', '{AWS_SECRET_KEY}'),
      (t) => ({ text: t === 'AWS_ACCESS_KEY' ? id : sk }),
    );
    out.push({
      id: `sec-${n++}`,
      text,
      entities,
      checked_types: SECRET_CHECKED,
      source: `generated: AWS key pair, surrounding ${si}`,
      licence: OWN,
      split: splitOf(`sec-aws-${si}`),
    });
  }
  // private keys (freshly generated, PKCS#8 PEM)
  for (let k = 0; k < 30; k++) {
    const key = pem(r);
    const si = int(r, 0, 2);
    const tmpl = ['{S}', 'ssl_key: |\n  {S}', 'Why does ssh reject this?\n\n{S}\n'][si]!;
    const body = si === 1 ? key.replaceAll('\n', '\n  ') : key;
    const { text, entities } = fill(tmpl.replace('{S}', '{PRIVATE_KEY}'), () => ({ text: body }));
    out.push({
      id: `sec-${n++}`,
      text,
      entities,
      checked_types: SECRET_CHECKED,
      source: `generated: PEM private key block (random body), surrounding ${si}`,
      licence: OWN,
      split: splitOf(`sec-pem-${si}`),
    });
  }
  // generic secrets: key names × shapes × surroundings, and credentials in connection URLs
  for (let k = 0; k < 400; k++) {
    const si = int(r, 0, SURROUNDINGS.length - 1);
    const key = pick(r, GENERIC_KEYS);
    const v = genericValue(r);
    const { text, entities } = fill(
      SURROUNDINGS[si]!.replaceAll('{K}', key).replaceAll('{S}', '{GENERIC_SECRET}'),
      () => ({ text: v }),
    );
    out.push({
      id: `sec-${n++}`,
      text,
      entities,
      checked_types: SECRET_CHECKED,
      source: `generated: generic secret, key '${key}', surrounding ${si}`,
      licence: OWN,
      split: splitOf(`sec-gen-${si}`),
    });
  }
  for (let k = 0; k < 120; k++) {
    const ui = int(r, 0, CONN_URLS.length - 1);
    const pw = genericValue(r).replace(/[#/?@:%]/g, 'x');
    const url = CONN_URLS[ui]!(r, pw);
    const i = url.indexOf(':' + pw + '@') + 1;
    const wrap = pick(r, ['DATABASE_URL={U}', 'const uri = "{U}";', 'url: {U}', 'connecting to {U} ...']);
    const at = wrap.indexOf('{U}');
    const text = wrap.replace('{U}', url);
    out.push({
      id: `sec-${n++}`,
      text,
      entities: [{ type: 'GENERIC_SECRET', start: at + i, end: at + i + pw.length, value: pw }],
      checked_types: SECRET_CHECKED,
      source: `generated: credentials in connection URL ${ui}`,
      licence: OWN,
      split: splitOf(`sec-url-${ui}`),
    });
  }
  // negatives
  for (let k = 0; k < NEG.length * 8; k++) {
    const ni = k % NEG.length;
    const text = NEG[ni]!.replace('{HEX64}', createHash('sha256').update(String(k)).digest('hex'))
      .replace('{HEX40}', createHash('sha1').update(String(k)).digest('hex'))
      .replace('{B64_86}', str(r, B64, 86))
      .replace('{B64_43}', str(r, B64, 43))
      .replace(
        '{UUID}',
        createHash('md5')
          .update(String(k))
          .digest('hex')
          .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
      );
    out.push({
      id: `sec-${n++}`,
      text,
      entities: [],
      checked_types: SECRET_CHECKED,
      source: `generated: negative ${ni} (placeholder, example key, hash or id)`,
      licence: OWN,
      split: splitOf(`sec-neg-${ni}`),
    });
  }
  return out;
}
