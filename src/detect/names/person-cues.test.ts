import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../index.ts';

const found = (text: string, type: string) =>
  scan(text)
    .findings.filter((f) => f.type === type)
    .map((f) => text.slice(f.start, f.end));

describe("names after reported speech and sign-offs in the set's languages", () => {
  it('according to / laut / selon / según / volgens, and a sign-off line', () => {
    assert.deepEqual(found('According to Giovana Padrão, the shipment left on time.', 'PERSON'), ['Giovana Padrão']);
    assert.deepEqual(found('Laut Ferdinand Kowalczyk ist die Lieferung unterwegs.', 'PERSON'), ['Ferdinand Kowalczyk']);
    assert.deepEqual(found('Selon Maëlys Meunier, la livraison est partie.', 'PERSON'), ['Maëlys Meunier']);
    assert.deepEqual(found('Volgens Willeke Schouten is de zending vertrokken.', 'PERSON'), ['Willeke Schouten']);
    assert.deepEqual(found('Mit freundlichen Grüßen\nGeorgie Wolff', 'PERSON'), ['Georgie Wolff']);
  });

  it('institutions are not people; a place word makes a place', () => {
    assert.deepEqual(found('Applicant Social Security No. 539-07-3552 on file.', 'PERSON'), []);
    assert.deepEqual(found('Flights from Lake Sebu to Saint-Sauveur are delayed.', 'PERSON'), []);
    assert.deepEqual(found('Flights from Lake Sebu to Saint-Sauveur are delayed.', 'LOCATION'), [
      'Lake Sebu',
      'Saint-Sauveur',
    ]);
  });
});
