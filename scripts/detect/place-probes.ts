// node scripts/detect/place-probes.ts [--ref REF] [--verbose]
//
// Three sets of place carriers of the seven languages (prose, structured fields, mixed), written for issue #13
// before the detectors were run on them, to check that the place context generalises beyond the development
// set's carriers. Not part of the development set, not scored by `npm run eval`: a probe. Towns and countries
// are drawn as the development set draws them (GeoNames towns by sqrt(population), CLDR country names), 12
// fills per carrier; prints the recall per set (and per carrier with --verbose); --ref REF scores REF's detectors.

import { rng } from './devset/build.ts';
import { countryName, town } from './devset/sources.ts';
import * as current from '../../src/detect/index.ts';
import { importFrozen } from './frozen.ts';

const refAt = process.argv.indexOf('--ref');
const frozen =
  refAt >= 0 ? await importFrozen<typeof current>(process.argv[refAt + 1]!, 'src/detect/index.ts') : current;
if (!frozen) throw new Error(`no src/detect/index.ts at ${process.argv[refAt + 1]}`);
const detectors: typeof current = frozen;
const { scan } = detectors;

const SETS: Record<string, Record<string, string[]>> = {
  prose: {
    en: [
      'The hotel in {T} was fully booked, so we stayed in {T} instead.',
      'Our next meetup is in {T} on 14 May.',
      'Temperature in {T} dropped to -4°C overnight.',
      '{T} Airport reopened after the snowstorm.',
      'Lost luggage report: flight arrived from {T}, bag tagged for {T}.',
      "I'm flying out of {T} tomorrow morning.",
      'Population of {T}: about 40,000.',
      '{T} (pop. 12,000) is a small town in the north.',
      'The festival returns to {T} this summer.',
      'Trip: {T} → {T}',
      'origin: {T} | destination: {T}',
      'Photos from our holiday in {T} and {T}.',
      'Customer location: {T}, {C}',
      'She relocated to {T} in 2019.',
      'Event venue: Town Hall, {T}',
      'Train 402 to {T} departs from platform 3.',
      'Welcome to {T}!',
      'Headquarters: {T}',
      'He lives just outside {T}.',
      'Sunny in {T}, rainy in {T}.',
      '{"event": "checkin", "hotel_city": "{T}"}',
      'user.location = "{T}"',
      'Ship-from: {T}; Ship-to: {T}',
      'office:\n  city: {T}\n  phone: 555-0100',
      '<place>{T}</place>',
      'Departure city: {T}',
      'Route: {T} – {T}',
      "I'm currently based out of {T}.",
      'Born and raised in {T}.',
      'Our team in {T} will handle it.',
      'We opened a new store in downtown {T}.',
      'Arriving at {T} station at 10:45.',
      'The flight to {T} was delayed.',
      'Visiting {T} next week?',
      '{T}, {C} — the mayor announced a new park on Monday.',
      'Weather alert for {T} and surrounding areas.',
      'I left {T} in 2015 and never looked back.',
      'Ticket #4821: customer in {T} reports an outage.',
      '- {T}\n- {T}\n- {T}',
      'Where are you? — In {T}, at the station.',
    ],
    de: [
      'Ich wohne seit 2015 in {T}.',
      'Abflug: {T}, Ankunft: {T}',
      'Wetter in {T}: 12 °C, bewölkt',
      'Wir ziehen nächstes Jahr nach {T} um.',
      'Grüße aus {T}!',
      'Geboren in {T}, aufgewachsen in {T}.',
      'Die Filiale in {T} schließt Ende Mai.',
      'Treffen am Bahnhof in {T} um 9 Uhr.',
      'Unser Kunde aus {T} hat angerufen.',
      'Wohnort: {T}, Deutschland',
    ],
    fr: [
      "J'habite à {T} depuis 2010.",
      'Le vol pour {T} est annulé.',
      'Météo à {T} : pluie, 8 °C',
      'Rendez-vous à {T} demain matin.',
      'Bienvenue à {T} !',
      'Nous avons déménagé de {T} à {T}.',
      'Ville : {T}',
      'Il est né à {T} en 1980.',
      'Le bureau de {T} est fermé lundi.',
      'Livraison prévue à {T} jeudi.',
    ],
    es: [
      'Vivo en {T} desde hace años.',
      'El vuelo a {T} está retrasado.',
      'Saludos desde {T}.',
      'Nos mudamos a {T} el mes pasado.',
      'Clima en {T}: 30 °C, despejado',
      'Nació en {T} en 1975.',
      'Ciudad: {T}',
      'La oficina de {T} cierra a las 6.',
      'Viajamos de {T} a {T} en tren.',
    ],
    it: [
      'Abito a {T} da dieci anni.',
      'Il volo per {T} è stato cancellato.',
      'Saluti da {T}!',
      "Ci siamo trasferiti a {T} l'anno scorso.",
      'Meteo a {T}: sole, 22 °C',
      'È nato a {T} nel 1990.',
      'Città: {T}',
      "L'ufficio di {T} è chiuso oggi.",
    ],
    pt: [
      'Moro em {T} há cinco anos.',
      'O voo para {T} atrasou.',
      'Saudações de {T}!',
      'Mudamos para {T} no ano passado.',
      'Tempo em {T}: 25 °C',
      'Nasceu em {T} em 1988.',
      'Cidade: {T}',
    ],
    nl: [
      'Ik woon in {T} sinds 2012.',
      'De trein naar {T} heeft vertraging.',
      'Groeten uit {T}!',
      'We verhuizen volgend jaar naar {T}.',
      'Het weer in {T}: regen, 11 °C',
      'Geboren in {T}.',
      'Plaats: {T}',
    ],
  },
  structured: {
    en: [
      '{"shipping": {"city": "{T}", "zip": "12345"}}',
      '{"weather": {"location": "{T}", "units": "metric"}}',
      '{"trip": {"from": "{T}", "to": "{T}"}}',
      '{"hometown": "{T}"}',
      '{"place_name": "{T}", "lat": 12.1}',
      '{"locality": "{T}"}',
      '{"stops": ["{T}", "{T}"]}',
      'destination:\n  name: {T}\n  nights: 3',
      'stops:\n  - {T}\n  - {T}',
      'INFO user logged in from {T} (ip 10.0.0.4)',
      'geo.city={T} geo.country={C}',
      'event=flight_booked from={T} to={T} pax=2',
      'location="{T}, {C}" status=ok',
      '<Location><City>{T}</City></Location>',
      '<stop name="{T}" time="10:00"/>',
      'stop,arrival\n{T},10:00\n{T},12:30',
      '| Stop | Time |\n|---|---|\n| {T} | 10:00 |',
      'Place of residence: {T}',
      'Country of residence: {C}',
      'Kim Lee\nSales Director\n{T}, {C}',
      'Our partner ({T}) confirmed the order.',
      'Kim Lee ({T}) wrote: thanks!',
      '{T} — Officials said the road will reopen on Friday.',
      'Stopover in {T}, then on to {T}.',
      'Layover: {T}, 2h 15m',
      'Next stop: {T}',
      'Now boarding: flight to {T}',
      'Checked in at Hotel Central, {T}.',
      'Pickup point: {T}',
      'get_weather(location="{T}")',
      'search_hotels(city="{T}", nights=2)',
      'book_train(from_station="{T}", to_station="{T}")',
      'anyone in {T} tonight?',
      'landed in {T} 🎉',
      'back in {T} now, call me',
      'Delivery to {T} takes 3-5 days.',
      'Temperature: 21°C in {T}',
      'Meet me at the {T} office tomorrow.',
    ],
    de: [
      'Standort: {T}',
      'Lieferung nach {T} in 2 Tagen',
      'Sitz der Gesellschaft: {T}',
      'Amtsgericht {T}, HRB 12345',
      '{T}, den 3. Mai 2024',
      'Zweigstelle {T}: Mo–Fr 9–17 Uhr',
    ],
    fr: [
      'Siège social : {T}',
      'Fait à {T}, le 3 mai 2024',
      'Train en provenance de {T}, à destination de {T}.',
      'Il travaille depuis {T}.',
    ],
    es: ['Vuelo con destino a {T}.', 'Tren procedente de {T}.', 'Domicilio: {T}', 'Sucursal {T}: abierta de 9 a 18 h'],
    it: ['Sede legale: {T}', 'Treno in partenza da {T}, diretto a {T}.', 'Residenza: {T}'],
    pt: ['Voo com destino a {T}.', 'Sede: {T}', 'Naturalidade: {T}'],
    nl: [
      'Vestigingsplaats: {T}',
      'De bus vertrekt vanuit {T}.',
      'Gevestigd te {T}.',
      'Kantoor {T}: open van 9 tot 17 uur',
    ],
  },
  mixed: {
    en: [
      'Departures\n08:15 {T}\n09:40 {T}\n11:05 {T}',
      'Platform 4: {T} via {T}',
      'Kim Lee, Head of Sales — {T} office',
      'Best,\nKim\n\nAcme Ltd · {T} · {C}',
      'Our warehouses ({T}, {T}) are closed today.',
      'The conference ({T}, 3-5 June) is sold out.',
      'Rain expected in {T} later today; {T} stays dry.',
      'Moving day! Goodbye {T}, hello {T}.',
      'Shipment status: in transit from {T} to {T}.',
      'Your order will be shipped from our {T} warehouse.',
      'Located in the heart of {T}, the hotel offers 40 rooms.',
      '{T} is a town in the district of {T}.',
      'The {T}-based startup raised $5M.',
      'Time zone: {T} (UTC+2)',
      'Nearest town: {T}',
      'Home base: {T}',
      'Hometown — {T}',
      'Office locations: {T}; {T}; {T}',
      'Customer: Kim Lee\nCity: {T}\nPostcode: 12345',
      '[{T}] Power outage reported at 14:02',
      'flight LH123 {T}-{T} delayed',
      'Estimated arrival in {T}: 14:30',
    ],
    de: [
      'Abfahrt 8:15 Uhr in {T}, Ankunft 11:40 Uhr in {T}.',
      'Max Muster\nHauptstraße 5\n12345 {T}',
      'Wir haben Niederlassungen in {T}, {T} und {T}.',
      'Das Konzert in {T} fällt aus.',
      'Das Wetter für {T}: sonnig',
      'Bitte senden Sie die Unterlagen an unser Büro in {T}.',
    ],
    fr: [
      'Départ de {T} à 8 h 15.',
      'Jean Dupont\n12 rue des Lilas\n75011 {T}',
      'Nous avons des bureaux à {T}, {T} et {T}.',
      "Il fait beau à {T} aujourd'hui.",
      'Le train entre {T} et {T} est supprimé.',
    ],
    es: [
      'Salimos de {T} a las 8.',
      'Juan Pérez\nCalle Mayor 5\n28013 {T}',
      'Tenemos oficinas en {T}, {T} y {T}.',
      'Hace calor en {T} hoy.',
      'El tren entre {T} y {T} no circula.',
    ],
    it: [
      'Partiamo da {T} alle 8.',
      'Mario Rossi\nVia Roma 5\n00100 {T}',
      'Abbiamo uffici a {T}, {T} e {T}.',
      'Fa caldo a {T} oggi.',
      'Il treno tra {T} e {T} è soppresso.',
    ],
    pt: [
      'Saímos de {T} às 8h.',
      'João Silva\nRua das Flores 5\n1000-001 {T}',
      'Temos escritórios em {T}, {T} e {T}.',
      'Está calor em {T} hoje.',
    ],
    nl: [
      'We vertrekken om 8 uur uit {T}.',
      'Jan Jansen\nKerkstraat 5\n1234 AB {T}',
      'We hebben kantoren in {T}, {T} en {T}.',
      'Het is warm in {T} vandaag.',
      'De trein tussen {T} en {T} rijdt niet.',
    ],
  },
};

const verbose = process.argv.includes('--verbose');
for (const [set, carriers] of Object.entries(SETS)) {
  const r = rng(4242);
  let tp = 0;
  let n = 0;
  for (const [lang, ts] of Object.entries(carriers)) {
    ts.forEach((t, i) => {
      let hit = 0;
      let tot = 0;
      for (let k = 0; k < 12; k++) {
        let text = '';
        const ents: Array<[number, number]> = [];
        const re = /\{([TC])\}/g;
        let pos = 0;
        for (let m = re.exec(t); m; m = re.exec(t)) {
          text += t.slice(pos, m.index);
          const v = m[1] === 'T' ? town(r).text : (countryName(r, lang)?.text ?? 'France');
          ents.push([text.length, text.length + v.length]);
          text += v;
          pos = m.index + m[0].length;
        }
        text += t.slice(pos);
        const found = scan(text).findings.filter((x) => x.type === 'LOCATION');
        for (const [s, e] of ents) {
          tot++;
          if (found.some((x) => x.start < e && s < x.end)) hit++;
        }
      }
      tp += hit;
      n += tot;
      if (verbose)
        console.log(
          `${((100 * hit) / tot).toFixed(0).padStart(4)}% ${set}/${lang}-${i} ${JSON.stringify(t).slice(0, 80)}`,
        );
    });
  }
  console.log(`${set}: LOCATION recall ${((100 * tp) / n).toFixed(1)} % (${tp}/${n})`);
}
