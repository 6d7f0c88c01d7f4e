// Places and streets in the columns of a table whose header names them: CSV, TSV, semicolon- and
// pipe-separated rows ("name,city,amount\nKim,Olmos,12.50", "| Kunde | Stadt |\n| Kim | Olmos |"). The
// header says what a cell holds, so a town no dictionary knows is found as well as a known one.
//
// Bounded: one regex test says whether the text has a header cell of these names at all; then every line
// after a header is split once (at most 64 columns read), so O(n).

/** Header cells of a place column, and of a street column. */
const PLACE_HEADERS = new Set("city town country location region state province county place hometown birthplace destination geo stadt ort wohnort standort land ville pays lieu ciudad localidad país pais cidade localidade paese città citta comune località plaats woonplaats stad".split(" "));
const STREET_HEADERS = new Set("address street address1 address_1 address_line_1 address_line1 addressline1 street_address line1 adresse straße strasse anschrift dirección direccion calle indirizzo via endereço endereco rua adres straat".split(" "));

const HEADER_HINT = /(?:^|[,;\t|])[ \t]*["']?(?:city|town|country|location|region|state|province|county|place|hometown|birthplace|destination|geo|stadt|ort|wohnort|standort|land|ville|pays|lieu|ciudad|localidad|pa[ií]s|cidade|localidade|paese|citt[àa]|comune|località|plaats|woonplaats|stad|address|street|adresse|stra(?:ß|ss)e|anschrift|direcci[óo]n|calle|indirizzo|via|endere[çc]o|rua|adres|straat)["']?[ \t]*(?=[,;\t|]|\r?$)/imu;

const NOT_VALUE = /^(?:n\/a|na|none|null|unknown|-+|\?|redacted.*|true|false)$/i;

function cells(line: string, sep: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let s = 0;
  for (let i = 0; i <= line.length && out.length < 64; i++) {
    if (i === line.length || line[i] === sep) {
      let a = s;
      let b = i;
      while (a < b && (line[a] === " " || line[a] === "\t" || line[a] === '"' || line[a] === "'")) a++;
      while (b > a && (line[b - 1] === " " || line[b - 1] === "\t" || line[b - 1] === '"' || line[b - 1] === "'" || line[b - 1] === "\r")) b--;
      out.push([a, b]);
      s = i + 1;
    }
  }
  return out;
}

/** The separator of a header line: the one of tab, "|", ";", "," it has most of (at least one). */
function separatorOf(line: string): string | undefined {
  let best: string | undefined;
  let n = 0;
  for (const sep of ["\t", "|", ";", ","]) {
    let k = 0;
    for (let i = 0; i < line.length; i++) if (line[i] === sep) k++;
    if (k > n) {
      n = k;
      best = sep;
    }
  }
  return best;
}

/** Table cells under a place or street header: `each(type, start, end)`. */
export function tableColumns(text: string, each: (type: string, s: number, e: number) => void): void {
  if (text.indexOf("\n") < 0 || !HEADER_HINT.test(text)) return;
  let pos = 0;
  let cols: Map<number, string> | undefined;
  let sep = "";
  let width = 0;
  let found = 0;
  while (pos < text.length && found < 512) {
    let end = text.indexOf("\n", pos);
    if (end < 0) end = text.length;
    const line = text.slice(pos, end);
    if (cols) {
      const cs = cells(line, sep);
      // a table goes on while its rows have the header's number of cells (a Markdown rule line is skipped)
      if (cs.length !== width || line.trim() === "") cols = undefined;
      else if (!/^[\s|:-]+$/.test(line)) {
        for (const [k, type] of cols) {
          const [a, b] = cs[k]!;
          const v = line.slice(a, b);
          if (b - a < 2 || b - a > 80 || NOT_VALUE.test(v) || !/\p{L}/u.test(v) || (type === "LOCATION" && !/^[\p{Lu}\p{Lt}\p{Lo}]/u.test(v))) continue;
          each(type, pos + a, pos + b);
          found++;
        }
      }
    }
    if (!cols) {
      const s = separatorOf(line);
      if (s) {
        const cs = cells(line, s);
        const m = new Map<number, string>();
        cs.forEach(([a, b], k) => {
          const h = line.slice(a, b).toLowerCase();
          if (PLACE_HEADERS.has(h)) m.set(k, "LOCATION");
          else if (STREET_HEADERS.has(h)) m.set(k, "STREET_ADDRESS");
        });
        if (m.size > 0 && cs.length >= 2) {
          cols = m;
          sep = s;
          width = cs.length;
        }
      }
    }
    pos = end + 1;
  }
}
