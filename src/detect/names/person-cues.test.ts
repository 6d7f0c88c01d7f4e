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

describe('fields whose key or column header names a person (CUE_KEYS, in JSON, YAML, key=value and tables)', () => {
  it('keys in the seven languages', () => {
    assert.deepEqual(found('Kunde: Jürgen Weiß', 'PERSON'), ['Jürgen Weiß']);
    assert.deepEqual(found('{"nombre": "Lucía Gómez"}', 'PERSON'), ['Lucía Gómez']);
    assert.deepEqual(found('nom: Dupont\nprénom: Jean', 'PERSON'), ['Dupont', 'Jean']);
  });

  it("a log line's value ends before the next key", () => {
    assert.deepEqual(found('contact=Priya Raman level=info', 'PERSON'), ['Priya Raman']);
  });

  it("a table's person column, by its header; a header's other cells are not names", () => {
    assert.deepEqual(found('name,email,city\nJohn Smith,john@x.com,Lyon\nAna Duarte,ana@y.com,Porto', 'PERSON'), [
      'John Smith',
      'Ana Duarte',
    ]);
    assert.deepEqual(found('id;Kunde;Betrag\n1;Jürgen Weiß;12,50\n2;Oksana Bilyk;3,00', 'PERSON'), [
      'Jürgen Weiß',
      'Oksana Bilyk',
    ]);
    assert.deepEqual(found('| Name | Role |\n|---|---|\n| Tomasz Zieliński | admin |', 'PERSON'), ['Tomasz Zieliński']);
    assert.deepEqual(found('name,count\nTotal,12\nbuild,3', 'PERSON'), []);
  });
});

describe('a person field read whole, and what under a person key is no person', () => {
  it('surnames with a capital inside ("McGregor", "O\'Brien") or a hyphen ("Joliot-Curie") are read whole', () => {
    assert.deepEqual(found('level=info nome="Ewan McGregor" msg="updated"', 'PERSON'), ['Ewan McGregor']);
    assert.deepEqual(found('{"author": "Palle Kreiberg-Nielsens", "status": "active"}', 'PERSON'), [
      'Palle Kreiberg-Nielsens',
    ]);
    assert.deepEqual(found("customer: Siobhan O'Brien\nid: 4", 'PERSON'), ["Siobhan O'Brien"]);
    assert.deepEqual(found('patient="Poul-Erik Billeskov" msg="x"', 'PERSON'), ['Poul-Erik Billeskov']);
  });

  it('who receives, sends, holds, owns or wrote, in more languages, and Nordic, Polish, Czech, Russian name keys', () => {
    assert.deepEqual(found('titulaire: Irène Joliot-Curie\nstatut: actif', 'PERSON'), ['Irène Joliot-Curie']);
    assert.deepEqual(found('{"destinatario": "Lucía Gómez"}', 'PERSON'), ['Lucía Gómez']);
    assert.deepEqual(found('{"Empfänger": "Jürgen Weiß"}', 'PERSON'), ['Jürgen Weiß']);
    assert.deepEqual(found('navn: Ingrid Solberg', 'PERSON'), ['Ingrid Solberg']);
    assert.deepEqual(found('{"nazwisko": "Kowalska", "imię": "Anna"}', 'PERSON'), ['Kowalska', 'Anna']);
  });

  it('one lower-case word, lower-case frequent words or a title under a person key are no person', () => {
    assert.deepEqual(found('{"name": "my-app", "version": "1.0.0"}', 'PERSON'), []);
    assert.deepEqual(found('{"author": "lodash"}', 'PERSON'), []);
    assert.deepEqual(found('client=web level=info', 'PERSON'), []);
    assert.deepEqual(found('{"name": "Quarterly Report"}', 'PERSON'), []);
    // a lower-case name of two words is still one
    assert.deepEqual(found('{"customer": "maria rossi"}', 'PERSON'), ['maria rossi']);
  });
});
