// The stops of a timetable: lines that open with a time and name a place ("08:15 Cheongju-si", "9.40 – Gondar",
// "11h05  Saint-Malo  Gleis 4"), in a text that says it is about travel (departures, a train, a platform, in
// the seven languages). A meeting's agenda has the same shape ("09:00 Standup"), so two such lines and a word
// of travel are needed before any is read as a place.
//
// Bounded: per line, a first-character test and one sticky regex; the travel words by one regex test per text.

import * as namesPlaceCues from './cues.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { nameLooksLikePlace } = namesPlaceCues;

const TIME_LED_AT =
  /[ \t]{0,4}(?:[-*•][ \t]{1,2})?\d{1,2}[:.h]\d\d(?:[ \t]*(?:Uhr|h))?[ \t]*(?:[-–—→|:]|->)?[ \t]{1,4}((?:[\p{Lu}][\p{L}\p{M}'’-]{1,30})(?:[ \t](?:(?:de|la|del|di|du|le|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al)[ \t]){0,2}[\p{Lu}][\p{L}\p{M}'’-]{1,30}){0,4})(?=[ \t]*(?:$|\r?\n|[|\t]|[ \t]{2}|\(|,|[ \t](?:[Pp]latform|[Gg]ate|[Tt]rack|Gleis|[Vv]oie|[Qq]uai|[Aa]ndén|[Bb]inario|[Ss]poor|[Pp]erron|[Pp]lataforma)))/uy;

const TRAVEL_WORDS =
  /(?<![\p{L}])(?:departures?|arrivals?|train|bus|coach|ferry|flight|platform|gate|track|timetable|schedule|stops?|abfahrt|ankunft|zug|gleis|fahrplan|haltestelle|départs?|arrivées?|quai|voie|horaires?|salidas?|llegadas?|tren|andén|horario|autobús|partenz[ae]|arrivi|arrivo|treno|binario|orario|fermata|partidas?|chegadas?|comboio|plataforma|vertrek|aankomst|trein|spoor|perron|dienstregeling)(?![\p{L}])/iu;

/** The place of the line at `ls` if it opens with a time: pushed to `out` as [start, end). */
export function timetableLineAt(text: string, ls: number, out: number[]): void {
  let a = ls;
  while (
    a < text.length &&
    a - ls < 6 &&
    (text.charCodeAt(a) === 32 ||
      text.charCodeAt(a) === 9 ||
      text.charCodeAt(a) === 45 ||
      text.charCodeAt(a) === 42 ||
      text.charCodeAt(a) === 8226)
  )
    a++;
  const c = text.charCodeAt(a);
  if (!(c >= 48 && c <= 57) || out.length >= 128) return;
  TIME_LED_AT.lastIndex = ls;
  const m = TIME_LED_AT.exec(text);
  if (!m) return;
  const v = m[1]!;
  const s = ls + m[0].length - v.length;
  out.push(s, s + v.length);
}

/** The timetable's places among the lines found: none unless two lines and a travel word say it is one. */
export function timetablePlaces(text: string, lines: readonly number[]): number[] {
  if (lines.length < 4 || !TRAVEL_WORDS.test(text)) return [];
  const out: number[] = [];
  for (let k = 0; k < lines.length; k += 2) {
    const v = text.slice(lines[k], lines[k + 1]);
    if (nameLooksLikePlace(v, true)) out.push(lines[k]!, lines[k + 1]!);
  }
  return out;
}
