// Places said in passing: in parentheses after a noun of what is somewhere ("our warehouses (Creutzwald,
// Vyborg)", "the conference (Hvar, 3-5 June)", "unser Lieferant (Graz)", "nuestro proveedor (Tandil)"),
// before "-based" ("a Nenagh-based startup"), and as the capitalised hashtag among a post's lower-case ones. The noun says the parenthesis holds where it is; the names in
// it are read up to the first that is no place's name (a date, a number, a lower-case word).
//
// Bounded: at most 64 parentheses, 64 "-based" and 64 "#" per text, each read over at most 4 names of 5 words.

import * as namesCharClasses from '../char-classes.ts';
import * as namesPlaceCues from './cues.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { letterAt, upperAt } = namesCharClasses;
const { nameLooksLikePlace } = namesPlaceCues;

/** Nouns of things that are somewhere, in the seven languages (singular and plural), lower case. */
const SITED_NOUNS = new Set(
  (
    'office offices warehouse warehouses branch branches site sites plant plants factory factories store stores venue conference meeting event hotel airport station supplier suppliers partner partners customer client headquarters campus subsidiary depot hub ' +
    'büro büros lager filiale filialen standort standorte werk werke niederlassung niederlassungen lieferant lieferanten kunde kunden partner tochter konferenz tagung hotel ' +
    'bureau bureaux entrepôt entrepôts agence agences usine usines fournisseur fournisseurs client clients partenaire partenaires siège filiale conférence hôtel ' +
    'oficina oficinas almacén almacenes sucursal sucursales planta plantas proveedor proveedores cliente clientes socio socios sede sedes filial conferencia ' +
    'ufficio uffici magazzino magazzini filiali stabilimento stabilimenti fornitore fornitori partner conferenza albergo ' +
    'escritório escritórios armazém armazéns filiais fábrica fábricas fornecedor fornecedores parceiro parceiros conferência ' +
    'kantoor kantoren magazijn magazijnen vestiging vestigingen fabriek fabrieken leverancier leveranciers klant klanten conferentie'
  ).split(' '),
);

const NAME_AT =
  /((?:[\p{Lu}][\p{L}\p{M}'’-]{1,30})(?:[ \t](?:(?:de|la|del|di|du|le|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al)[ \t]){0,2}[\p{Lu}][\p{L}\p{M}'’-]{1,30}){0,4})(?![\p{L}\p{N}])/uy;

/** The places in parentheses after a noun of what is somewhere: [start, end) pairs. */
export function placesInParentheses(text: string): number[] {
  const out: number[] = [];
  for (let p = text.indexOf('('), k = 0; p > 1 && k < 64; p = text.indexOf('(', p + 1), k++) {
    // the noun before " (": read back over its letters (bounded: 16)
    let e = p;
    if (text.charCodeAt(e - 1) === 32) e--;
    let s = e;
    while (s > 0 && e - s <= 16 && letterAt(text, s - 1)) s--;
    if (s === e || e - s > 16 || !SITED_NOUNS.has(text.slice(s, e).toLowerCase())) continue;
    let q = p + 1;
    for (let n = 0; n < 4; n++) {
      NAME_AT.lastIndex = q;
      const m = NAME_AT.exec(text);
      if (!m || !upperAt(text, q)) break;
      const v = m[1]!;
      const after = text.charCodeAt(q + v.length);
      // a name ends at the comma, the closing parenthesis or " and"
      if (after !== 44 && after !== 41 && after !== 59) break;
      if (!nameLooksLikePlace(v, true)) break;
      out.push(q, q + v.length);
      if (after === 41) break;
      q += v.length + 1;
      while (q < text.length && text.charCodeAt(q) === 32) q++;
    }
  }
  return out;
}

/** The capitalised word(s) before "-based" ("a Nenagh-based startup", "the San Cono-based team"): [start, end) pairs. */
export function placesBeforeBased(text: string): number[] {
  const out: number[] = [];
  for (let p = text.indexOf('-based'), k = 0; p > 1 && k < 64; p = text.indexOf('-based', p + 6), k++) {
    if (letterAt(text, p + 6)) continue;
    // up to three capitalised words end at p, each read back over at most 31 letters
    let s = p;
    for (let w = 0; w < 3; w++) {
      const e = w === 0 ? p : s - 1;
      if (w > 0 && (s < 2 || text.charCodeAt(s - 1) !== 32)) break;
      let ws = e;
      while (ws > 0 && e - ws <= 31 && letterAt(text, ws - 1)) ws--;
      if (ws === e || !upperAt(text, ws) || ARTICLES.has(text.slice(ws, e))) break;
      s = ws;
    }
    if (s === p) continue;
    const v = text.slice(s, p);
    if (!nameLooksLikePlace(v)) continue;
    out.push(s, p);
  }
  return out;
}

const ARTICLES = new Set(['The', 'A', 'An', 'Our', 'Their', 'Its', 'This', 'That']);

const HASHTAG_AT = /#([\p{Lu}][\p{L}\p{M}]{2,40})(?![\p{L}\p{N}_])/uy;

/**
 * A capitalised hashtag in a post whose other hashtags are lower-case words ("Sunset over the harbour #Christchurch
 * #travel #nofilter"): the capital marks a name among the topics, and a post's name is most often where it was
 * taken. Not a hashtag in upper case (#AI), nor a lone one (a brand's, a campaign's), nor a first name.
 */
export function placesInHashtags(text: string): number[] {
  const out: number[] = [];
  let lower = false;
  const named: number[] = [];
  for (let p = text.indexOf('#'), k = 0; p >= 0 && k < 64; p = text.indexOf('#', p + 1), k++) {
    if (p > 0 && (letterAt(text, p - 1) || text.charCodeAt(p - 1) === 38)) continue;
    const c = text.charCodeAt(p + 1);
    if (c >= 97 && c <= 122) lower = true;
    HASHTAG_AT.lastIndex = p;
    const m = HASHTAG_AT.exec(text);
    if (!m || m[1] === m[1]!.toUpperCase()) continue;
    named.push(p + 1, p + 1 + m[1]!.length);
  }
  if (!lower || named.length === 0 || named.length > 4) return out;
  for (let k = 0; k < named.length; k += 2) {
    const v = text.slice(named[k], named[k + 1]);
    if (nameLooksLikePlace(v)) out.push(named[k]!, named[k + 1]!);
  }
  return out;
}
