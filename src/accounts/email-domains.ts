// E-mail normalisation and the personal-domain rule (DESIGN §5; research
// accounts-and-stack §3): workspaces are created only from corporate domains.
//
// "Personal" = listed in the union of
//   - `email-providers` all.json (ISC): free/personal mail providers, and
//   - `disposable-email-domains-js` (CC0-1.0): disposable mail domains,
// matched on the domain itself or any parent domain (`a.b.yahoo.co.uk` →
// `yahoo.co.uk`), but never on a bare public suffix (`com.ar` is listed by one
// of the lists; `shop.com.ar` must not match it).
//
// No Public Suffix List package is installed, so public suffixes are recognised
// by a conservative rule (see isPublicSuffix): every single label, and the usual
// registry second levels under two-letter country TLDs (`co.uk`, `com.br`, …).
import { createRequire } from 'node:module';
import { domainToASCII } from 'node:url';
import { unprocessable } from '../core/index.ts';

export interface NormalizedEmail {
  /** `local@domain`, lowercase, domain in ASCII (punycode), no trailing dot. */
  email: string;
  domain: string;
}

const LABEL_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// RFC 5322 dot-atom (ASCII only; quoted local parts and SMTPUTF8 local parts
// are not accepted for sign-in).
const LOCAL_RE = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const MAX_DOMAIN = 253;
const MAX_LOCAL = 64;
const MAX_EMAIL = 254;

/**
 * Lowercase, trim, IDNA to ASCII (UTS #46 via node:url), drop one trailing dot,
 * and check the result is a plausible mail domain (≥ 2 LDH labels, TLD not
 * numeric). Returns null when it is not.
 */
export function normalizeDomain(input: string): string | null {
  if (typeof input !== 'string') return null;
  let d = domainToASCII(input.trim().toLowerCase());
  if (d.endsWith('.')) d = d.slice(0, -1);
  if (d === '' || d.length > MAX_DOMAIN) return null;
  const labels = d.split('.');
  if (labels.length < 2) return null;
  for (const label of labels) if (!LABEL_RE.test(label)) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return null; // IPv4-ish
  // Only keep results that are stable under a second pass (e.g. valid punycode).
  if (domainToASCII(d) !== d) return null;
  return d;
}

/** Normalises an address; null if it is not a usable `local@domain` address. */
export function normalizeEmail(email: string): NormalizedEmail | null {
  if (typeof email !== 'string') return null;
  const s = email.trim().toLowerCase();
  const at = s.lastIndexOf('@');
  if (at <= 0) return null;
  const local = s.slice(0, at);
  if (local.length > MAX_LOCAL || !LOCAL_RE.test(local)) return null;
  const domain = normalizeDomain(s.slice(at + 1));
  if (domain === null) return null;
  const out = `${local}@${domain}`;
  if (out.length > MAX_EMAIL) return null;
  return { email: out, domain };
}

// Registry second levels that are public suffixes under many ccTLDs (co.uk,
// com.au, org.br, ac.jp, ne.jp, gob.mx, nom.za, ltd.uk, …). Deliberately short:
// labels such as `web`, `go` or `biz` are suffixes only in some countries, and
// treating them as such everywhere would hide real providers (`web.de`, `go.ro`).
const CC_SECOND_LEVELS = new Set([
  'ac',
  'co',
  'com',
  'edu',
  'gob',
  'gov',
  'ltd',
  'mil',
  'ne',
  'net',
  'nom',
  'or',
  'org',
  'plc',
  'sch',
]);
// CentralNic-style and similar shared second-level domains.
const SHARED_SUFFIXES = new Set([
  'br.com',
  'cn.com',
  'de.com',
  'eu.com',
  'gb.com',
  'gb.net',
  'jpn.com',
  'kr.com',
  'ru.com',
  'sa.com',
  'se.net',
  'uk.com',
  'uk.net',
  'us.com',
  'us.org',
  'za.com',
]);

/**
 * Conservative public-suffix test for an ASCII, lowercase domain: every TLD,
 * `<registry second level>.<two-letter ccTLD>` and a few shared suffixes.
 */
export function isPublicSuffix(domain: string): boolean {
  const labels = domain.split('.');
  if (labels.length === 1) return true;
  if (labels.length !== 2) return false;
  if (SHARED_SUFFIXES.has(domain)) return true;
  const [sld, tld] = labels as [string, string];
  return tld.length === 2 && CC_SECOND_LEVELS.has(sld);
}

let personal: Set<string> | undefined;

function loadStringArray(require: NodeJS.Require, id: string, pick?: (m: unknown) => unknown): string[] {
  const mod: unknown = require(id);
  const value = pick ? pick(mod) : mod;
  if (!Array.isArray(value) || !value.every((x) => typeof x === 'string')) {
    throw new Error(`${id}: expected an array of domain strings`);
  }
  return value;
}

/** The union of both lists, normalised, loaded once on first use. */
function personalDomains(): Set<string> {
  if (personal) return personal;
  const require = createRequire(import.meta.url);
  const providers = loadStringArray(require, 'email-providers/all.json');
  const disposable = loadStringArray(require, 'disposable-email-domains-js', (m) =>
    (m as { disposableEmailBlocklist: () => unknown }).disposableEmailBlocklist(),
  );
  const set = new Set<string>();
  for (const raw of [...providers, ...disposable]) {
    const d = normalizeDomain(raw); // drops junk entries such as `x@mailed.ro`
    if (d !== null && !isPublicSuffix(d)) set.add(d);
  }
  personal = set;
  return set;
}

/**
 * True if `domain` (or a parent of it, stopping before any public suffix) is a
 * personal or disposable mail domain. The input is normalised first; an invalid
 * domain is not "personal" — callers gate addresses with normalizeEmail().
 */
export function isPersonalDomain(domain: string): boolean {
  const d = normalizeDomain(domain);
  if (d === null) return false;
  const set = personalDomains();
  let candidate = d;
  while (!isPublicSuffix(candidate)) {
    if (set.has(candidate)) return true;
    candidate = candidate.slice(candidate.indexOf('.') + 1);
  }
  return false;
}

/** The address a route was given, normalized; a 422 naming /email when it is not one. */
export function requireEmail(email: string): NormalizedEmail {
  const norm = normalizeEmail(email);
  if (!norm)
    throw unprocessable('The e-mail address is not valid.', [
      { field: '/email', message: 'must be a valid e-mail address' },
    ]);
  return norm;
}
