// Each vendor format of vendors.ts, as its documentation describes it, with a random body (generated here,
// no real key): found bare, after a key name and in a header, redacted as its type; and the lookalikes a
// format must not take (documented examples, placeholders, ids and hashes of the same shape).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redact, redactForStorage, scan } from '../index.ts';
import { detectSecrets } from './index.ts';
import { AZURE_SIGNATURES, VENDOR_RULES } from './vendors.ts';

let seed = 7;
function rnd(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const ALNUM = DIGITS + UPPER + LOWER;
const HEX = '0123456789abcdef';
const URLSAFE = ALNUM + '-_';
const CRYPT64 = ALNUM + './';
const B64 = ALNUM + '+/';
/** n random characters of `alphabet`, at least one digit and one letter when the alphabet has both. */
function r(alphabet: string, n: number): string {
  for (;;) {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
    const needsBoth = /\d/.test(alphabet) && /[A-Za-z]/.test(alphabet);
    if (!needsBoth || (/\d/.test(s) && /[A-Za-z]/.test(s))) return s;
  }
}
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const uuid = () => `${r(HEX, 8)}-${r(HEX, 4)}-4${r(HEX, 3)}-a${r(HEX, 3)}-${r(HEX, 12)}`;

/** One generated token per vendor format, with the type it is reported as. */
export function vendorSamples(): Array<{ vendor: string; type: string; token: string }> {
  const s = (vendor: string, type: string, token: string) => ({ vendor, type, token });
  const G = 'GENERIC_SECRET';
  const snowflake = String(1_000_000_000_000_000_00n + BigInt(Math.floor(rnd() * 1e15)));
  return [
    s('GitLab feed token', 'GITLAB_TOKEN', 'glft-' + r(URLSAFE, 20)),
    s('GitLab agent token', 'GITLAB_TOKEN', 'glagent-' + r(URLSAFE, 50)),
    s('GitLab runner registration', 'GITLAB_TOKEN', 'GR1348941' + r(URLSAFE, 20)),
    s('Slack rotating token', 'SLACK_TOKEN', 'xoxe.xoxp-1-' + r(ALNUM, 120)),
    s('Slack refresh token', 'SLACK_TOKEN', 'xoxe-1-' + r(ALNUM, 140)),
    s('PyPI', G, 'pypi-AgEIcHlwaS5vcmc' + r(URLSAFE, 160)),
    s('Docker Hub', G, 'dckr_pat_' + r(URLSAFE, 27)),
    s('Docker Hub organization', G, 'dckr_oat_' + r(URLSAFE, 32)),
    s('Stripe webhook secret', G, 'whsec_' + r(ALNUM, 32)),
    s('Twilio', G, 'SK' + r(HEX, 32)),
    s('SendGrid', G, `SG.${r(URLSAFE, 22)}.${r(URLSAFE, 43)}`),
    s('Mailgun', G, 'key-' + r(HEX, 32)),
    s('Mailchimp', G, r(HEX, 32) + '-us21'),
    s('Discord bot', G, `${b64url(snowflake)}.${r(URLSAFE, 6)}.${r(URLSAFE, 38)}`),
    s('Discord webhook', G, `https://discord.com/api/webhooks/${snowflake}/${r(URLSAFE, 68)}`),
    s('Telegram bot', G, `${r(DIGITS, 10)}:AA${r(UPPER, 3)}${r(LOWER, 3)}${r(URLSAFE, 27)}`),
    ...['shpat', 'shpca', 'shppa', 'shpss'].map((p) => s('Shopify', G, `${p}_${r(HEX, 32)}`)),
    s('Atlassian', G, 'ATATT3xFfGF0' + r(URLSAFE, 171) + '=' + r(HEX.toUpperCase(), 8)),
    s('Bitbucket', G, 'ATBB' + r(ALNUM, 32)),
    ...['lin_api', 'lin_oauth'].map((p) => s('Linear', G, `${p}_${r(ALNUM, 40)}`)),
    s('Notion', G, 'secret_' + r(ALNUM, 43)),
    s('Notion ntn', G, 'ntn_' + r(ALNUM, 46)),
    s('Databricks', G, 'dapi' + r(HEX, 32)),
    ...['dop', 'doo', 'dor'].map((p) => s('DigitalOcean', G, `${p}_v1_${r(HEX, 64)}`)),
    s('Doppler', G, 'dp.pt.' + r(ALNUM, 43)),
    s('Doppler service token', G, 'dp.st.prd.' + r(ALNUM, 40)),
    ...['hvs', 'hvb', 'hvr'].map((p) => s('Vault', G, `${p}.${r(URLSAFE, 90)}`)),
    s('Terraform', G, `${r(ALNUM, 14)}.atlasv1.${r(ALNUM, 67)}`),
    s('Pulumi', G, 'pul-' + r(HEX, 40)),
    s('Grafana Cloud', G, 'glc_' + r(ALNUM + '+/', 100) + '=='),
    s('Grafana service account', G, `glsa_${r(ALNUM, 32)}_${r(HEX, 8)}`),
    ...['NRAK', 'NRII', 'NRIQ'].map((p) => s('New Relic', G, `${p}-${r(DIGITS + UPPER, 27)}`)),
    s('Sentry user token', G, 'sntryu_' + r(HEX, 64)),
    s(
      'Sentry org token',
      G,
      `sntrys_${b64url(JSON.stringify({ iat: 1700000000, url: 'https://sentry.io', org: 'acme' }))}_${r(ALNUM + '+/', 43)}`,
    ),
    s('Postman', G, `PMAK-${r(HEX, 24)}-${r(HEX, 34)}`),
    s('Azure Service Bus', 'AZURE_KEY', 'SharedAccessKey=' + r(ALNUM + '+/', 43) + '='),
    s('age', 'PRIVATE_KEY', 'AGE-SECRET-KEY-1' + r('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)),
    s('Google OAuth client secret', G, 'GOCSPX-' + r(URLSAFE, 28)),
    s('Google OAuth access token', G, 'ya29.' + r(URLSAFE, 120)),
    s('Azure DevOps PAT', G, r(ALNUM, 76) + 'AZDO' + r(ALNUM, 4)),
    s('Airtable', G, `pat${r(ALNUM, 14)}.${r(HEX, 64)}`),
    s('Mapbox', G, `sk.eyJ1Ijoi${r(URLSAFE, 60)}.${r(URLSAFE, 22)}`),
    s('Dynatrace', G, `dt0c01.${r(DIGITS + UPPER, 24)}.${r(DIGITS + UPPER, 64)}`),
    s('Supabase', G, 'sbp_' + r(HEX, 40)),
    s('Supabase secret key', G, 'sb_secret_' + r(URLSAFE, 31)),
    s('Figma', G, 'figd_' + r(URLSAFE, 40)),
    s('Netlify', G, 'nfp_' + r(ALNUM, 36)),
    s('Groq', G, 'gsk_' + r(ALNUM, 52)),
    s('Replicate', G, 'r8_' + r(ALNUM, 37)),
    s('Perplexity', G, 'pplx-' + r(ALNUM, 48)),
    s('xAI', G, 'xai-' + r(ALNUM, 80)),
    ...['pt', 'sk'].map((p) => s('LangSmith', G, `lsv2_${p}_${r(HEX, 32)}_${r(HEX, 10)}`)),
    s('Tavily', G, 'tvly-' + r(ALNUM, 32)),
    s('Square', G, 'sq0csp-' + r(URLSAFE, 43)),
    s('Square access token', G, 'sq0atp-' + r(URLSAFE, 22)),
    s('RubyGems', G, 'rubygems_' + r(HEX, 48)),
    ...['tkn', 'pw', 'oauth'].map((p) => s('PlanetScale', G, `pscale_${p}_${r(ALNUM, 43)}`)),
    s('Contentful', G, 'CFPAT-' + r(URLSAFE, 43)),
    s('Heroku', G, 'HRKU-AA' + r(URLSAFE, 58)),
    s('HubSpot', G, `pat-na1-${r(HEX, 8)}-${r(HEX, 4)}-${r(HEX, 4)}-${r(HEX, 4)}-${r(HEX, 12)}`),
    s('Duffel', G, 'duffel_live_' + r(URLSAFE, 43)),
    s('ReadMe', G, 'rdme_' + r(DIGITS + LOWER, 70)),
    s('Buildkite', G, 'bkua_' + r(HEX, 40)),
    s('Prefect', G, 'pnu_' + r(ALNUM, 36)),
    s('1Password', G, 'ops_' + b64url(JSON.stringify({ signInAddress: 'my.1password.com', userAuth: r(ALNUM, 80) }))),
    s('JFrog', G, 'AKCp' + r(ALNUM, 69)),
    s('Alibaba', G, 'LTAI' + r(ALNUM, 20)),
    s('Tencent Cloud', G, 'AKID' + r(ALNUM, 32)),
    ...['squ', 'sqp', 'sqa'].map((p) => s('SonarQube', G, `${p}_${r(HEX, 40)}`)),
    s('OpenRouter', G, 'sk-or-v1-' + r(HEX, 64)),
    s('Langfuse', G, `sk-lf-${r(HEX, 8)}-${r(HEX, 4)}-4${r(HEX, 3)}-a${r(HEX, 3)}-${r(HEX, 12)}`),
    ...['xkeysib', 'xsmtpsib'].map((p) => s('Brevo', G, `${p}-${r(HEX, 64)}-${r(ALNUM, 16)}`)),
    ...['production', 'development', 'sandbox'].map((e) =>
      s('Plaid', G, `access-${e}-${r(HEX, 8)}-${r(HEX, 4)}-4${r(HEX, 3)}-a${r(HEX, 3)}-${r(HEX, 12)}`),
    ),
    s('Tailscale', G, `tskey-auth-k${r(ALNUM, 10)}CNTRL-${r(ALNUM, 33)}`),
    ...['shippo_live', 'shippo_test'].map((p) => s('Shippo', G, `${p}_${r(HEX, 40)}`)),
    ...['FLWSECK', 'FLWSECK_TEST'].map((p) => s('Flutterwave', G, `${p}-${r(HEX, 32)}-X`)),
    s(
      'Microsoft Teams',
      G,
      `https://acme.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${r(HEX, 32)}/${uuid()}/V2${r(URLSAFE, 40)}`,
    ),
    s('bcrypt', G, `$2b$12$${r(CRYPT64, 53)}`),
    s('SHA-256-crypt', G, `$5$${r(CRYPT64, 16)}$${r(CRYPT64, 43)}`),
    s('SHA-512-crypt', G, `$6$rounds=5000$${r(CRYPT64, 8)}$${r(CRYPT64, 86)}`),
    s('MD5-crypt', G, `$1$${r(CRYPT64, 8)}$${r(CRYPT64, 22)}`),
    s('yescrypt', G, `$y$j9T$${r(CRYPT64, 22)}$${r(CRYPT64, 43)}`),
    s('New Relic admin key', G, `NRAA-${r(HEX, 27)}`),
    s('New Relic license key', G, `eu01xx${r(HEX, 30)}NRAL`),
    s('crates.io', G, 'cio' + r(ALNUM, 32)),
    s('NuGet', G, `oy2a${r(DIGITS + LOWER, 15)}a${r(DIGITS + LOWER, 11)}e7a${r(DIGITS + LOWER, 11)}a`),
    s('Clojars', G, 'CLOJARS_' + r(HEX, 60)),
    s('PostHog', G, 'phx_' + r(ALNUM, 47)),
    s('Dependency-Track', G, 'odt_' + r(ALNUM, 32)),
    s('Adafruit IO', G, 'aio_' + r(ALNUM, 28)),
    ...['sdk', 'api'].map((p) => s('LaunchDarkly', G, `${p}-${uuid()}`)),
    ...[...AZURE_SIGNATURES].flatMap((sig) => [
      s('Azure 32-byte identifiable key', 'AZURE_KEY', `${r(B64, 33)}${sig}${r('ABCDEFGHIJKLMNOP', 1)}${r(B64, 5)}=`),
      s('Azure 64-byte identifiable key', 'AZURE_KEY', `${r(B64, 76)}${sig}${r(B64, 5)}${r('AQgw', 1)}==`),
    ]),
  ];
}

const CARRIERS = [
  (t: string) => t,
  (t: string) => `export SERVICE_CREDENTIAL="${t}"`,
  (t: string) => `{"config": {"value": "${t}", "retries": 3}}`,
  (t: string) => `I pasted ${t} into the chat, how do I rotate it?`,
];

test('every vendor format is found where it stands, as its type, and redacted', () => {
  const missed: string[] = [];
  for (const { vendor, type, token } of vendorSamples())
    for (const carry of CARRIERS) {
      const text = carry(token);
      const at = text.indexOf(token);
      // a Discord webhook's finding is its path (id and token), a rotating Slack token's the xoxp- part
      const f = detectSecrets(text).find((x) => x.start <= at + 40 && x.end >= at + token.length && x.type === type);
      if (!f) missed.push(`${vendor}: ${text.slice(0, 80)}`);
    }
  assert.deepEqual(missed, []);
  const text = 'token: ' + vendorSamples()[6]!.token + ' end';
  assert.equal(redact(text, scan(text).findings), 'token: <GENERIC_SECRET> end');
});

test('every vendor rule names its documentation and has a sample here', () => {
  for (const rule of VENDOR_RULES) assert.match(rule.doc, /^https:\/\//, rule.vendor);
  const sampled = [...vendorSamples().map((s) => s.token), SAS_URL, OKTA_TOKEN];
  for (const rule of VENDOR_RULES) {
    const anywhere = new RegExp(rule.re.source, rule.re.flags.replace('y', ''));
    assert.ok(
      sampled.some((t) => anywhere.test(t)),
      `no sample for ${rule.vendor}`,
    );
  }
});

const SAS_SIG = encodeURIComponent(Buffer.from(r(ALNUM, 32)).toString('base64'));
const SAS_URL = `https://acct.blob.core.windows.net/logs/a.json?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=${SAS_SIG}`;

const OKTA_TOKEN = '00' + r(URLSAFE, 40);

test('an Okta API token is found in its SSWS header, the token without the scheme', () => {
  const text = `curl -H "Authorization: SSWS ${OKTA_TOKEN}" https://acme.okta.com/api/v1/users`;
  const f = detectSecrets(text);
  assert.deepEqual(
    f.map((x) => [x.type, text.slice(x.start, x.end)]),
    [['GENERIC_SECRET', OKTA_TOKEN]],
  );
});

test("an Azure SAS URL's signature is an AZURE_KEY; a sig= without the SAS version is not", () => {
  const f = detectSecrets(`GET ${SAS_URL} 200`);
  assert.deepEqual(
    f.map((x) => [x.type, `GET ${SAS_URL} 200`.slice(x.start, x.end)]),
    [['AZURE_KEY', SAS_SIG]],
  );
  assert.deepEqual(detectSecrets(`https://example.org/cb?sig=${SAS_SIG}`), []);
});

test('lookalikes stay unreported: documented examples, placeholders, ids, hashes and versions', () => {
  const negatives = [
    '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11', // Telegram's documented example
    'export SENDGRID_API_KEY=SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'shpat_00000000000000000000000000000000',
    'dop_v1_' + 'a'.repeat(64),
    'secret_key_base = Rails.application.credentials.secret_key_base',
    'the hvs. prefix marks a Vault service token',
    'at 2024-06-11T10:22:31.123Z the build 1234567:finished',
    'released v1.2.3.4567890 on 2024.01.02',
    'sha256:' + 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'see docs.example.com/a.b/c.d and github.com/org/repo.git#readme',
    'Mr. Smith.Wednesday.Morning in N.Y.C. and the U.S.A.',
    'key-value pairs: key-1, key-2 and key-abc',
    'pat-na1-<your-token-here>',
    'SKU SK1234 in stock',
    'access-production-<access-token>',
    'Authorization: SSWS ${OKTA_API_TOKEN}',
    'sk-lf-...',
    // Azure DevOps' documented example PAT
    'PAT = "abcdefghijklmnopqrstuvwxyz012345679ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnoAZDOabcd"',
    'ya29.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  ];
  for (const t of negatives) assert.deepEqual(detectSecrets(t), [], t);
});

test('a random-looking value after a secret word and a space is a secret; words, short passwords and bare keys are not', () => {
  const found = (text: string) => detectSecrets(text).map((f) => text.slice(f.start, f.end));
  const token = 'sgp_' + r(HEX, 40);
  assert.deepEqual(found(`  access token ${token}\n`), [token]);
  const pw = r(ALNUM, 20);
  assert.deepEqual(found(`Connect-VIServer -Server vc01 -User admin -Password ${pw}`), [pw]);
  assert.deepEqual(found('The token expired yesterday, reset the password tomorrow'), []);
  assert.deepEqual(found('the password Secret123 works'), []); // short: only after = or : is it read
  // "key" alone names no secret to assign to, but a random run after it on its line is one (the line rule);
  // a key's id, fingerprint or public half is not
  const hex = r(HEX, 40);
  assert.deepEqual(found(`rotate the key ${hex} now`), [hex]);
  assert.deepEqual(found(`import the GPG key ${hex.slice(0, 16).toUpperCase()}`), []);
  assert.deepEqual(found(`the key's fingerprint is ${hex}`), []);
});

test('a dotted value is code unless one part is random-looking', () => {
  const found = (text: string) => detectSecrets(text).map((f) => text.slice(f.start, f.end));
  const vault = 's.' + r(ALNUM, 24);
  assert.deepEqual(found(`VAULT_TOKEN="${vault}"`), [vault]);
  assert.deepEqual(found('token = config.getAccessTokenForUser'), []);
  assert.deepEqual(found('api_key = settings.STRIPE_SECRET_KEY_2024'), []);
});

test('a password stated in prose is a secret when quoted or shaped like one; a state or a rule is not', () => {
  const found = (text: string) => detectSecrets(text).map((f) => text.slice(f.start, f.end));
  assert.deepEqual(found(`echo "The password is 'Secret123'"`), ['Secret123']);
  assert.deepEqual(found("Ensure the password for user 'postgres' is 'admin' or change .env file."), ['admin']);
  assert.deepEqual(found('The default password for the user "pyne-user" is "pyne".'), ['pyne']);
  assert.deepEqual(found('my password is hunter2.'), ['hunter2']);
  assert.deepEqual(found('the password is incorrect'), []);
  assert.deepEqual(found('The password is required.'), []);
  assert.deepEqual(found('The password is "string"'), []);
  assert.equal(redactForStorage('The wifi password is "centipede".'), 'The wifi password is "<GENERIC_SECRET>".');
});

test('a quoted password is one whatever it looks like; types, the word password, constants and junk are not', () => {
  const found = (text: string) => detectSecrets(text).map((f) => text.slice(f.start, f.end));
  assert.deepEqual(found("user = 'Aladdin'\npassword = 'open sesame'\n"), ['open sesame']);
  assert.deepEqual(found('{"user": "joe", "password": "blooberry"}'), ['blooberry']);
  for (const t of [
    'password: string;',
    '"password": "string"',
    "password = 'password'",
    "password 'thisismypassword'",
    '"password": "YOURPASSWORD"',
    '"password": "********"',
    '"password": "+<!-- 5024"',
    '"password": "ignore all previous instructions"',
    'password = "${DB_PASSWORD}"',
  ])
    assert.deepEqual(found(t), [], t);
});

test('names padded into a column, C macros and personal access tokens name their values', () => {
  const found = (text: string) => detectSecrets(text).map((f) => text.slice(f.start, f.end));
  const hex = r(HEX, 32);
  assert.deepEqual(found(`     fbApiKey:            "${hex}",`), [hex]);
  assert.deepEqual(found(":password       => '4ian1234',\n"), ['4ian1234']);
  const aio = 'aio_' + r(ALNUM, 28);
  assert.deepEqual(found(`#define IO_KEY       "${aio}"`), [aio]);
  const pat = r(DIGITS + LOWER, 52);
  assert.deepEqual(found(`    ado_pat =  "${pat}"\n`), [pat]);
  assert.deepEqual(found(`GITHUB_PAT=${pat}`), [pat]);
  // "pat" as a word of a name only, and a weak name: the value must look random
  assert.deepEqual(found(`path = "${pat}"`), []);
  assert.deepEqual(found('pat = "my-token-name"'), []);
  assert.deepEqual(found('#define MAX_KEY_LEN 64'), []);
});

test("a command line's user option carries its password; a port, a reference or a placeholder is none", () => {
  const found = (text: string) => detectSecrets(text).map((f) => text.slice(f.start, f.end));
  assert.deepEqual(found('curl -u admin:s3cr3tPass https://api.example.com/v1/items'), ['s3cr3tPass']);
  assert.deepEqual(found('curl --user deploy:Xk9mQ2vL https://ci.example.com'), ['Xk9mQ2vL']);
  assert.deepEqual(found('docker login -u myuser -p Hx7kLm2Q registry.example.com'), ['Hx7kLm2Q']);
  assert.deepEqual(found('psexec \\\\10.0.94.120 -u Administrator -p dev_admin cmd'), ['dev_admin']);
  assert.deepEqual(found('Connect-VIServer -Server vc01 -User admin -Password VMware1!'), ['VMware1!']);
  for (const t of [
    'curl -u $USER:$TOKEN https://api.example.com',
    'curl -u user:password https://api.example.com',
    'curl -u admin https://api.example.com',
    'mytool -u admin -p 5432 --verbose',
    'psexec \\\\host -u %USER% -p %PASS% cmd',
    'Connect-VIServer "$endpoint" -User "$username" -Password "$password"',
    'tar -uvf -p archive.tar',
  ])
    assert.deepEqual(found(t), [], t);
});

test("a connection string's password is one whatever its shape", () => {
  const found = (text: string) => detectSecrets(text).map((f) => text.slice(f.start, f.end));
  assert.deepEqual(found('Server=tcp:db.example.net;Database=app;User Id=app;Password=goodspec;'), ['goodspec']);
  assert.deepEqual(found('Data Source=db01;User ID=sa; Pwd=bluemoon;Initial Catalog=Sales'), ['bluemoon']);
  // an unquoted word elsewhere is still read as code (a variable), not a password
  assert.deepEqual(found('password = goodspec\n'), []);
  assert.deepEqual(found('Server=db;User Id=app;Password=PASSWORD;'), []);
});
