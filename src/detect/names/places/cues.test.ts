import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../../index.ts';

const found = (text: string, type: string) =>
  scan(text)
    .findings.filter((f) => f.type === type)
    .map((f) => text.slice(f.start, f.end));

describe('places no dictionary knows, read from their cue (names/places/cues.ts)', () => {
  it('a capitalised name after a place preposition, in several languages', () => {
    assert.deepEqual(found('Flights from Olmos to Chelyabinsk are delayed.', 'LOCATION'), ['Olmos', 'Chelyabinsk']);
    assert.deepEqual(found('Der Zug von Wissembourg nach Beit Jann fällt heute aus.', 'LOCATION'), [
      'Wissembourg',
      'Beit Jann',
    ]);
    assert.deepEqual(found('Oficina de Goubétto: 77 83 78 16', 'LOCATION'), ['Goubétto']);
    assert.deepEqual(found('La réunion aura lieu à Konakovo le 12 mars.', 'LOCATION'), ['Konakovo']);
    assert.deepEqual(found('Our warehouse near Hart im Zillertal ships within two days.', 'LOCATION'), [
      'Hart im Zillertal',
    ]);
  });

  it('the places that continue a list', () => {
    assert.deepEqual(found('We have offices in Kozhikode, Alegria and Saldaña.', 'LOCATION'), [
      'Kozhikode',
      'Alegria',
      'Saldaña',
    ]);
    // a sentence after the last one is not part of it
    assert.deepEqual(
      found('Ship it to 4530 Foinikaria, Cyprus. She can be reached later.', 'LOCATION').includes('Cyprus. She'),
      false,
    );
  });

  it('not months, languages, acronyms, companies, first names or name particles', () => {
    for (const t of [
      'See you in March.',
      'The manual is in English.',
      'Export it to PDF first.',
      'Send it to Anna tomorrow.',
      'She works for Test LLC in sales.',
      "A painting by Ludwig van Beethoven's friend.",
      'Maika van de Noort\nEmployment manager',
    ]) {
      assert.deepEqual(found(t, 'LOCATION'), [], t);
    }
  });

  it("a labelled list of places, 'from X to Y' in the set's languages, countries inside longer capitalised runs", () => {
    assert.deepEqual(found('Unsere Standorte: Amuntai, Yasynuvata und Gesves.', 'LOCATION'), [
      'Amuntai',
      'Yasynuvata',
      'Gesves',
    ]);
    assert.deepEqual(found('Il treno da Gwangju a Severn è in ritardo.', 'LOCATION'), ['Gwangju', 'Severn']);
    assert.deepEqual(found('Our Malawi office: 0991 23 76 22', 'LOCATION'), ['Malawi']);
    // a JSON colon or a label that is not about places starts nothing
    assert.deepEqual(found('{"Level":"Info","Msg":"Done"}', 'LOCATION'), []);
    assert.deepEqual(found('Attendees: Anna, Ben and Carl', 'LOCATION'), []);
  });

  it('a place before a place noun, inside a sentence', () => {
    assert.deepEqual(found('Please call our Lyon office tomorrow.', 'LOCATION'), ['Lyon']);
    assert.deepEqual(found('She runs the North Bend branch now.', 'LOCATION'), ['North Bend']);
    // a sentence's first word, a company, a frequent word: no place
    for (const t of ['Sales office hours are 9-5.', 'We met the Google office team.', 'Take it to the main office.'])
      assert.deepEqual(found(t, 'LOCATION'), [], t);
  });

  it('a key=value pair ends before the next key', () => {
    assert.deepEqual(found('shipping_city=Bitin shipping_country=Kuwait items=3', 'LOCATION'), ['Bitin', 'Kuwait']);
  });
});

describe("streets after an address label, and what follows a street's comma", () => {
  it("a label with words before its colon, 'address is'", () => {
    assert.deepEqual(found('Dirección de envío: Prolongación Carlos Navarrete 7', 'STREET_ADDRESS'), [
      'Prolongación Carlos Navarrete 7',
    ]);
    assert.deepEqual(found('Afleveradres: Jennysgate 14', 'STREET_ADDRESS'), ['Jennysgate 14']);
    assert.deepEqual(found('My address is 950 Langosh Tunnel — please update your records.', 'STREET_ADDRESS'), [
      '950 Langosh Tunnel',
    ]);
  });

  it('a postcode and town after a street are a town, not a second street', () => {
    const t = 'My address is 5378 Koepp Heights, 61973 North Las Vegas. Thanks';
    assert.deepEqual(found(t, 'STREET_ADDRESS'), ['5378 Koepp Heights']);
  });
});

describe('US SSNs typed with spaced dashes', () => {
  it("'123 - 45 - 6789' after a cue is an SSN, not a phone number", () => {
    assert.deepEqual(found('SSN: 624 - 84 - 0486', 'US_SSN'), ['624 - 84 - 0486']);
    assert.deepEqual(found('SSN: 624 - 84 - 0486', 'PHONE_NUMBER'), []);
  });
});

describe('places under a label or a table header that names them', () => {
  it('labels in the languages the detectors read, a key only as a word of its own', () => {
    assert.deepEqual(found('Wohnort: Olmos', 'LOCATION'), ['Olmos']);
    assert.deepEqual(found('Ville : Kreischa', 'LOCATION'), ['Kreischa']);
    assert.deepEqual(found('2024-05-01 INFO login ok user=kim geo=Jebba ip=10.0.0.1', 'LOCATION'), ['Jebba']);
    assert.deepEqual(found('Report: Lyonnais results are in. Downtown: closed', 'LOCATION'), []);
  });

  it("the cells of a table's place column", () => {
    assert.deepEqual(found('name,city,amount\nKim,Olmos,12.50\nLee,Bad Wiessee,3.00', 'LOCATION'), [
      'Olmos',
      'Bad Wiessee',
    ]);
    assert.deepEqual(found('| Kunde | Stadt |\n|---|---|\n| Kim | Kreischa |', 'LOCATION'), ['Kreischa']);
  });

  it('the town before a country after a comma, unless a person is read there', () => {
    assert.deepEqual(found('Berezanskaya, Russia — 14 March 2024', 'LOCATION'), ['Berezanskaya', 'Russia']);
    assert.deepEqual(found('Kim Lee\nSales Manager\nVelikiye Luki, Russia', 'LOCATION'), ['Velikiye Luki', 'Russia']);
    assert.deepEqual(found('Thanks, Anna, Brazil is next.', 'LOCATION'), ['Brazil']);
  });

  it('a place after a birth-place or residence label, and in markup named for it', () => {
    assert.deepEqual(found('Place of birth: Berezanskaya', 'LOCATION'), ['Berezanskaya']);
    assert.deepEqual(found('Lugar de nacimiento: Massandra', 'LOCATION'), ['Massandra']);
    assert.deepEqual(found('Date of birth: 1990-01-01', 'LOCATION'), []);
    assert.deepEqual(found('<customer><name>Kim</name><city>Saint-Michel-sur-Orge</city></customer>', 'LOCATION'), [
      'Saint-Michel-sur-Orge',
    ]);
    assert.deepEqual(found('<li><span class="city">Pendle Hill</span></li>', 'LOCATION'), ['Pendle Hill']);
  });
});
