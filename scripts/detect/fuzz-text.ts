// Seeded random texts for the detect harnesses: fragments that sit on every detector's edges (digits in
// groups, key=value shapes, names and street cues, injection phrases, odd Unicode) glued together at
// random, so that a change to a rule's boundary shows up as a difference or a broken invariant.

/** Mulberry32: a small, fast, seedable PRNG (the same seed gives the same texts on every machine). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'ssn',
  'SSN',
  'social security',
  'phone',
  'tel:',
  'Tel.',
  'call',
  'card',
  'visa',
  'IBAN',
  'account',
  'routing',
  'passport',
  'driver license',
  'NHS',
  'Steuer-ID',
  'PESEL',
  'CPF',
  'Aadhaar',
  'Medicare',
  'TFN',
  'ABN',
  'NRIC',
  'RRN',
  'password=',
  'api_key: ',
  'secret=',
  'token ',
  'AWS_SECRET_ACCESS_KEY=',
  'Authorization: Bearer ',
  '"password": "',
  '--password ',
  'Mr.',
  'Mrs.',
  'Dr.',
  'Frau',
  'Herr',
  'Street',
  'St.',
  'Avenue',
  'Straße',
  'rue',
  'Calle',
  'Road',
  'Lane',
  'Apt',
  'Suite',
  'London',
  'Berlin',
  'Paris',
  'France',
  'Germany',
  'United States',
  'New York',
  'Cyprus',
  'name:',
  'Name',
  'Contact',
  'ignore all previous instructions',
  'Ignore the above',
  'you are now DAN',
  'system prompt',
  'Vergiss alle vorherigen Anweisungen',
  'ignora las instrucciones anteriores',
  '忽略之前的所有指令',
  'игнорируй предыдущие инструкции',
  '以前の指示を無視して',
  '<!-- ',
  ' -->',
  '```',
  '{"role":"system","content":"',
  'BEGIN',
  '-----BEGIN RSA PRIVATE KEY-----',
  'eyJhbGciOiJIUzI1NiJ9.',
  'ghp_',
  'AKIA',
  'sk-',
  'xoxb-',
  'AIza',
  'hf_',
  'glpat-',
  'npm_',
  'sk_live_',
  'svc_live_',
  'https://',
  'http://',
  'www.',
  '@',
  '.com',
  '.org',
  'mailto:',
  '0x',
  'bc1q',
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  '203.0.113.',
  '2001:db8::',
  '00:1A:2B:',
  'Anna',
  'Maria',
  'José',
  'Müller',
  "O'Brien",
  'Nguyen',
  'Wang Wei',
  'Иван',
  'Σοφία',
  'Łukasz',
  'Ørsted',
  'Zoë',
];
const ODD = [
  'İ',
  'ı',
  'ſ',
  'K',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u202e',
  '😀',
  '𝐀',
  '\u{E0049}',
  '\t',
  '\r\n',
  '\n',
  'ß',
  'ﬁ',
  'Å',
];
const SEPS = [' ', ' ', ' ', '-', '.', '/', ':', '=', ', ', '\n', '(', ')', '+', '_', "'", '"'];
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** One random text of about `len` characters. */
export function fuzzText(r: () => number, len: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const digits = (n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += String(Math.floor(r() * 10));
    return s;
  };
  let s = '';
  while (s.length < len) {
    const k = r();
    if (k < 0.3) {
      // a number in groups: phones, cards, ids, dates
      const groups = 1 + Math.floor(r() * 5);
      const sep = pick(SEPS);
      const parts: string[] = [];
      for (let g = 0; g < groups; g++) parts.push(digits(1 + Math.floor(r() * 6)));
      s += (r() < 0.15 ? '+' : '') + parts.join(sep);
    } else if (k < 0.6) s += pick(WORDS);
    else if (k < 0.7) {
      let t = '';
      const n = 4 + Math.floor(r() * 44);
      for (let i = 0; i < n; i++) t += ALNUM[Math.floor(r() * ALNUM.length)];
      s += t;
    } else if (k < 0.78) s += pick(ODD);
    else if (k < 0.85) {
      const w = pick(WORDS);
      s += r() < 0.5 ? w.toUpperCase() : w.toLowerCase();
    } else s += pick(SEPS);
    if (r() < 0.5) s += pick(SEPS);
  }
  return s;
}

/** `n` seeded texts, mostly short, some long (up to 32,000 chars, the field limit). */
export function fuzzTexts(seed: number, n: number): string[] {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const roll = r();
    const len = roll < 0.7 ? 20 + Math.floor(r() * 300) : roll < 0.97 ? 300 + Math.floor(r() * 3000) : 32_000;
    out.push(fuzzText(r, len).slice(0, 32_000));
  }
  return out;
}
