// node scripts/detect/pii-probes.ts [--ref REF] [--verbose] [--only phones|ssn|fields|negatives]
//
// Probes for the structured PII kinds issue 37 lists as missed on the independent set: phone numbers in
// the national forms people write (spaced or dotted pairs, "+41 (0)44 …" with the trunk digit, after a
// label or in a field), US SSNs in their spellings with context before or after, in fields and table
// columns, and people named in fields whose key or column header names a person. Not part of the
// development set, not scored by `npm run eval`: a probe, written from the list of kinds before
// the detectors were run on it.
//
// What is generated and what is not:
// - phones: libphonenumber's example numbers of every region (generated, the format is the point), in the
//   region's own national format and in the written forms above — FIGURES ON GENERATED TEXT;
// - SSNs: random valid area/group/serial (generated) in spellings and carriers;
// - persons: the PER spans of the public annotated corpora of datasets/detect/ner (names people wrote)
//   put into generated carriers (CSV, JSON, YAML, logs) under person keys of several languages;
// - negatives: the real sentences of datasets/detect/ner and the benign texts of datasets/detect/injection
//   (text other people wrote): every PHONE_NUMBER or US_SSN found there is counted and listed with
//   --verbose, for a reader to judge (they are not labelled for numbers); and generated field values under
//   the same keys that are no person (package names, file names, products).
//
// --ref REF scores REF's detectors (unpacked by scripts/detect/frozen.ts) for a before/after figure.

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { getCountries, getExampleNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import metadata from 'libphonenumber-js/metadata.max.json';
import { rng } from './devset/build.ts';
import * as current from '../../src/detect/index.ts';
import { importFrozen } from './frozen.ts';
import { loadNerData } from '../../src/detect/eval/ner-data.ts';

const refAt = process.argv.indexOf('--ref');
const frozen =
  refAt >= 0 ? await importFrozen<typeof current>(process.argv[refAt + 1]!, 'src/detect/index.ts') : current;
if (!frozen) throw new Error(`no src/detect/index.ts at ${process.argv[refAt + 1]}`);
const detectors: typeof current = frozen;
const verbose = process.argv.includes('--verbose');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;

const r = rng(37);
const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

interface Probe {
  set: string;
  text: string;
  /** the expected span's text, or undefined for a negative */
  want?: string;
  type: string;
}

/** Found when a finding of `type` covers the wanted span (what storage hides: findings and hidden values). */
function outcome(p: Probe): { found: boolean; stored: boolean; extra: string[] } {
  const s = detectors.scanField('tool_input', p.text);
  const findings = s.findings.filter((f) => f.type === p.type);
  const hidden = (s as { hidden?: typeof s.findings }).hidden ?? [];
  const covers = (f: { start: number; end: number }) => {
    if (p.want === undefined) return false;
    const at = p.text.indexOf(p.want);
    return f.start <= at && f.end >= at + p.want.length;
  };
  const found = findings.some(covers);
  const stored = found || hidden.some((f) => f.type === p.type && covers(f));
  const extra = findings.filter((f) => !covers(f)).map((f) => p.text.slice(f.start, f.end));
  return { found, stored, extra };
}

function report(title: string, probes: Probe[]): void {
  const bySet = new Map<string, { n: number; found: number; stored: number; fp: number; misses: string[] }>();
  for (const p of probes) {
    const o = outcome(p);
    const x = bySet.get(p.set) ?? { n: 0, found: 0, stored: 0, fp: 0, misses: [] };
    for (const e of o.extra) x.misses.push(`other: ${e}  <<  ${p.text}`);
    if (p.want !== undefined) {
      x.n++;
      if (o.found) x.found++;
      else x.misses.push(`miss: ${p.text}`);
      if (o.stored) x.stored++;
    }
    x.fp += o.extra.length;
    bySet.set(p.set, x);
  }
  console.log(`\n${title}`);
  console.log(
    `  ${'set'.padEnd(34)} ${'n'.padStart(5)} ${'found'.padStart(7)} ${'stored'.padStart(7)} ${'other'.padStart(6)}`,
  );
  let n = 0;
  let f = 0;
  for (const [set, x] of bySet) {
    n += x.n;
    f += x.found;
    const pc = (k: number) => (x.n ? ((100 * k) / x.n).toFixed(1) + '%' : '-').padStart(7);
    console.log(
      `  ${set.padEnd(34)} ${String(x.n).padStart(5)} ${pc(x.found)} ${pc(x.stored)} ${String(x.fp).padStart(6)}`,
    );
    if (verbose) for (const m of x.misses.slice(0, 12)) console.log(`      ${JSON.stringify(m)}`);
  }
  console.log(`  ${'all'.padEnd(34)} ${String(n).padStart(5)} ${((100 * f) / n).toFixed(1).padStart(6)}%`);
}

// ---------------------------------------------------------------------------------------------------------
// Phones (generated: libphonenumber's example numbers)

const NATIONAL_PREFIX = new Map<string, string | undefined>();
for (const code of getCountries()) {
  const row = (metadata as { countries: Record<string, unknown[]> }).countries[code]!;
  NATIONAL_PREFIX.set(code, row[5] as string | undefined);
}

/** A valid mobile number of `region`: its example with the last digits varied. */
function mobileOf(region: CountryCode) {
  const ex = getExampleNumber(region, examples);
  if (!ex) return undefined;
  const nat = ex.nationalNumber as string;
  for (let tries = 0; tries < 20; tries++) {
    const k = Math.min(4, nat.length - 2);
    let tail = '';
    for (let i = 0; i < k; i++) tail += String(int(0, 9));
    const cand = parsePhoneNumberFromString(nat.slice(0, nat.length - k) + tail, region);
    if (cand?.isValid()) return cand;
  }
  return undefined;
}

/** The national form's digits (trunk prefix included) in pairs, from the right: "06 12 34 56 78". */
function pairs(national: string, sep: string): string {
  const d = national.replace(/\D/g, '');
  const out: string[] = [];
  let i = d.length;
  while (i > 0) {
    const k = i >= 2 ? 2 : 1;
    out.unshift(d.slice(i - k, i));
    i -= k;
  }
  // a leading single digit joins the next pair ("012 34 56 78", not "0 12 …")
  if (out[0]!.length === 1 && out.length > 1) out.splice(0, 2, out[0]! + out[1]!);
  return out.join(sep);
}

/** Regions whose own national format writes two-digit groups (pairs are how people there write). */
function pairRegion(national: string): boolean {
  const groups = national.split(/[\s.-]+/);
  return groups.filter((g) => g.replace(/\D/g, '').length === 2).length >= 3;
}

const PHONE_CARRIERS: Array<[string, string]> = [
  ['label', 'Tel: {P}'],
  ['label-prose', 'Please call me on {P} after 6pm.'],
  ['json', '{"id": 812, "phone": "{P}"}'],
  ['csv', 'id,phone,city\n812,{P},x\n'],
  // the value six rows under its column's header
  ['csv-rows', 'id,phone,city\n1,n/a,x\n2,n/a,x\n3,n/a,x\n4,n/a,x\n5,n/a,x\n6,n/a,x\n7,{P},x\n'],
  ['signature', 'Best regards\n\nM. Dupont\n{P}'],
];

function phoneProbes(): Probe[] {
  const out: Probe[] = [];
  for (const region of getCountries()) {
    const p = mobileOf(region);
    if (!p) continue;
    const national = p.formatNational();
    const intl = p.formatInternational();
    const forms: Array<[string, string]> = [
      ['national', national],
      ['international', intl],
    ];
    const trunk = NATIONAL_PREFIX.get(region);
    if (pairRegion(national)) {
      forms.push(['pairs-spaced', pairs(national, ' ')]);
      forms.push(['pairs-dotted', pairs(national, '.')]);
    }
    if (trunk === '0') {
      // "+41 (0)44 …": the trunk digit in parentheses after the country code
      const cc = intl.split(' ')[0]!;
      forms.push(['plus-trunk', `${cc} (0)${intl.slice(cc.length + 1)}`]);
    }
    for (const [form, num] of forms)
      for (const [carrier, tpl] of PHONE_CARRIERS)
        out.push({ set: `${form} / ${carrier}`, text: tpl.replace('{P}', num), want: num, type: 'PHONE_NUMBER' });
  }
  return out;
}

// Numbers in the prose of a language, no country code: candidate regions from the language of the text.
const LANG_PROSE: Array<[CountryCode[], string[]]> = [
  [['PL'], ['Proszę dzwonić pod numer {P} w godzinach pracy.', 'Mój numer telefonu to {P}.']],
  [
    ['CZ', 'SK'],
    ['Zavolejte mi prosím na číslo {P}.', 'Moje telefonní číslo je {P}.'],
  ],
  [['HU'], ['Kérem, hívjon a {P} telefonszámon.', 'A telefonszámom: {P}']],
  [['GR'], ['Καλέστε με στο {P} το απόγευμα.', 'Το τηλέφωνό μου είναι {P}.']],
  [['RU'], ['Позвоните мне по номеру {P} завтра.', 'Мой телефон: {P}']],
  [['UA'], ['Зателефонуйте мені за номером {P}.', 'Мій телефон: {P}']],
  [['TR'], ['Beni {P} numaralı telefondan arayın.', 'Telefon numaram {P}.']],
  [['RO'], ['Sunați-mă la numărul {P}, vă rog.', 'Numărul meu de telefon este {P}.']],
  [['FI'], ['Soita minulle numeroon {P} huomenna.', 'Puhelinnumeroni on {P}.']],
  [['SE'], ['Ring mig på {P} i morgon.', 'Mitt telefonnummer är {P}.']],
  [
    ['NO', 'DK'],
    ['Ring meg på {P} i morgen.', 'Telefonnummeret mitt er {P}.'],
  ],
  [
    ['NL', 'BE'],
    ['Bel me morgen op {P}.', 'Mijn telefoonnummer is {P}.'],
  ],
  [
    ['PT', 'BR'],
    ['Ligue-me para o {P} amanhã.', 'O meu número de telemóvel é {P}.'],
  ],
  [['IT'], ['Chiamami al {P} domani mattina.', 'Il mio numero di cellulare è {P}.']],
  [
    ['ES', 'MX', 'AR'],
    ['Llámame al {P} mañana.', 'Mi número de teléfono es {P}.'],
  ],
  [
    ['FR', 'BE', 'CH'],
    ['Appelle-moi au {P} demain.', 'Mon numéro de portable est le {P}.'],
  ],
  [
    ['DE', 'AT', 'CH'],
    ['Ruf mich morgen unter {P} an.', 'Meine Handynummer ist {P}.'],
  ],
  [
    ['HR', 'RS', 'SI'],
    ['Nazovite me na broj {P}.', 'Moj broj telefona je {P}.'],
  ],
  [['JP'], ['明日{P}に電話してください。', '電話番号は{P}です。']],
  [['KR'], ['내일 {P}로 전화 주세요.', '제 전화번호는 {P}입니다.']],
  [['CN'], ['请明天拨打{P}联系我。', '我的手机号码是{P}。']],
  [['IN'], ['Please call me on {P} tomorrow.', 'My mobile number is {P}.']],
];

function languageProbes(): Probe[] {
  const out: Probe[] = [];
  for (const [regions, tpls] of LANG_PROSE)
    for (const region of regions) {
      for (let k = 0; k < 4; k++) {
        const p = mobileOf(region);
        if (!p) continue;
        const num = p.formatNational();
        const tpl = tpls[k % tpls.length]!;
        out.push({ set: `lang ${regions[0]}`, text: tpl.replace('{P}', num), want: num, type: 'PHONE_NUMBER' });
      }
    }
  return out;
}

// Short local numbers after a label (no area code): the label is what says it is a phone.
function shortLocalProbes(): Probe[] {
  const out: Probe[] = [];
  const labels = ['Tel: ', 'Tel. ', 'Phone: ', 'Tél. ', 'Telefon: ', 'tlf. ', 'Tel.: ', 'Fax: ', 'ph. '];
  const shapes = ['dddd ddd', 'ddd dddd', 'ddd ddd', 'dd dd dd', 'ddd-dddd', 'ddd-ddd', 'dd-dd-dd', 'dd dd ddd'];
  for (const label of labels)
    for (const shape of shapes) {
      let num = '';
      for (const ch of shape) num += ch === 'd' ? String(num === '' ? int(2, 9) : int(0, 9)) : ch;
      out.push({ set: `short local ${shape}`, text: `${label}${num}`, want: num, type: 'PHONE_NUMBER' });
    }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// SSNs (generated values)

function ssnValue(): [string, string, string] {
  let area: number;
  do area = int(1, 899);
  while (area === 666);
  return [String(area).padStart(3, '0'), String(int(1, 99)).padStart(2, '0'), String(int(1, 9999)).padStart(4, '0')];
}
const SPELL: Array<[string, (a: string, g: string, s: string) => string]> = [
  ['dashes', (a, g, s) => `${a}-${g}-${s}`],
  ['spaces', (a, g, s) => `${a} ${g} ${s}`],
  ['plain', (a, g, s) => `${a}${g}${s}`],
];
const SSN_CARRIERS: Array<[string, string]> = [
  ['label', 'SSN: {S}'],
  ['label-nospace', 'SSN:{S}'],
  ['label-hash', 'SSN#{S}'],
  ['prose-before', 'My social security number is {S}.'],
  ['prose-after', '{S} is my social security number.'],
  ['after-paren', 'Applicant ID {S} (SSN) on file.'],
  ['far-label', 'Social Security Number of the primary account holder: {S}'],
  ['json', '{"name_id": 4, "ssn": "{S}"}'],
  ['json-long-key', '{"social_security_number": "{S}", "dob": "1980-01-01"}'],
  ['yaml', 'applicant:\n  ssn: "{S}"\n'],
  ['log', 'level=info user=42 ssn={S} action=verify'],
  ['csv', 'id,ssn,state\n17,{S},OH\n'],
  ['csv-far', 'id,first,last,date_of_birth,ssn\n17,Mary,Lowe,1980-01-01,{S}\n'],
  ['md-table', '| id | SSN |\n|---|---|\n| 17 | {S} |'],
  // the value six rows under its column's header
  ['csv-rows', 'id,ssn,state\n1,n/a,OH\n2,n/a,TX\n3,n/a,CA\n4,n/a,NY\n5,n/a,WA\n6,n/a,OR\n7,{S},NY\n'],
  [
    'md-rows',
    '| id | SSN | state |\n|---|---|---|\n| 1 | n/a | OH |\n| 2 | n/a | TX |\n| 3 | n/a | CA |\n| 4 | {S} | NY |',
  ],
  ['spanish', 'Número de Seguro Social: {S}'],
  ['taxpayer', 'Taxpayer identification number (SSN): {S}'],
  ['ss-no', 'S.S. No. {S}'],
];

function ssnProbes(): Probe[] {
  const out: Probe[] = [];
  for (const [spell, f] of SPELL)
    for (const [carrier, tpl] of SSN_CARRIERS)
      for (let k = 0; k < 4; k++) {
        const v = f(...ssnValue());
        out.push({ set: `${spell} / ${carrier}`, text: tpl.replace('{S}', v), want: v, type: 'US_SSN' });
      }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Persons in fields (names from the public NER corpora, carriers generated)

function corpusNames(): string[] {
  const names: string[] = [];
  for (const src of loadNerData())
    for (const s of src.sentences)
      for (const [a, b, t] of s.spans) {
        if (t !== 'PER') continue;
        const n = s.text.slice(a, b);
        // a full name of two or three words in Latin script (what such a field holds)
        if (/^\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+){1,2}$/u.test(n)) names.push(n);
      }
  return [...new Set(names)];
}

const PERSON_KEYS = [
  'name',
  'full_name',
  'fullName',
  'customer',
  'customer_name',
  'patient',
  'author',
  'contact',
  'owner',
  'assignee',
  'employee',
  'client',
  'recipient',
  'sender',
  'user_name',
  'display_name',
  'Name',
  'nom',
  'nombre',
  'nome',
  'naam',
  'Kunde',
  'Ansprechpartner',
  'cliente',
  'klant',
  'paciente',
  'autor',
  'titulaire',
  'responsable',
];

function fieldProbes(): Probe[] {
  const names = corpusNames();
  const out: Probe[] = [];
  const carriers: Array<[string, (k: string, v: string) => string]> = [
    ['json', (k, v) => `{"id": 17, "${k}": "${v}", "status": "active"}`],
    ['yaml', (k, v) => `record:\n  id: 17\n  ${k}: ${v}\n  status: active\n`],
    ['log', (k, v) => `2024-05-01T10:00:00Z level=info id=17 ${k}="${v}" msg="updated"`],
    ['csv', (k, v) => `id,${k},status\n17,${v},active\n`],
    ['csv-first', (k, v) => `${k},email\n${v},x@example.org\n`],
    ['tsv', (k, v) => `id\t${k}\tstatus\n17\t${v}\tactive\n`],
    ['md-table', (k, v) => `| id | ${k} | status |\n|---|---|---|\n| 17 | ${v} | active |`],
  ];
  for (const [carrier, f] of carriers)
    for (const k of PERSON_KEYS) {
      const v = pick(names);
      out.push({ set: `person ${carrier}`, text: f(k, v), want: v, type: 'PERSON' });
    }
  // values under the same keys that are no person: each PERSON found is counted as "other"
  const NOT_PERSONS = ['my-app', 'config.yaml', 'Quarterly Report', 'Premium Plan', 'lodash', 'Main Street Branch'];
  for (const [carrier, f] of carriers)
    for (const v of NOT_PERSONS)
      out.push({ set: `not-person ${carrier}`, text: f(pick(['name', 'owner', 'author']), v), type: 'PERSON' });
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Real text: numbers found where nobody wrote a phone or SSN (for a reader to judge)

function realNegatives(): void {
  const texts: string[] = [];
  for (const src of loadNerData()) for (const s of src.sentences) texts.push(s.text);
  const inj = gunzipSync(readFileSync(new URL('../../datasets/detect/injection/cases.jsonl.gz', import.meta.url)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim());
  for (const l of inj) {
    const c = JSON.parse(l) as { text: string; label: string };
    if (c.label !== 'injection') texts.push(c.text);
  }
  let chars = 0;
  const hits: Record<string, string[]> = { PHONE_NUMBER: [], US_SSN: [] };
  for (const t of texts) {
    chars += t.length;
    for (const f of detectors.scan(t).findings)
      if (f.type in hits)
        hits[f.type]!.push(
          `${t.slice(f.start, f.end)}  <<  ${t.slice(Math.max(0, f.start - 40), f.end + 20).replace(/\n/g, ' ')}`,
        );
  }
  console.log(
    `\nreal text, not labelled for numbers (${texts.length} texts, ${(chars / 1e6).toFixed(1)} M chars): findings to judge`,
  );
  for (const [t, xs] of Object.entries(hits)) {
    console.log(`  ${t.padEnd(14)} ${xs.length}`);
    if (verbose) for (const x of xs) console.log(`      ${x}`);
  }
}

if (!only || only === 'phones') {
  report('PHONE_NUMBER, generated (libphonenumber example numbers of every region, mobile)', phoneProbes());
  report('PHONE_NUMBER, generated, national form in the prose of a language', languageProbes());
  report('PHONE_NUMBER, generated, short local numbers after a label', shortLocalProbes());
}
if (!only || only === 'ssn') report('US_SSN, generated values', ssnProbes());
if (!only || only === 'fields')
  report('PERSON in fields (names from datasets/detect/ner, carriers generated)', fieldProbes());
if (!only || only === 'negatives') realNegatives();
