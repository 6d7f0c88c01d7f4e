import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../../index.ts';

const found = (text: string, type: string) =>
  scan(text)
    .findings.filter((f) => f.type === type)
    .map((f) => text.slice(f.start, f.end));
const none = (texts: string[], type = 'LOCATION') => {
  for (const t of texts) assert.deepEqual(found(t, type), [], t);
};

describe('a place after the noun of what is there (names/places/heads.ts)', () => {
  it('German compounds and apposition, genitive heads in the Romance languages and English', () => {
    assert.deepEqual(found('Treffpunkt: Hauptbahnhof Schnifis, 9 Uhr', 'LOCATION'), ['Schnifis']);
    assert.deepEqual(found('Ihr Paket wurde im Paketzentrum Schwäbisch Gmünd bearbeitet.', 'LOCATION'), [
      'Schwäbisch Gmünd',
    ]);
    assert.deepEqual(found('la città di Chivasso e il comune di Rivoli', 'LOCATION'), ['Chivasso', 'Rivoli']);
    assert.deepEqual(found('the town of Bega is small', 'LOCATION'), ['Bega']);
    assert.deepEqual(found('De trein stopt op station Utrecht Centraal.', 'LOCATION'), ['Utrecht Centraal']);
    // a head that names a town outranks a first name read there
    assert.deepEqual(found('Llegamos al aeropuerto de Santa Rita tarde.', 'LOCATION'), ['Santa Rita']);
  });

  it('not a head inside another word, in the wrong case, or before a locator', () => {
    none([
      'Weather Station Data is updated hourly.',
      'The Stadtwerke Report is out.',
      'Go to Station B first.',
      'She works at the Region Team.',
    ]);
  });
});

describe('prepositions, lists and routes (names/places/cues.ts)', () => {
  it("'a' and 'per' in Italian, Spanish and Portuguese text, not the English article", () => {
    assert.deepEqual(found('Vado a Torino domani.', 'LOCATION'), ['Torino']);
    assert.deepEqual(found('Este verano nos vamos a Hong Kong y luego a Oskarshamn.', 'LOCATION'), [
      'Hong Kong',
      'Oskarshamn',
    ]);
    assert.deepEqual(found('Meteo a Bassano: sole, 22 °C', 'LOCATION'), ['Bassano']);
    assert.deepEqual(found('Il treno per Milano parte alle 9.', 'LOCATION'), ['Milano']);
    none([
      'I asked a Google engineer and a Tesla driver.',
      'It costs 5 dollars per Seat.',
      'Ho scritto a Marco ieri.',
      'Llamé a Juan y a Pedro.',
    ]);
  });

  it('a locative preposition outranks a person read from the name alone; a first and a last name stay a person', () => {
    assert.deepEqual(found('Ik ben opgegroeid in Gouda en woon nu in Novi Petrivtsi.', 'LOCATION'), [
      'Gouda',
      'Novi Petrivtsi',
    ]);
    assert.deepEqual(found('Wir fahren am Wochenende nach Neiva und bleiben bis Montag.', 'LOCATION'), ['Neiva']);
    assert.deepEqual(found('Ich habe mit Anna Berg in München gesprochen.', 'PERSON'), ['Anna Berg']);
  });

  it("a route's 'to' after a place, a list's third name, lists joined by ';'", () => {
    assert.deepEqual(found('Flights from Greenlawn to Santiago are delayed.', 'LOCATION'), ['Greenlawn', 'Santiago']);
    assert.deepEqual(found('We have offices in Milas, Mariestad and Marco.', 'LOCATION'), [
      'Milas',
      'Mariestad',
      'Marco',
    ]);
    assert.deepEqual(found('Office locations: Camaley; Hvar; Stowe', 'LOCATION'), ['Camaley', 'Hvar', 'Stowe']);
    // the next label is no place, nor a locator
    assert.deepEqual(found('Abflug: Chumayel, Ankunft: Salem', 'LOCATION'), ['Chumayel', 'Salem']);
    none(['Shipped from Warehouse B to Dock 7.', 'Meet in Room 4B at noon.']);
  });

  it("a capitalised 'In' opens a sentence only before a comma", () => {
    assert.deepEqual(found('In Matachí, the mayor opened a park.', 'LOCATION'), ['Matachí']);
    none(['In Progress: 3 tasks', 'From Scratch: a course']);
  });
});

describe('country names with connectors (names/places/country-names.ts)', () => {
  it('one place, not two of a list', () => {
    assert.deepEqual(found('I grew up in Isle of Man but moved to Bosnia and Herzegovina for work.', 'LOCATION'), [
      'Isle of Man',
      'Bosnia and Herzegovina',
    ]);
    assert.deepEqual(found('Este verano nos vamos a República de Corea.', 'LOCATION'), ['República de Corea']);
  });

  it("the Isle of Man by its full name, not the word 'Man' alone", () => {
    assert.deepEqual(found('She moved to the Isle of Man last year.', 'LOCATION'), ['Isle of Man']);
    // "Man" opens Swedish, Danish and German sentences (one can …), and is an English noun
    none(['Man kan inte säga att det är fel.', 'Man skal huske det.', 'Man muss das wissen.']);
    assert.deepEqual(found('Our Man in Havana', 'LOCATION'), ['Havana']);
  });
});

describe('fields, structure and asides', () => {
  it('site and facility keys in the seven languages, a quoted key=value before the next pair', () => {
    assert.deepEqual(found('level=info msg="parcel scanned" facility="Cung Kiệm" status=in_transit', 'LOCATION'), [
      'Cung Kiệm',
    ]);
    assert.deepEqual(found('ip=1.2.3.4 city="Itapevi" country="Nigeria"', 'LOCATION'), ['Itapevi', 'Nigeria']);
    assert.deepEqual(found('region: Nauru\nsite: Pateley Bridge\nracks: 14', 'LOCATION'), ['Nauru', 'Pateley Bridge']);
    assert.deepEqual(found('Nearest airport: Salitrillos (45 min by car)', 'LOCATION'), ['Salitrillos']);
    assert.deepEqual(found('get_weather(location="Sumidero")', 'LOCATION'), ['Sumidero']);
    none(['Office: Room 4B', 'site: https://example.com/docs', 'branch: main']);
  });

  it("lists and named objects under a place key; a route's from/to fields, not a mail header's", () => {
    assert.deepEqual(found('{"stops": ["Santiago", "Pātan"]}', 'LOCATION'), ['Santiago', 'Pātan']);
    assert.deepEqual(found('cities:\n  - Nenagh\n  - Castelnovo', 'LOCATION'), ['Nenagh', 'Castelnovo']);
    assert.deepEqual(found('{"destination": {"name": "Kāndri"}}', 'LOCATION'), ['Kāndri']);
    assert.deepEqual(found('office:\n  city: Abertillery\n  phone: 555-0100', 'LOCATION'), ['Abertillery']);
    assert.deepEqual(found('{"trip": {"from": "Turpan", "to": "Plön"}}', 'LOCATION'), ['Turpan', 'Plön']);
    assert.deepEqual(found('date,from,to,km\n2024-05-02,Stratford,Naintré,412', 'LOCATION'), ['Stratford', 'Naintré']);
    none([
      'From: Sales\nTo: Kim',
      'from,to,subject\nAnna Berg,Kim Lee,Hello',
      '{"from": "2024-01-01", "to": "2024-02-01"}',
    ]);
  });

  it("parentheses after a noun of what is somewhere, '-based', markup", () => {
    assert.deepEqual(found('Our warehouses (Creutzwald, Vyborg) are closed today.', 'LOCATION'), [
      'Creutzwald',
      'Vyborg',
    ]);
    assert.deepEqual(found('The conference (Hvar, 3-5 June) is sold out.', 'LOCATION'), ['Hvar']);
    assert.deepEqual(found('The Nenagh-based startup raised $5M.', 'LOCATION'), ['Nenagh']);
    assert.deepEqual(found('<stop name="Obing" time="10:00"/>', 'LOCATION'), ['Obing']);
    none(['The report (Draft) is attached.', 'A cloud-based service.', 'Our team (Sales, Support) will call.']);
    // the capitalised hashtag among a post's lower-case ones; not a lone or upper-case one, nor a first name
    assert.deepEqual(found('Sunset over the harbour tonight #Christchurch #travel #nofilter', 'LOCATION'), [
      'Christchurch',
    ]);
    none(['#Apple event today', 'Shipping now #AI #ml', 'Great talk by #Anna #conference']);
  });

  it("the stops of a timetable (two time-led lines and a word of travel), not an agenda's items or a street", () => {
    assert.deepEqual(found('Departures\n08:15 Cheongju-si\n09:40 Gondar\n11:05 Saint-Malo', 'LOCATION'), [
      'Cheongju-si',
      'Gondar',
      'Saint-Malo',
    ]);
    assert.deepEqual(found('Abfahrt\n8.15 Uhr Wittlich  Gleis 4\n9.40 Uhr Bad Ems  Gleis 2', 'LOCATION'), [
      'Wittlich',
      'Bad Ems',
    ]);
    none(['Agenda\n09:00 Standup\n10:30 Design Review\n12:00 Lunch']);
    none(['Agenda\n09:00 Standup\n10:30 Design Review\n12:00 Lunch'], 'STREET_ADDRESS');
  });

  it("a ZIP+4 postcode's town before a dash or the next key", () => {
    assert.deepEqual(
      found('My address is 45139 Kris Mall, 62108-2672 La Puebla — please update your records.', 'LOCATION'),
      ['La Puebla'],
    );
  });
});
