// Generated PII cases: Faker (MIT) in every locale it ships for addresses, e-mails, cards, IBANs, IPs;
// person names, towns and countries from packages the detectors do not load (see sources.ts: the
// detector's name dictionary is built from Faker, so Faker's names would make PERSON circular);
// libphonenumber-js (MIT, Google's libphonenumber metadata, Apache-2.0) example numbers for
// every region, varied in their last digits and kept only when valid, in national, international and
// E.164 formats; US SSNs with valid area/group/serial in the spellings people use; Bitcoin addresses
// with valid Base58Check checksums. Sentences in several languages and carriers (prose, JSON, logs,
// CSV, forms, e-mail signatures) hold them; negatives hold look-alikes that are not PII.

import { createHash } from 'node:crypto';
import { allLocales, base, Faker } from '@faker-js/faker';
import type { LocaleDefinition } from '@faker-js/faker';
import { getCountries, getExampleNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { fill, int, pick, rng, splitOf } from './build.ts';
import type { Filled, Rand, SpanCase } from './build.ts';
import { LOCAL_COUNTRIES, PLACE_CARRIER_TEMPLATES, PLACE_NEGATIVES } from './places.ts';
import { countryName, personName, place, street, town } from './sources.ts';
import type { Sourced } from './sources.ts';

const FAKER_LICENCE = 'MIT (@faker-js/faker locale data)';
const PHONE_LICENCE = 'MIT (libphonenumber-js) / Apache-2.0 (libphonenumber metadata)';
const OWN = "Apache-2.0 (this repository's templates)";

/** Types every generated PII case is labelled for exhaustively. */
export const CHECKED = [
  'PERSON',
  'EMAIL_ADDRESS',
  'PHONE_NUMBER',
  'CREDIT_CARD',
  'IBAN_CODE',
  'US_SSN',
  'IP_ADDRESS',
  'CRYPTO',
  'STREET_ADDRESS',
  'LOCATION',
];

type Lang = 'en' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl';

/** Sentence templates by language; each id is a template group for the split. */
const TEMPLATES: Record<Lang, string[]> = {
  en: [
    'Hi, this is {PERSON}. You can reach me at {PHONE_NUMBER} or {EMAIL_ADDRESS}.',
    'Please ship the order to {PERSON}, {STREET_ADDRESS}.',
    'My SSN is {US_SSN} and my date of birth is in the file.',
    'Customer {PERSON} paid with card {CREDIT_CARD}; refund to IBAN {IBAN_CODE}.',
    'Login from {IP_ADDRESS} for {EMAIL_ADDRESS} failed three times.',
    'Send the payment to wallet {CRYPTO} before Friday.',
    '{PERSON} moved to {LOCATION} last year and now lives at {STREET_ADDRESS}.',
    'Can you call {PERSON} back on {PHONE_NUMBER}? She asked about the invoice.',
    'The tenant, {PERSON}, gave {PHONE_NUMBER} as an emergency contact.',
    'Social security number: {US_SSN}',
    'I was born in {LOCATION} and grew up near {LOCATION}.',
    'Forward the contract to {PERSON} ({EMAIL_ADDRESS}) and cc {PERSON}.',
    'Our new office is at {STREET_ADDRESS}. Visitors should ask for {PERSON}.',
    'Dear {PERSON}, your card ending in the digits below was charged: {CREDIT_CARD}.',
    'The request came from {IP_ADDRESS}; the user agent was curl/8.5.',
    'If you have questions, text me at {PHONE_NUMBER}. Thanks, {PERSON}',
    'Wire transfer details: beneficiary {PERSON}, IBAN {IBAN_CODE}.',
    'ssn {US_SSN} belongs to the applicant {PERSON}',
    'Meeting with {PERSON} in {LOCATION} next Tuesday.',
    'He gave his address as {STREET_ADDRESS} and his number as {PHONE_NUMBER}.',
  ],
  de: [
    'Hallo, hier ist {PERSON}. Sie erreichen mich unter {PHONE_NUMBER} oder {EMAIL_ADDRESS}.',
    'Bitte die Lieferung an {PERSON}, {STREET_ADDRESS} schicken.',
    'Die Überweisung geht an {PERSON}, IBAN {IBAN_CODE}.',
    '{PERSON} wohnt seit Mai in {LOCATION}, Adresse: {STREET_ADDRESS}.',
    'Rückruf bitte an {PHONE_NUMBER}, Ansprechpartner ist {PERSON}.',
    'Zahlung mit Kreditkarte {CREDIT_CARD} wurde abgelehnt.',
    'Anmeldung von {IP_ADDRESS} für {EMAIL_ADDRESS} fehlgeschlagen.',
    'Sehr geehrte Frau {PERSON}, vielen Dank für Ihre Nachricht.',
  ],
  fr: [
    "Bonjour, c'est {PERSON}. Vous pouvez me joindre au {PHONE_NUMBER} ou à {EMAIL_ADDRESS}.",
    "Merci d'envoyer le colis à {PERSON}, {STREET_ADDRESS}.",
    "Le virement doit être fait sur l'IBAN {IBAN_CODE} au nom de {PERSON}.",
    '{PERSON} habite à {LOCATION} depuis deux ans.',
    "Rappelez {PERSON} au {PHONE_NUMBER}, c'est urgent.",
    'Paiement refusé pour la carte {CREDIT_CARD}.',
    'Connexion depuis {IP_ADDRESS} pour le compte {EMAIL_ADDRESS}.',
  ],
  es: [
    'Hola, soy {PERSON}. Puedes llamarme al {PHONE_NUMBER} o escribir a {EMAIL_ADDRESS}.',
    'Envíe el pedido a {PERSON}, {STREET_ADDRESS}.',
    'La transferencia va a la cuenta {IBAN_CODE} a nombre de {PERSON}.',
    '{PERSON} vive en {LOCATION} desde el año pasado.',
    'Llame a {PERSON} al {PHONE_NUMBER} mañana por la mañana.',
    'Pago rechazado con la tarjeta {CREDIT_CARD}.',
    'Acceso desde {IP_ADDRESS} para {EMAIL_ADDRESS}.',
  ],
  it: [
    'Ciao, sono {PERSON}. Potete chiamarmi al {PHONE_NUMBER} o scrivere a {EMAIL_ADDRESS}.',
    'Spedire il pacco a {PERSON}, {STREET_ADDRESS}.',
    "Il bonifico va sull'IBAN {IBAN_CODE} intestato a {PERSON}.",
    '{PERSON} abita a {LOCATION}.',
  ],
  pt: [
    'Olá, sou {PERSON}. Pode ligar para {PHONE_NUMBER} ou escrever para {EMAIL_ADDRESS}.',
    'Envie a encomenda para {PERSON}, {STREET_ADDRESS}.',
    'A transferência vai para o IBAN {IBAN_CODE} em nome de {PERSON}.',
    '{PERSON} mora em {LOCATION}.',
  ],
  nl: [
    'Hoi, met {PERSON}. Je kunt me bellen op {PHONE_NUMBER} of mailen naar {EMAIL_ADDRESS}.',
    'Stuur het pakket naar {PERSON}, {STREET_ADDRESS}.',
    'Het bedrag gaat naar IBAN {IBAN_CODE} t.n.v. {PERSON}.',
    '{PERSON} woont in {LOCATION}.',
  ],
};

/** Structured carriers: the same values in JSON, logs, CSV, forms, signatures (language-neutral). */
const CARRIERS = [
  '{"customer":{"name":"{PERSON}","email":"{EMAIL_ADDRESS}","phone":"{PHONE_NUMBER}"},"status":"active"}',
  '{"user_id": 48213, "full_name": "{PERSON}", "address": "{STREET_ADDRESS}", "plan": "team"}',
  '2024-06-11T09:14:02Z INFO auth login ok user={EMAIL_ADDRESS} ip={IP_ADDRESS} latency_ms=41',
  '2024-06-11 09:14:02,118 WARN payment declined card={CREDIT_CARD} amount=42.10 currency=EUR',
  'id,name,email,phone\n1042,{PERSON},{EMAIL_ADDRESS},{PHONE_NUMBER}\n',
  'Name: {PERSON}\nAddress: {STREET_ADDRESS}\nPhone: {PHONE_NUMBER}\nE-mail: {EMAIL_ADDRESS}',
  '--\n{PERSON}\nSenior Account Manager\nM: {PHONE_NUMBER}\n{EMAIL_ADDRESS}',
  'applicant:\n  name: {PERSON}\n  ssn: "{US_SSN}"\n  city: {LOCATION}\n',
  '| name | phone |\n|---|---|\n| {PERSON} | {PHONE_NUMBER} |',
  'tool_result: {"matches": [{"holder": "{PERSON}", "iban": "{IBAN_CODE}"}]}',
  "SELECT * FROM users WHERE email = '{EMAIL_ADDRESS}' AND last_ip = '{IP_ADDRESS}';",
  'btc_withdrawal address={CRYPTO} requested_by={EMAIL_ADDRESS}',
];

/** Places in prose and records; `{LOCATION}` is a town or a country, `:town` / `:country` say which. */
const PLACE_TEMPLATES: Record<Lang, string[]> = {
  en: [
    'I grew up in {LOCATION} but moved to {LOCATION} for work.',
    'Flights from {LOCATION:town} to {LOCATION:town} are delayed because of the storm.',
    'The conference takes place in {LOCATION:town} this year; last year it was in {LOCATION:town}.',
    'We have offices in {LOCATION:town}, {LOCATION:town} and {LOCATION:town}.',
    'She is originally from {LOCATION}.',
    'Weather for {LOCATION:town}: light rain, 14°C.',
    'Our warehouse near {LOCATION:town} ships within two days.',
    'Trip itinerary: {LOCATION:town} -> {LOCATION:town} -> {LOCATION:town}',
    'He spent three years working in {LOCATION:country} before returning home.',
    'The driver picked me up in {LOCATION:town} at 7 am.',
  ],
  de: [
    'Ich bin in {LOCATION:town} aufgewachsen und wohne jetzt in {LOCATION:town}.',
    'Der Zug von {LOCATION:town} nach {LOCATION:town} fällt heute aus.',
    'Unsere Standorte: {LOCATION:town}, {LOCATION:town} und {LOCATION:town}.',
    'Sie kommt ursprünglich aus {LOCATION}.',
    'Die Messe findet dieses Jahr in {LOCATION:town} statt.',
  ],
  fr: [
    "J'ai grandi à {LOCATION:town} et je vis maintenant à {LOCATION:town}.",
    'Le vol entre {LOCATION:town} et {LOCATION:town} est annulé.',
    'Nos bureaux : {LOCATION:town}, {LOCATION:town} et {LOCATION:town}.',
    'La réunion aura lieu à {LOCATION:town} le 12 mars.',
  ],
  es: [
    'Crecí en {LOCATION:town} y ahora vivo en {LOCATION:town}.',
    'El vuelo de {LOCATION:town} a {LOCATION:town} sale a las nueve.',
    'Tenemos oficinas en {LOCATION:town}, {LOCATION:town} y {LOCATION:town}.',
    'Ella es de {LOCATION}.',
  ],
  it: [
    'Sono cresciuto a {LOCATION:town} e ora vivo a {LOCATION:town}.',
    'Il treno da {LOCATION:town} a {LOCATION:town} è in ritardo.',
    'Abbiamo sedi a {LOCATION:town}, {LOCATION:town} e {LOCATION:town}.',
  ],
  pt: [
    'Cresci em {LOCATION:town} e agora moro em {LOCATION:town}.',
    'O voo de {LOCATION:town} para {LOCATION:town} foi cancelado.',
    'Temos escritórios em {LOCATION:town}, {LOCATION:town} e {LOCATION:town}.',
  ],
  nl: [
    'Ik ben opgegroeid in {LOCATION:town} en woon nu in {LOCATION:town}.',
    'De trein van {LOCATION:town} naar {LOCATION:town} rijdt vandaag niet.',
    'We hebben kantoren in {LOCATION:town}, {LOCATION:town} en {LOCATION:town}.',
  ],
};

/** Places in structured carriers (language-neutral). */
const PLACE_CARRIERS = [
  '{"city": "{LOCATION:town}", "country": "{LOCATION:country}", "verified": true}',
  'shipping_city={LOCATION:town} shipping_country={LOCATION:country} items=3',
  'City: {LOCATION:town}\nCountry: {LOCATION:country}',
  'name,city,country\n{PERSON},{LOCATION:town},{LOCATION:country}\n',
  '2024-06-11T10:02:11Z WARN login from a new location: {LOCATION:town}, {LOCATION:country} (ip {IP_ADDRESS})',
  'location:\n  city: {LOCATION:town}\n  country: {LOCATION:country}\n',
];

/** Names without a label or honorific before them: subjects, reported speech, lists, sign-offs. */
const PERSON_TEMPLATES: Record<Lang, string[]> = {
  en: [
    '{PERSON} approved the change request this morning.',
    'According to {PERSON}, the shipment left on time.',
    'Assigned to: {PERSON}\nReviewer: {PERSON}',
    'Please add {PERSON} and {PERSON} to the invite.',
    'I spoke with {PERSON} yesterday about the contract.',
    'cc: {PERSON}, {PERSON}',
    'Best regards,\n{PERSON}',
    'The patient, {PERSON}, was admitted on Monday.',
  ],
  de: [
    '{PERSON} hat den Antrag gestern genehmigt.',
    'Laut {PERSON} ist die Lieferung unterwegs.',
    'Mit freundlichen Grüßen\n{PERSON}',
    'Bitte nehmen Sie {PERSON} und {PERSON} in den Verteiler auf.',
  ],
  fr: [
    '{PERSON} a validé la demande ce matin.',
    "Selon {PERSON}, la livraison est partie à l'heure.",
    'Cordialement,\n{PERSON}',
    "J'ai parlé avec {PERSON} hier.",
  ],
  es: ['{PERSON} aprobó la solicitud esta mañana.', 'Según {PERSON}, el envío salió a tiempo.', 'Saludos,\n{PERSON}'],
  it: [
    '{PERSON} ha approvato la richiesta stamattina.',
    'Secondo {PERSON}, la spedizione è partita in orario.',
    'Cordiali saluti,\n{PERSON}',
  ],
  pt: [
    '{PERSON} aprovou o pedido hoje de manhã.',
    'Segundo {PERSON}, a encomenda saiu a tempo.',
    'Atenciosamente,\n{PERSON}',
  ],
  nl: [
    '{PERSON} heeft het verzoek vanochtend goedgekeurd.',
    'Volgens {PERSON} is de zending op tijd vertrokken.',
    'Met vriendelijke groet,\n{PERSON}',
  ],
};

const PERSON_CARRIERS = [
  '{"assignee": "{PERSON}", "status": "open", "priority": 2}',
  'Author: {PERSON} <{EMAIL_ADDRESS}>\nDate: Tue Jun 11 09:14:02 2024',
  '{"reviewers": ["{PERSON}", "{PERSON}"], "approved": false}',
  '| owner | {PERSON} |\n| backup | {PERSON} |',
];

/** National-format phone numbers (no country code) next to a town or country of their region. */
const PHONE_PLACE_TEMPLATES = [
  'Our {LOCATION:country} office: {PHONE_NUMBER:national}',
  '{LOCATION:town} branch, tel. {PHONE_NUMBER:national}',
  "I'm in {LOCATION:town} this week, call me at {PHONE_NUMBER:national}.",
  'Unser Büro in {LOCATION:town}: {PHONE_NUMBER:national}',
  'Notre agence de {LOCATION:town} : {PHONE_NUMBER:national}',
  'Oficina de {LOCATION:town}: {PHONE_NUMBER:national}',
  '{"country": "{LOCATION:country}", "phone": "{PHONE_NUMBER:national}"}',
  'Hotel in {LOCATION:town}, reception {PHONE_NUMBER:national}',
];

/** Wallet addresses; `{CRYPTO:eth}` an Ethereum one (the others Bitcoin, legacy or segwit). */
const CRYPTO_TEMPLATES = [
  'BTC address: {CRYPTO}',
  'Please deposit to {CRYPTO} (bitcoin), then send me the txid.',
  '{"asset": "BTC", "address": "{CRYPTO}", "amount": "0.015"}',
  'ETH wallet: {CRYPTO:eth}',
  'Spende bitte an {CRYPTO}, danke!',
  'Adresse du portefeuille : {CRYPTO}',
  'payout_address={CRYPTO} network=bitcoin status=pending',
  'Send USDT (ERC-20) to {CRYPTO:eth} only.',
];

/** More carriers for the structured types, so that each has several template groups in both splits. */
const STRUCTURED_TEMPLATES = [
  'Card on file: {CREDIT_CARD} (exp 09/27)',
  '{"payment_method": {"type": "card", "number": "{CREDIT_CARD}"}}',
  'Bitte buchen Sie den Betrag von meiner Karte {CREDIT_CARD} ab.',
  'charge failed for pan={CREDIT_CARD} reason=insufficient_funds',
  'IBAN: {IBAN_CODE}\nBIC: DEUTDEFFXXX',
  'Veuillez virer le solde sur {IBAN_CODE}.',
  '{"payout": {"iban": "{IBAN_CODE}", "holder": "{PERSON}"}}',
  'Refund to account {IBAN_CODE} approved by finance.',
  'Blocked {IP_ADDRESS} after 20 failed logins.',
  '{"client_ip": "{IP_ADDRESS}", "method": "POST", "path": "/login"}',
  'ssh admin@{IP_ADDRESS} -p 2222',
  'Die Anfrage kam von {IP_ADDRESS} um 03:12 Uhr.',
  'Reply to {EMAIL_ADDRESS} with the signed form.',
  'From: {PERSON} <{EMAIL_ADDRESS}>\nSubject: invoice',
  'Escríbeme a {EMAIL_ADDRESS} cuando puedas.',
  'unsubscribe request: {EMAIL_ADDRESS}',
  // (added later: more card and IBAN groups, so that the untouched part has more than a handful of cards)
  'Visa {CREDIT_CARD}, CVV on the back, expires next spring.',
  'Kreditkartennummer: {CREDIT_CARD}',
  'Numéro de carte : {CREDIT_CARD}',
  'Número de tarjeta {CREDIT_CARD} (titular {PERSON})',
  'card_number={CREDIT_CARD}&exp=0927',
  '{"card": {"brand": "mastercard", "pan": "{CREDIT_CARD}", "holder": "{PERSON}"}}',
  'Please update my card to {CREDIT_CARD} before the next invoice.',
  '2024-06-11 ERROR checkout failed, card {CREDIT_CARD} declined (do_not_honor)',
  'Kontoinhaber {PERSON}, IBAN {IBAN_CODE}, BIC COBADEFFXXX',
  'iban={IBAN_CODE} bic=BNPAFRPP amount=120.00',
  'Conto corrente: {IBAN_CODE}',
  'Rekeningnummer {IBAN_CODE} t.n.v. {PERSON}',
  '| card | {CREDIT_CARD} |\n| status | refunded |',
  'payment:\n  method: card\n  number: "{CREDIT_CARD}"\n',
  'Hi, I was charged twice on {CREDIT_CARD}, can you check?',
  'Carta di credito {CREDIT_CARD} scaduta.',
  'Cartão {CREDIT_CARD} recusado pelo banco.',
  "INSERT INTO payments (pan, amount) VALUES ('{CREDIT_CARD}', 19.99);",
  'tool_result: {"customer": "{PERSON}", "card_on_file": "{CREDIT_CARD}"}',
  'Betaalkaart {CREDIT_CARD} is geblokkeerd.',
];

/** Street addresses of each language's manner: `{STREET_ADDRESS:street}` is fakerator's, the other Faker's. */
const ADDRESS_TEMPLATES: Record<Lang, string[]> = {
  en: [
    'Deliver to {STREET_ADDRESS:street}, {LOCATION:town}.',
    'My address is {STREET_ADDRESS} — please update your records.',
    'Return address: {STREET_ADDRESS:street}',
  ],
  de: ['Lieferadresse: {STREET_ADDRESS:street}, {LOCATION:town}', 'Ich wohne jetzt in der {STREET_ADDRESS:street}.'],
  fr: ['Adresse de livraison : {STREET_ADDRESS:street}', 'Nous avons déménagé au {STREET_ADDRESS:street}.'],
  es: ['Dirección de envío: {STREET_ADDRESS:street}', 'Vivo en {STREET_ADDRESS:street}, {LOCATION:town}.'],
  it: ['Indirizzo di consegna: {STREET_ADDRESS:street}'],
  pt: ['Endereço de entrega: {STREET_ADDRESS:street}'],
  nl: ['Afleveradres: {STREET_ADDRESS:street}'],
};

const ADDRESS_CARRIERS = [
  '{"shipping_address": {"line1": "{STREET_ADDRESS:street}", "city": "{LOCATION:town}"}}',
  'address_line_1={STREET_ADDRESS} city={LOCATION:town}',
];

/** Texts that hold look-alikes only: ids, versions, hashes, timestamps, amounts, capitalised non-names. */
const NEGATIVES = [
  'Build 2024.06.11-4821 finished in 312 s; 1,204 tests passed, 3 skipped.',
  'Order #{N10} shipped on 2024-05-03; tracking {N12}.',
  'Version 10.4.2 fixes CVE-2024-3094 in xz-utils 5.6.1.',
  'commit {HEX40} merged into main by the release bot',
  'The invoice total is 1,299.00 EUR, due on 30.06.2024.',
  'Kubernetes Cluster Autoscaler scaled the Node Pool from 3 to 5 nodes.',
  'Project Apollo Quarterly Review: Revenue Growth and Customer Retention.',
  'request_id={UUID} status=200 bytes=5123 duration=0.042',
  'The Great Barrier Reef Marine Park Authority Annual Report',
  'Error 0x80070005 at offset 0x0040A3F2 in module kernel32.dll',
  "Sprint 42 retrospective: What Went Well, What Didn't, Action Items.",
  'Temperature readings: 21.4, 21.9, 22.3, 22.8 (sensor 17, rack B4).',
  'Use pip install numpy==1.26.4 scipy==1.13.0 and restart the kernel.',
  'ISBN 978-3-16-148410-0, 2nd edition, 412 pages.',
  'Flight LH 2034 departs at 14:35 from gate B42, seat 17C.',
  'Card ending 4821 was used; full number withheld.',
  'Ticket JIRA-{N4} blocked by JIRA-{N4}; see the Release Notes.',
  'The Merkle root 3f9a… covers leaves 0 to {N6}.',
  'Model gpt-4o-2024-08-06 answered in 812 ms with 1,024 tokens.',
  'Shipment weight 12.500 kg, dimensions 40 x 30 x 20 cm, pallet 000{N6}.',
  'Invoice 48{N7} was paid by bank transfer on 2024-04-02.',
  'Part no. {N3}-{N2}-{N4} (replacement filter, pack of 2).',
  'Release Notes for Version 4.2: New Dashboard, Faster Search and Better Export.',
  'Click Save Changes, then Restart Now to apply the update.',
  'Monday Standup Notes - Action Items: Review Pull Request, Update Docs.',
  'Winter Sale: Up To 50% Off All Jackets And Boots.',
  'Meet the Team: Engineering, Design, Sales and Customer Success.',
  'Chapter Seven: The Long Road Home',
];

const SSN_SPELLINGS = [
  (a: string, g: string, s: string) => `${a}-${g}-${s}`,
  (a: string, g: string, s: string) => `${a} ${g} ${s}`,
  (a: string, g: string, s: string) => `${a}${g}${s}`,
  (a: string, g: string, s: string) => `${a}.${g}.${s}`,
  (a: string, g: string, s: string) => `${a} - ${g} - ${s}`,
  // an en dash, as word processors turn hyphens into
  (a: string, g: string, s: string) => `${a}\u2013${g}\u2013${s}`,
];

const SSN_CONTEXTS = [
  'SSN',
  'SSN:',
  'SSN#',
  'ssn',
  'social security number',
  'Social Security No.',
  'SS#',
  'soc. sec. #',
  'social',
  'Social Security #',
  'SSN no.',
  'soc sec no',
  'SS No.',
  'social security no',
];

function ssn(r: Rand): [string, string, string] {
  let area: number;
  do area = int(r, 1, 899);
  while (area === 666);
  const g = int(r, 1, 99);
  const s = int(r, 1, 9999);
  return [String(area).padStart(3, '0'), String(g).padStart(2, '0'), String(s).padStart(4, '0')];
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let s = '';
  while (n > 0n) {
    s = B58[Number(n % 58n)] + s;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    s = '1' + s;
  }
  return s;
}

/** A Bitcoin P2PKH or P2SH address with a valid Base58Check checksum. */
function btcAddress(r: Rand): string {
  const payload = new Uint8Array(21);
  payload[0] = r() < 0.7 ? 0x00 : 0x05;
  for (let i = 1; i < 21; i++) payload[i] = Math.floor(r() * 256);
  const sum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest();
  const full = new Uint8Array(25);
  full.set(payload);
  full.set(sum.subarray(0, 4), 21);
  return base58(full);
}

// bech32 (BIP-173, written from the specification): a segwit v0 address of a 20- or 32-byte program
const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bech32Polymod(values: readonly number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const b = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((b >>> i) & 1) chk ^= gen[i]!;
  }
  return chk >>> 0;
}

function bech32Address(r: Rand): string {
  const program = Array.from({ length: r() < 0.7 ? 20 : 32 }, () => Math.floor(r() * 256));
  const data = [0];
  let acc = 0;
  let bits = 0;
  for (const b of program) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      data.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) data.push((acc << (5 - bits)) & 31);
  const hrp = 'bc';
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >>> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const mod = bech32Polymod([...expanded, ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return hrp + '1' + [...data, ...checksum].map((d) => BECH32_ALPHABET[d]).join('');
}

/** An Ethereum address (0x and 40 hex digits, lower case or EIP-55-looking mixed case). */
function ethAddress(r: Rand): string {
  let h = '';
  for (let i = 0; i < 40; i++) {
    const c = '0123456789abcdef'[Math.floor(r() * 16)]!;
    h += r() < 0.3 ? c.toUpperCase() : c;
  }
  return '0x' + h;
}

function luhnOk(d: string): boolean {
  let s = 0;
  for (let i = 0; i < d.length; i++) {
    let x = Number(d[d.length - 1 - i]);
    if (i % 2 === 1) {
      x *= 2;
      if (x > 9) x -= 9;
    }
    s += x;
  }
  return s % 10 === 0;
}

function card(f: Faker, r: Rand): string {
  for (;;) {
    const digits = f.finance
      .creditCardNumber({ issuer: pick(r, ['visa', 'mastercard', 'amex', 'discover']) })
      .replace(/\D/g, '');
    if (!luhnOk(digits) || digits.length < 15) continue;
    const sep = pick(r, [' ', '-', '']);
    if (sep === '' || digits.length !== 16)
      return sep === '' ? digits : digits.replace(/^(\d{4})(\d{6})(\d{5})$/, `$1${sep}$2${sep}$3`);
    return digits.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
  }
}

const REGIONS = getCountries();

/** A valid mobile number of `region`: its example number with the last digits varied (kept only when valid). */
function phoneOf(region: CountryCode, r: Rand, format?: 'national'): string | undefined {
  const ex = getExampleNumber(region, examples);
  if (!ex) return undefined;
  const nat = ex.nationalNumber as string;
  for (let tries = 0; tries < 20; tries++) {
    const k = Math.min(4, nat.length - 2);
    let tail = '';
    for (let i = 0; i < k; i++) tail += String(Math.floor(r() * 10));
    const cand = parsePhoneNumberFromString(nat.slice(0, nat.length - k) + tail, region);
    if (!cand || !cand.isValid()) continue;
    const fmt = format === 'national' ? 0 : r();
    if (fmt < 0.4) return cand.formatNational();
    if (fmt < 0.8) return cand.formatInternational();
    return cand.number as string;
  }
  return ex.formatInternational();
}

const LANG_OF_REGION: Partial<Record<string, Lang>> = {
  DE: 'de',
  AT: 'de',
  CH: 'de',
  FR: 'fr',
  BE: 'fr',
  LU: 'fr',
  ES: 'es',
  MX: 'es',
  AR: 'es',
  CO: 'es',
  CL: 'es',
  PE: 'es',
  IT: 'it',
  PT: 'pt',
  BR: 'pt',
  NL: 'nl',
};

function fakerFor(locale: string): Faker {
  const loc = (allLocales as Record<string, LocaleDefinition>)[locale]!;
  return new Faker({ locale: [loc, allLocales.en, base] });
}

function langOfLocale(locale: string): Lang {
  const p = locale.slice(0, 2);
  return (['de', 'fr', 'es', 'it', 'pt', 'nl'].includes(p) ? p : 'en') as Lang;
}

function digitsOf(r: Rand, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(Math.floor(r() * 10));
  return s;
}

/** The sources of a case's names and places, for its provenance. */
class Sources {
  private readonly ids = new Set<string>();
  private readonly lics = new Set<string>();
  use(v: Sourced): Filled {
    this.ids.add(v.source);
    this.lics.add(v.licence);
    return { text: v.text };
  }
  describe(): string {
    return this.ids.size ? `; names/places: ${[...this.ids].join(', ')}` : '';
  }
  licences(): string {
    return this.lics.size ? `; ${[...this.lics].join('; ')}` : '';
  }
}

/** The country of a Faker locale ("de_AT" → AT), for towns after its postcodes. */
function localeCountry(locale: string): string | undefined {
  const [lang, cc] = locale.split('_');
  if (cc && /^[A-Z]{2}$/.test(cc)) return cc;
  return (
    {
      de: 'DE',
      fr: 'FR',
      es: 'ES',
      it: 'IT',
      nl: 'NL',
      pt: 'PT',
      pl: 'PL',
      ru: 'RU',
      sv: 'SE',
      cs: 'CZ',
      da: 'DK',
      fi: 'FI',
      nb: 'NO',
      tr: 'TR',
      ja: 'JP',
      ko: 'KR',
      el: 'GR',
      he: 'IL',
      hu: 'HU',
      ro: 'RO',
      sk: 'SK',
      uk: 'UA',
      vi: 'VN',
      th: 'TH',
      lv: 'LV',
      hr: 'HR',
      id: 'ID',
    } as Record<string, string>
  )[lang ?? ''];
}

/** The value of a placeholder: `{TYPE}` or `{TYPE:key}` (keys: town, country, national, eth). */
function valueOf(
  f: Faker,
  r: Rand,
  lang: string,
  region: CountryCode,
  country: string | undefined,
  used: Sources,
): (type: string, key: string) => Filled {
  return (type, key) => {
    switch (type) {
      case 'PERSON':
        return used.use(personName(r, lang));
      case 'EMAIL_ADDRESS':
        return { text: f.internet.email() };
      case 'PHONE_NUMBER':
        return { text: phoneOf(region, r, key === 'national' ? 'national' : undefined) ?? '+1 415 555 0100' };
      case 'CREDIT_CARD':
        return { text: card(f, r) };
      case 'IBAN_CODE':
        return { text: r() < 0.5 ? f.finance.iban({ formatted: true }) : f.finance.iban() };
      case 'US_SSN': {
        const [a, g, s] = ssn(r);
        return { text: pick(r, SSN_SPELLINGS.slice(0, 2))(a, g, s) };
      }
      case 'IP_ADDRESS':
        return { text: r() < 0.7 ? f.internet.ipv4() : f.internet.ipv6() };
      case 'CRYPTO':
        return { text: key === 'eth' ? ethAddress(r) : r() < 0.6 ? btcAddress(r) : bech32Address(r) };
      case 'STREET_ADDRESS': {
        if (key === 'street') return used.use(street(lang));
        // the shared corpus's convention: a town after the street and postcode is a LOCATION of its own
        if (r() < 0.5) return { text: f.location.streetAddress() };
        const t = used.use(town(r, country));
        return {
          text: '',
          parts: [
            { text: f.location.streetAddress(), label: 'STREET_ADDRESS' },
            { text: `, ${f.location.zipCode()} `, label: false as const },
            { text: t.text, label: 'LOCATION' },
          ],
        };
      }
      case 'LOCATION': {
        if (key === 'town') return used.use(town(r, country));
        if (key === 'country') return used.use(countryName(r, lang, country) ?? countryName(r, 'en', 'FR')!);
        return used.use(place(r, lang));
      }
      default:
        throw new Error(type);
    }
  };
}

export function piiCases(seed = 13): SpanCase[] {
  const out: SpanCase[] = [];
  const r = rng(seed);
  const locales = Object.keys(allLocales).filter(
    (l) => l !== 'base' && l !== 'en_BORK' && l !== 'en_AU_ocker' && l !== 'eo',
  );
  // 1. every Faker locale × templates of its language and the carriers
  for (const locale of locales) {
    const f = fakerFor(locale);
    f.seed(int(r, 1, 1e9));
    const lang = langOfLocale(locale);
    const templates = [
      ...TEMPLATES[lang].map((t, i) => ({ t, id: `${lang}-${i}` })),
      ...CARRIERS.map((t, i) => ({ t, id: `carrier-${i}` })),
    ];
    for (let k = 0; k < 6; k++) {
      const { t, id } = pick(r, templates);
      const region = pick(r, REGIONS);
      const used = new Sources();
      const { text, entities } = fill(t, valueOf(f, r, lang, region, localeCountry(locale), used));
      out.push({
        id: `pii-faker-${locale}-${k}`,
        text,
        entities,
        checked_types: CHECKED,
        lang,
        source: `generated: template ${id}, Faker locale ${locale}, phone region ${region}${used.describe()}`,
        licence: `${FAKER_LICENCE}; ${PHONE_LICENCE}; ${OWN}${used.licences()}`,
        split: splitOf(`pii-${id}`),
      });
    }
  }
  // 2. phones of every region, in the region's language where we have templates, with no country named
  const phoneTemplates: Record<Lang, string[]> = {
    en: [
      'Call me on {PHONE_NUMBER} after six.',
      'my number is {PHONE_NUMBER}',
      'Contact: {PHONE_NUMBER}',
      'Reach the front desk at {PHONE_NUMBER}.',
    ],
    de: ['Rufen Sie mich unter {PHONE_NUMBER} an.', 'Meine Nummer: {PHONE_NUMBER}', 'Tel. {PHONE_NUMBER}'],
    fr: ['Appelez-moi au {PHONE_NUMBER}.', 'Mon numéro : {PHONE_NUMBER}', 'Tél : {PHONE_NUMBER}'],
    es: ['Llámame al {PHONE_NUMBER}.', 'Mi número es {PHONE_NUMBER}', 'Tel.: {PHONE_NUMBER}'],
    it: ['Chiamami al {PHONE_NUMBER}.', 'Il mio numero è {PHONE_NUMBER}'],
    pt: ['Liga-me para o {PHONE_NUMBER}.', 'O meu número é {PHONE_NUMBER}'],
    nl: ['Bel me op {PHONE_NUMBER}.', 'Mijn nummer is {PHONE_NUMBER}'],
  };
  for (const region of REGIONS) {
    const lang = LANG_OF_REGION[region] ?? 'en';
    for (let k = 0; k < 3; k++) {
      const ti = int(r, 0, phoneTemplates[lang].length - 1);
      const p = phoneOf(region, r);
      if (!p) continue;
      const { text, entities } = fill(phoneTemplates[lang][ti]!, () => ({ text: p }));
      out.push({
        id: `pii-phone-${region}-${k}`,
        text,
        entities,
        checked_types: CHECKED,
        lang,
        source: `generated: libphonenumber example number of ${region}, varied`,
        licence: `${PHONE_LICENCE}; ${OWN}`,
        split: splitOf(`phone-${lang}-${ti}`),
      });
    }
  }
  // 3. SSN spellings with context words
  for (let k = 0; k < 240; k++) {
    const [a, g, s] = ssn(r);
    const si = int(r, 0, SSN_SPELLINGS.length - 1);
    const ci = int(r, 0, SSN_CONTEXTS.length - 1);
    const v = SSN_SPELLINGS[si]!(a, g, s);
    const tmpl = pick(r, [
      '{CTX} {V}',
      '{CTX}: {V}',
      'Applicant {CTX} {V} on file.',
      'my {CTX} is {V}',
      '{"{CTX}": "{V}"}',
    ]);
    const ctx = SSN_CONTEXTS[ci]!;
    const t = tmpl.replace('{CTX}', ctx);
    const i = t.indexOf('{V}');
    const text = t.slice(0, i) + v + t.slice(i + 3);
    out.push({
      id: `pii-ssn-${k}`,
      text,
      entities: [{ type: 'US_SSN', start: i, end: i + v.length, value: v }],
      checked_types: CHECKED,
      lang: 'en',
      source: `generated: SSN spelling ${si}, context '${ctx}'`,
      licence: OWN,
      split: splitOf(`ssn-${si}-${ci}`),
    });
  }
  // 4. negatives (look-alikes)
  for (let k = 0; k < NEGATIVES.length * 6; k++) {
    const ni = k % NEGATIVES.length;
    const text = NEGATIVES[ni]!.replace(/\{N(\d+)\}/g, (_, n: string) => digitsOf(r, Number(n)))
      .replace('{HEX40}', createHash('sha1').update(String(k)).digest('hex'))
      .replace(
        '{UUID}',
        createHash('md5')
          .update(String(k))
          .digest('hex')
          .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
      );
    out.push({
      id: `pii-neg-${k}`,
      text,
      entities: [],
      checked_types: CHECKED,
      lang: 'en',
      source: `generated: negative template ${ni}`,
      licence: OWN,
      split: splitOf(`neg-${ni}`),
    });
  }
  // 5-9 draw from their own seed, so that adding them left the cases of 1-4 as they were
  const r2 = rng(seed * 7919 + 1);
  const f2 = fakerFor('en');
  f2.seed(int(r2, 1, 1e9));
  const push = (
    group: string,
    id: string,
    template: string,
    lang: Lang,
    region: CountryCode,
    country: string | undefined,
  ) => {
    const used = new Sources();
    const { text, entities } = fill(template, valueOf(f2, r2, lang, region, country, used));
    out.push({
      id: `pii-${id}`,
      text,
      entities,
      checked_types: CHECKED,
      lang,
      source: `generated: template ${group}${used.describe()}`,
      licence: `${FAKER_LICENCE}; ${PHONE_LICENCE}; ${OWN}${used.licences()}`,
      split: splitOf(group),
    });
  };
  const byLang = (templates: Record<Lang, string[]>, carriers: string[], prefix: string) => [
    ...Object.entries(templates).flatMap(([lang, ts]) =>
      ts.map((t, i) => ({ t, lang: lang as Lang, group: `${prefix}-${lang}-${i}` })),
    ),
    ...carriers.map((t, i) => ({ t, lang: 'en' as Lang, group: `${prefix}-carrier-${i}` })),
  ];
  // 5. places: towns (GeoNames) and countries (CLDR) in prose and records, 12 cases per template
  for (const { t, lang, group } of byLang(PLACE_TEMPLATES, PLACE_CARRIERS, 'place')) {
    for (let k = 0; k < 12; k++) push(group, `${group}-${k}`, t, lang, pick(r2, REGIONS), undefined);
  }
  // 6. names without cues (fakerator and chance names), 12 cases per template
  for (const { t, lang, group } of byLang(PERSON_TEMPLATES, PERSON_CARRIERS, 'person')) {
    for (let k = 0; k < 12; k++) push(group, `${group}-${k}`, t, lang, pick(r2, REGIONS), undefined);
  }
  // 7. national-format phone numbers next to a place of their region (the context that says which country)
  for (const [i, t] of PHONE_PLACE_TEMPLATES.entries()) {
    for (let k = 0; k < 24; k++) {
      const region = pick(r2, REGIONS);
      push(`phone-place-${i}`, `phone-place-${i}-${k}-${region}`, t, 'en', region, region);
    }
  }
  // 8. the structured types, and street addresses with a town of the language's country
  for (const [i, t] of STRUCTURED_TEMPLATES.entries())
    for (let k = 0; k < 12; k++) push(`structured-${i}`, `structured-${i}-${k}`, t, 'en', pick(r2, REGIONS), undefined);
  for (const { t, lang, group } of byLang(ADDRESS_TEMPLATES, ADDRESS_CARRIERS, 'address')) {
    for (let k = 0; k < 12; k++)
      push(group, `${group}-${k}`, t, lang, pick(r2, REGIONS), localeCountry(lang === 'en' ? 'en_US' : lang));
  }
  // 9. wallet addresses
  for (const [i, t] of CRYPTO_TEMPLATES.entries())
    for (let k = 0; k < 10; k++) push(`crypto-${i}`, `crypto-${i}-${k}`, t, 'en', 'US', undefined);
  // 10. more carriers of places (places.ts), from their own seed so that 1-9 stay as they were: towns
  // anywhere and towns of the language's countries, a postcode of that country before a town
  const r3 = rng(seed * 104729 + 3);
  const fakers = new Map<string, Faker>();
  const fakerOf = (locale: string) => {
    let f = fakers.get(locale);
    if (!f) {
      f = fakerFor(locale);
      f.seed(int(r3, 1, 1e9));
      fakers.set(locale, f);
    }
    return f;
  };
  const placeCarriers = [
    ...Object.entries(PLACE_CARRIER_TEMPLATES).flatMap(([lang, ts]) =>
      ts.map((t, i) => ({ t, lang: lang as Lang, group: `placecarrier-${lang}-${i}` })),
    ),
    ...PLACE_NEGATIVES.map((t, i) => ({ t, lang: 'en' as Lang, group: `placecarrier-neg-${i}` })),
  ];
  for (const { t, lang, group } of placeCarriers) {
    for (let k = 0; k < 10; k++) {
      const [cc, locale] = pick(r3, LOCAL_COUNTRIES[lang]);
      const f = fakerOf(locale);
      const used = new Sources();
      const base = valueOf(f, r3, lang, pick(r3, REGIONS), undefined, used);
      const { text, entities } = fill(t, (type, key) => {
        if (type === 'POSTCODE') return { text: f.location.zipCode(), label: false };
        if (type === 'LOCATION' && key === 'local') return used.use(town(r3, cc));
        if (type === 'LOCATION' && key === 'hashtag') {
          const v = town(r3);
          return used.use({ ...v, text: v.text.replace(/[\s'’-]+/gu, '') });
        }
        return base(type, key);
      });
      out.push({
        id: `pii-${group}-${k}`,
        text,
        entities,
        checked_types: CHECKED,
        lang,
        source: `generated: template ${group}, local country ${cc}${used.describe()}`,
        licence: `${FAKER_LICENCE}; ${OWN}${used.licences()}`,
        split: splitOf(group),
      });
    }
  }
  return out;
}
