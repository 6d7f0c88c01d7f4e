import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../../index.ts';

const found = (text: string, type: string) =>
  scan(text)
    .findings.filter((f) => f.type === type)
    .map((f) => text.slice(f.start, f.end));

describe('places read from the structure that holds them (issue #13)', () => {
  it('fields whose key names a place, in any carrier, and what their values are when they hold none', () => {
    assert.deepEqual(found('{"from_airport": "x", "destination": "Lerwick", "origin": "Tromsø"}', 'LOCATION'), [
      'Lerwick',
      'Tromsø',
    ]);
    assert.deepEqual(found('Abfahrt: Wittlich 07:42\nAnkunft: Bad Ems 09:10', 'LOCATION'), ['Wittlich', 'Bad Ems']);
    assert.deepEqual(found('<trip><origin>Ushuaia</origin></trip>', 'LOCATION'), ['Ushuaia']);
    assert.deepEqual(found('site,opened\nx,1\n\nbranch;staff\nKokkola;12\n', 'LOCATION'), ['Kokkola']);
    assert.deepEqual(found('{"country_name": "Lesotho"}', 'LOCATION'), ['Lesotho']);
    assert.deepEqual(found('{"country_name": "Lesotho"}', 'PERSON'), []);
    for (const t of [
      '{"origin": "https://example.org"}',
      'region=ap-south-2',
      'Location: ./build/out',
      'Departure: on time',
      'Where: TBD',
      'Province: \nPostal Code: 4000',
      'city,count\nTotal,12\n',
    ]) {
      assert.deepEqual(found(t, 'LOCATION'), [], t);
    }
    assert.deepEqual(found('{"name": "lookup_order", "arguments": {}}', 'PERSON'), []);
  });

  it("the place of a dateline or a letter's heading, in the set's languages", () => {
    assert.deepEqual(found('Tulcea, 4 aprile 2023\n\nGentile cliente,', 'LOCATION'), ['Tulcea']);
    assert.deepEqual(found('Kaunas, den 2. Juli 2023', 'LOCATION'), ['Kaunas']);
    assert.deepEqual(found('Signé à Victoria, le 9 mai 2023.', 'LOCATION'), ['Victoria']);
    assert.deepEqual(found('Punta Arenas (AP) — Strong winds closed the port.', 'LOCATION'), ['Punta Arenas']);
    assert.deepEqual(found('Anna Berg, 2 July 2023: thanks for the quick reply', 'LOCATION'), []);
    assert.deepEqual(found('Quarterly Report, 2 July 2023', 'LOCATION'), []);
  });

  it('the town of a postcode line under a street, which ends the street', () => {
    const t = 'Ines Kuhn\nLindenweg 4\n56130 Bad Ems\nGermany';
    assert.deepEqual(found(t, 'STREET_ADDRESS'), ['Lindenweg 4']);
    assert.deepEqual(found(t, 'LOCATION'), ['Bad Ems', 'Germany']);
  });

  it('routes and itinerary steps, not a path through a menu', () => {
    assert.deepEqual(found('Tag 1: Oulu\nTag 2: Kemi', 'LOCATION'), ['Oulu', 'Kemi']);
    assert.deepEqual(found('Itinerary: Hanko – Porvoo – Kotka', 'LOCATION'), ['Hanko', 'Porvoo', 'Kotka']);
    assert.deepEqual(found('Booking: Lerwick to Kirkwall, return', 'LOCATION'), ['Lerwick', 'Kirkwall']);
    assert.deepEqual(found('Open Settings → Privacy → Security', 'LOCATION'), []);
  });

  it('a name read after a place cue ends at a full stop', () => {
    assert.deepEqual(found('We stopped in Foster City. Heading north now.', 'LOCATION'), ['Foster City']);
  });
});
