// The numeric rules: for each type, the digit counts and group shapes it accepts, its check and its context
// words. Read once into a table by digit and group count (numbers/chunks.ts ruleTable).

import * as checksums from '../text/checksums.ts';
import * as contextModule from '../text/context.ts';
import * as numericChecks from './checks.ts';
import type { Rule } from './rule.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { luhn } = checksums;
const { keywordList } = contextModule;
const {
  aadhaarOk,
  abaOk,
  abnOk,
  acnOk,
  allSame,
  cardPrefixOk,
  cpfOk,
  deTaxIdOk,
  groupsAre,
  itinOk,
  itVatOk,
  krBrnOk,
  krRrnOk,
  lanrOk,
  medicareOk,
  nhsOk,
  npiOk,
  peselOk,
  seOrgOk,
  sePnrOk,
  sinOk,
  ssnParts,
  tfnOk,
  thTninOk,
  trIdOk,
  uniformSeps,
  zaIdOk,
} = numericChecks;

/** `fits` of a rule that takes a single group or one of these numbers of groups. */
function groupCounts(...counts: number[]): (digits: number, groups: number) => boolean {
  return (_, groups) => counts.includes(groups);
}

export const NUMERIC_RULES: Rule[] = [
  {
    type: 'CREDIT_CARD',
    validated: true,
    lengths: [12, 13, 14, 15, 16, 17, 18, 19],
    fits: (d, g) => 4 * (g - 1) < d,
    check: (c) => {
      const n = c.digits.length;
      if (n < 12 || n > 19 || !cardPrefixOk(c.digits) || allSame(c.digits)) return 0;
      if (!uniformSeps(c, ' -')) return 0;
      if (c.groups.length > 1 && !(c.groups.slice(0, -1).every((g) => g === 4) || groupsAre(c, [4, 6, 5], [4, 6, 4])))
        return 0;
      if (!luhn(c.digits)) return 0;
      return n >= 15 ? 0.6 : 0.45;
    },
    context: keywordList([
      'card',
      'credit',
      'debit',
      'visa',
      'mastercard',
      'amex',
      'cc ',
      'cc#',
      'cc:',
      'cc=',
      'kreditkarte',
      'tarjeta',
      'carte',
      'payment',
      'pan',
    ]),
    boost: 0.35,
  },
  {
    type: 'US_SSN',
    validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => {
      // "123-45-6789", "123 45 6789", "123.45.6789", and "123 - 45 - 6789" as typed into forms
      if (c.digits.length !== 9 || !groupsAre(c, [3, 2, 4])) return 0;
      const uniform = uniformSeps(c, '- .') || c.seps.every((s) => s === ' - ');
      // mixed or slashed separators ("710-31 0236", "710/31/0236") only where the context names an SSN
      // (0.3 and the context's boost)
      if (!uniform && !c.seps.every((s) => s.length === 1 && '- ./'.includes(s))) return 0;
      if (!ssnParts(c.digits)) return 0;
      return c.groups.length === 3 && uniform ? 0.5 : 0.3;
    },
    context: keywordList([
      'ssn',
      'social security',
      'social sec',
      'soc. sec',
      'soc sec',
      'socsec',
      'ss#',
      'ss #',
      'ss no',
      's.s. no',
      's.s.#',
      's.s.n',
      'ssa',
      'social',
      'sozialversicherungsnummer',
    ]),
    boost: 0.4,
  },
  {
    type: 'US_ITIN',
    validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) =>
      c.digits.length === 9 && groupsAre(c, [3, 2, 4]) && uniformSeps(c, '- ') && itinOk(c.digits)
        ? c.groups.length === 3
          ? 0.5
          : 0.3
        : 0,
    context: keywordList(['itin', 'taxpayer', 'tax id', 'individual taxpayer']),
    boost: 0.4,
  },
  {
    type: 'UK_NHS',
    validated: true,
    lengths: [10],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [3, 3, 4]) && uniformSeps(c, '- ') && nhsOk(c.digits) ? 0.5 : 0),
    context: keywordList(['nhs', 'national health', 'health service', 'patient']),
    boost: 0.4,
  },
  {
    type: 'CA_SIN',
    validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) =>
      groupsAre(c, [3, 3, 3]) && uniformSeps(c, '- ') && sinOk(c.digits) ? (c.groups.length === 3 ? 0.45 : 0.3) : 0,
    context: keywordList(['sin', 'social insurance', 'nas', "numéro d'assurance sociale", 'assurance sociale']),
    boost: 0.4,
  },
  {
    type: 'ABA_ROUTING_NUMBER',
    validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [4, 4, 1]) && uniformSeps(c, '-') && abaOk(c.digits) ? 0.4 : 0),
    context: keywordList(['routing', 'aba', 'rtn', 'bank']),
    boost: 0.45,
  },
  {
    type: 'AU_ABN',
    validated: true,
    lengths: [11],
    fits: groupCounts(1, 4),
    check: (c) => (groupsAre(c, [2, 3, 3, 3]) && uniformSeps(c, ' ') && abnOk(c.digits) ? 0.45 : 0),
    context: keywordList(['abn', 'australian business number', 'business number']),
    boost: 0.45,
  },
  {
    type: 'AU_ACN',
    validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, ' ') && acnOk(c.digits) ? 0.4 : 0),
    context: keywordList(['acn', 'australian company number', 'company number']),
    boost: 0.45,
  },
  {
    type: 'AU_TFN',
    validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, ' ') && tfnOk(c.digits) ? 0.4 : 0),
    context: keywordList(['tfn', 'tax file number', 'tax file']),
    boost: 0.45,
  },
  {
    type: 'AU_MEDICARE',
    validated: true,
    lengths: [10, 11],
    fits: groupCounts(1, 3, 4),
    check: (c) => (groupsAre(c, [4, 5, 1], [4, 5, 1, 1]) && uniformSeps(c, ' ') && medicareOk(c.digits) ? 0.4 : 0),
    context: keywordList(['medicare']),
    boost: 0.45,
  },
  {
    type: 'US_NPI',
    validated: true,
    lengths: [10],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [4, 3, 3], [3, 3, 4]) && uniformSeps(c, ' -') && npiOk(c.digits) ? 0.4 : 0),
    context: keywordList(['npi', 'national provider', 'provider identifier', 'provider id', 'provider']),
    boost: 0.45,
  },
  {
    type: 'IN_AADHAAR',
    validated: true,
    lengths: [12],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [4, 4, 4]) && uniformSeps(c, ' -') && aadhaarOk(c.digits) ? 0.5 : 0),
    context: keywordList(['aadhaar', 'aadhar', 'uidai', 'uid']),
    boost: 0.4,
  },
  {
    type: 'TR_NATIONAL_ID',
    validated: true,
    lengths: [11],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && trIdOk(c.digits) ? 0.45 : 0),
    context: keywordList([
      'kimlik',
      'tc no',
      't.c.',
      'tckn',
      'turkish id',
      'turkish national',
      'national id',
      'citizen',
    ]),
    boost: 0.45,
  },
  {
    type: 'PL_PESEL',
    validated: true,
    lengths: [11],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && peselOk(c.digits) ? 0.45 : 0),
    context: keywordList(['pesel', 'numer ewidencyjny', 'national id', 'id number']),
    boost: 0.45,
  },
  {
    type: 'KR_RRN',
    validated: true,
    lengths: [13],
    fits: groupCounts(1, 2),
    check: (c) => (groupsAre(c, [6, 7]) && uniformSeps(c, '-') && krRrnOk(c.digits, false) ? 0.5 : 0),
    context: keywordList(['rrn', 'resident registration', '주민등록번호', '주민번호']),
    boost: 0.4,
  },
  {
    type: 'KR_FRN',
    validated: true,
    lengths: [13],
    fits: groupCounts(1, 2),
    check: (c) => (groupsAre(c, [6, 7]) && uniformSeps(c, '-') && krRrnOk(c.digits, true) ? 0.5 : 0),
    context: keywordList(['frn', 'foreigner registration', 'foreign registration', '외국인등록번호']),
    boost: 0.4,
  },
  {
    type: 'KR_BRN',
    validated: true,
    lengths: [10],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [3, 2, 5]) && uniformSeps(c, '-') && krBrnOk(c.digits) ? 0.45 : 0),
    context: keywordList(['brn', 'business registration', '사업자등록번호', '사업자']),
    boost: 0.45,
  },
  {
    type: 'KR_DRIVER_LICENSE',
    lengths: [12],
    fits: groupCounts(1, 4),
    check: (c) => {
      if (c.digits.length !== 12 || !groupsAre(c, [2, 2, 6, 2]) || !uniformSeps(c, '-')) return 0;
      const region = Number(c.digits.slice(0, 2));
      return region >= 11 && region <= 28 ? 0.4 : 0;
    },
    context: keywordList(['driver', 'license', 'licence', '운전면허']),
    boost: 0.45,
  },
  {
    type: 'TH_TNIN',
    validated: true,
    lengths: [13],
    fits: groupCounts(1, 5),
    check: (c) => (groupsAre(c, [1, 4, 5, 2, 1]) && uniformSeps(c, ' -') && thTninOk(c.digits) ? 0.45 : 0),
    context: keywordList(['tnin', 'thai id', 'thai national', 'national id', 'บัตรประชาชน', 'id card']),
    boost: 0.45,
  },
  {
    type: 'ZA_ID_NUMBER',
    validated: true,
    lengths: [13],
    fits: groupCounts(1, 3, 5),
    check: (c) => (groupsAre(c, [6, 4, 3], [6, 4, 1, 1, 1]) && uniformSeps(c, ' -') && zaIdOk(c.digits) ? 0.45 : 0),
    context: keywordList([
      'id number',
      'identity number',
      'south african id',
      'national id',
      'sa id',
      'permanent resident',
      'id no',
      'identity document',
    ]),
    boost: 0.45,
  },
  {
    type: 'SE_PERSONNUMMER',
    validated: true,
    lengths: [10, 12],
    fits: groupCounts(1, 2),
    check: (c) =>
      ((groupsAre(c, [6, 4], [8, 4]) && uniformSeps(c, '-+')) || c.groups.length === 1) && sePnrOk(c.digits) ? 0.45 : 0,
    context: keywordList([
      'personnummer',
      'pnr',
      'personal identity',
      'person number',
      'personal number',
      'identity code',
    ]),
    boost: 0.45,
  },
  {
    type: 'SE_ORGANISATIONSNUMMER',
    validated: true,
    lengths: [10, 12],
    fits: groupCounts(1, 2),
    check: (c) =>
      ((groupsAre(c, [6, 4], [8, 4]) && uniformSeps(c, '-')) || c.groups.length === 1) && seOrgOk(c.digits) ? 0.45 : 0,
    context: keywordList([
      'organisationsnummer',
      'org.nr',
      'orgnr',
      'organisation number',
      'organization number',
      'company identity',
      'company id',
    ]),
    boost: 0.45,
  },
  {
    type: 'IT_VAT_CODE',
    validated: true,
    lengths: [11],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && itVatOk(c.digits) ? 0.45 : 0),
    context: keywordList(['partita iva', 'p.iva', 'piva', 'vat', 'iva']),
    boost: 0.45,
  },
  {
    type: 'DE_TAX_ID',
    validated: true,
    lengths: [11],
    fits: groupCounts(1, 4),
    check: (c) => (groupsAre(c, [2, 3, 3, 3]) && uniformSeps(c, ' ') && deTaxIdOk(c.digits) ? 0.45 : 0),
    context: keywordList([
      'steuer-id',
      'steuerid',
      'steueridentifikationsnummer',
      'idnr',
      'identifikationsnummer',
      'tax id',
      'tin',
    ]),
    boost: 0.45,
  },
  {
    type: 'DE_LANR',
    validated: true,
    lengths: [9],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && lanrOk(c.digits) && !allSame(c.digits.slice(0, 6)) ? 0.4 : 0),
    context: keywordList(['lanr', 'arztnummer', 'lebenslange arztnummer']),
    boost: 0.45,
  },
  {
    type: 'BR_CPF',
    validated: true,
    lengths: [11],
    fits: groupCounts(1, 4),
    check: (c) =>
      ((groupsAre(c, [3, 3, 3, 2]) &&
        c.seps.length === 3 &&
        c.seps[0] === '.' &&
        c.seps[1] === '.' &&
        c.seps[2] === '-') ||
        c.groups.length === 1) &&
      cpfOk(c.digits)
        ? 0.45
        : 0,
    context: keywordList(['cpf', 'cadastro de pessoas']),
    boost: 0.45,
  },
  {
    type: 'PH_TIN',
    lengths: [9, 12, 14],
    fits: (d, g) => (g === 3 && d === 9) || (g === 4 && (d === 12 || d === 14)),
    check: (c) =>
      c.groups.length >= 3 && groupsAre(c, [3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 5]) && uniformSeps(c, '-') ? 0.35 : 0,
    context: keywordList(['tin', 'tax identification', 'bir']),
    boost: 0.45,
  },
  {
    type: 'US_BANK_NUMBER',
    lengths: [8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && c.digits.length >= 8 && c.digits.length <= 17 ? 0.05 : 0),
    context: keywordList([
      'bank account',
      'account number',
      'account no',
      'acct',
      'checking account',
      'savings account',
    ]),
    boost: 0.6,
    needsContext: true,
  },
  {
    type: 'US_DRIVER_LICENSE',
    lengths: [7, 8, 9, 10, 11, 12, 13],
    fits: (_, g) => g <= 3,
    check: (c) => (c.digits.length >= 7 && c.digits.length <= 13 && c.groups.length <= 3 ? 0.05 : 0),
    context: keywordList([
      'driver license',
      "driver's license",
      'drivers license',
      'driver licence',
      'driving license',
      "driver's licence",
      'dl#',
      'dl #',
      'dl number',
      'license number',
      'licence number',
    ]),
    boost: 0.6,
    needsContext: true,
  },
  {
    type: 'DE_PLZ',
    lengths: [5],
    fits: groupCounts(1),
    check: (c) =>
      c.groups.length === 1 && c.digits.length === 5 && c.digits !== '00000' && c.digits !== '99999' ? 0.05 : 0,
    context: keywordList(['plz', 'postleitzahl']),
    boost: 0.6,
    needsContext: true,
  },
];
