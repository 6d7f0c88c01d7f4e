// Places named after the noun of what is there: a station, an airport, a depot, a town hall or an
// administrative unit, in the seven languages ("Hauptbahnhof Schnifis", "im Paketzentrum Ebenthal",
// "aeropuerto de Santa Rita", "la città di Chivasso", "the town of Bega", "gemeente Utrecht"). The noun
// says what the next capitalised name is, as a place preposition does, whatever the town: a first name
// ("estación de Victoria") counts. German writes the noun as a compound's last part ("Paketzentrum",
// "Verteilzentrum", "Hauptbahnhof"): those tails count inside a word, the other heads only as words.
//
// The candidate scan finds the heads by their last two code units before a space and a capital (like the
// place cues, names/literals.ts); each candidate reads one bounded name after it.

import * as namesCharClasses from '../char-classes.ts';
import * as namesPlaceCues from './cues.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { letterAt } = namesCharClasses;
const { followedByLocator, nameLooksLikePlace } = namesPlaceCues;

/** Heads that end a German compound as often as they stand alone ("Paketzentrum", "Hauptbahnhof", "Landkreis"). */
export const COMPOUND_HEADS = [
  'bahnhof',
  'hbf',
  'flughafen',
  'zentrum',
  'lager',
  'filiale',
  'zweigstelle',
  'niederlassung',
  'gemeinde',
  'kreis',
  'bezirk',
  'kanton',
  'bundesland',
  'stadtteil',
  'ortsteil',
  'großraum',
  'grossraum',
  'raum',
  'messe',
  'gericht',
  'rathaus',
];

/** Heads that are words of their own, then the name (apposition) or a genitive preposition and the name. */
export const WORD_HEADS = [
  // en
  'town of',
  'village of',
  'port of',
  'province of',
  'region of',
  'county of',
  'district of',
  'municipality of',
  'outskirts of',
  'suburbs of',
  'outside of',
  'population of',
  'heart of',
  'centre of',
  'center of',
  // de (apposition; "Stadt Wien", "Region Hannover")
  'stadt',
  'region',
  'standort',
  // fr
  'ville de',
  'gare de',
  'aéroport de',
  'région de',
  'agence de',
  'mairie de',
  'commune de',
  'département de',
  'port de',
  'banlieue de',
  'environs de',
  'près de',
  'centre de tri de',
  // es
  'ciudad de',
  'aeropuerto de',
  'estación de',
  'provincia de',
  'municipio de',
  'sucursal de',
  'puerto de',
  'afueras de',
  'cerca de',
  'región de',
  'pueblo de',
  'localidad de',
  // it
  'città di',
  'comune di',
  'provincia di',
  'stazione di',
  'aeroporto di',
  'regione di',
  'porto di',
  'sede di',
  'filiale di',
  'ufficio di',
  'zona di',
  'periferia di',
  'pressi di',
  'vicino a',
  'paese di',
  'frazione di',
  // pt
  'cidade de',
  'aeroporto de',
  'estação de',
  'município de',
  'região de',
  'perto de',
  'porto de',
  'filial de',
  'bairro de',
  'arredores de',
  // nl
  'gemeente',
  'station',
  'luchthaven',
  'provincie',
  'buurt van',
  'omgeving van',
  'regio',
  'kantoor',
  'vestiging',
  // es, pt (apposition: "Sucursal Centro" is no town, but "Sucursal Puerto Quijarro:" is)
  'sucursal',
  'filial',
];

const COMPOUND_SET = new Set(COMPOUND_HEADS);
/** German nouns: capitalised ("Stadt Wien"; "stadt" inside a sentence is no head). */
const CAPITALISED = new Set([...COMPOUND_HEADS, 'stadt', 'region', 'standort']);
/** Dutch nouns: lower case before the name ("station Utrecht", "gemeente Ede"; "Weather Station Data" is no head). */
const LOWER_CASE = new Set([
  'heart of',
  'centre of',
  'center of',
  'gemeente',
  'station',
  'luchthaven',
  'provincie',
  'regio',
  'kantoor',
  'vestiging',
]);

/** Heads of an office, which a person's name follows too ("l'ufficio di Marco Rossi"): a place there gives way to a person found by name. */
const OFFICE_HEADS = new Set([
  'filiale',
  'zweigstelle',
  'niederlassung',
  'standort',
  'agence de',
  'sucursal de',
  'sede di',
  'filiale di',
  'ufficio di',
  'filial de',
  'kantoor',
  'vestiging',
  'sucursal',
  'filial',
]);

/** The score of a place after the head `w`: a town hall, a station or a town's noun outranks a person read from the name alone. */
export function headScore(w: string): number {
  return OFFICE_HEADS.has(w) ? 0.6 : 0.7;
}

/** All heads, for the candidate scan's literal table. */
export const PLACE_HEADS = [...COMPOUND_HEADS, ...WORD_HEADS];

/** Is the head `w` that ends at `end` (before a space) a head there: a word of its own, or a compound's tail, in the case its language writes it? */
export function headAt(text: string, w: string, end: number): boolean {
  const s = end - w.length;
  let ws = s;
  while (ws > 0 && s - ws < 24 && letterAt(text, ws - 1)) ws--;
  if (ws > 0 && letterAt(text, ws - 1)) return false;
  if (ws < s && !COMPOUND_SET.has(w)) return false;
  const c = text.charCodeAt(ws);
  const upper = c >= 65 && c <= 90;
  if (CAPITALISED.has(w)) return upper;
  // (at a line's start a Dutch noun is capitalised too: "Kantoor Tianfu: open …")
  if (LOWER_CASE.has(w)) return !upper || ws === 0 || text.charCodeAt(ws - 1) === 10;
  return true;
}

const NAME_AFTER_HEAD_AT =
  /[ \t]((?:[\p{Lu}][\p{L}\p{M}'’-]{1,30})(?:[ \t](?:(?:de|la|del|di|du|le|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al|ob|bei)[ \t])?[\p{Lu}][\p{L}\p{M}'’-]{1,30}){0,3})(?![\p{L}\p{N}])/uy;

/** The place after the head that ends at the space `sp`: [start, end), or undefined. */
export function placeAfterHead(text: string, sp: number): [number, number] | undefined {
  NAME_AFTER_HEAD_AT.lastIndex = sp;
  const m = NAME_AFTER_HEAD_AT.exec(text);
  if (!m) return undefined;
  const v = m[1]!;
  const s = sp + 1 + m[0].length - 1 - v.length;
  const e = s + v.length;
  // "Station B", "Gate 12": a locator inside a site, not a town
  if (followedByLocator(text, e) || !nameLooksLikePlace(v, true)) return undefined;
  return [s, e];
}

const LEADING_HEAD =
  /^(?:[\p{L}]*(?:bahnhof|flughafen|zentrum|hbf)|Gare de|Aéroport de|Aeropuerto de|Estación de|Stazione di|Aeroporto d[ie]|Estação de|Station|Luchthaven|Airport)[ \t]+(?=[\p{Lu}])/u;

/** The length of a head that opens a field's value ("Hauptbahnhof Schnifis", "Gare de Lyon-Perrache"), or 0. */
export function leadingHead(v: string): number {
  const m = LEADING_HEAD.exec(v);
  return m ? m[0].length : 0;
}
