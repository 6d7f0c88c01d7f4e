import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchCase, metrics } from './score.ts';

describe('matchCase', () => {
  it('counts an overlapping same-type prediction as a true positive', () => {
    const c = matchCase(
      [{ type: 'EMAIL_ADDRESS', start: 5, end: 15 }],
      [{ type: 'EMAIL_ADDRESS', start: 7, end: 20 }],
      ['EMAIL_ADDRESS'],
    );
    assert.deepEqual(c.get('EMAIL_ADDRESS'), { tp: 1, fp: 0, fn: 0 });
  });

  it('does not match across types', () => {
    const c = matchCase(
      [{ type: 'PERSON', start: 0, end: 4 }],
      [{ type: 'LOCATION', start: 0, end: 4 }],
      ['PERSON', 'LOCATION'],
    );
    assert.deepEqual(c.get('PERSON'), { tp: 0, fp: 0, fn: 1 });
    assert.deepEqual(c.get('LOCATION'), { tp: 0, fp: 1, fn: 0 });
  });

  it('matches each label at most once: a second overlapping prediction is a false positive', () => {
    const c = matchCase(
      [{ type: 'PHONE_NUMBER', start: 0, end: 10 }],
      [
        { type: 'PHONE_NUMBER', start: 0, end: 5 },
        { type: 'PHONE_NUMBER', start: 5, end: 10 },
      ],
      ['PHONE_NUMBER'],
    );
    assert.deepEqual(c.get('PHONE_NUMBER'), { tp: 1, fp: 1, fn: 0 });
  });

  it('counts unmatched predictions as false positives only for checked types', () => {
    const c = matchCase(
      [],
      [
        { type: 'URL', start: 0, end: 3 },
        { type: 'PERSON', start: 4, end: 8 },
      ],
      ['PERSON'],
    );
    assert.equal(c.get('URL'), undefined);
    assert.deepEqual(c.get('PERSON'), { tp: 0, fp: 1, fn: 0 });
  });

  it('touching spans (end == start) do not overlap', () => {
    const c = matchCase(
      [{ type: 'IP_ADDRESS', start: 0, end: 4 }],
      [{ type: 'IP_ADDRESS', start: 4, end: 8 }],
      ['IP_ADDRESS'],
    );
    assert.deepEqual(c.get('IP_ADDRESS'), { tp: 0, fp: 1, fn: 1 });
  });

  it('prefers the label with the larger overlap', () => {
    const labels = [
      { type: 'PERSON', start: 0, end: 3 },
      { type: 'PERSON', start: 4, end: 12 },
    ];
    const c = matchCase(
      labels,
      [
        { type: 'PERSON', start: 2, end: 12 },
        { type: 'PERSON', start: 0, end: 2 },
      ],
      ['PERSON'],
    );
    assert.deepEqual(c.get('PERSON'), { tp: 2, fp: 0, fn: 0 });
  });
});

describe('metrics', () => {
  it('metrics have null precision without predictions', () => {
    assert.deepEqual(metrics({ tp: 0, fp: 0, fn: 2 }), { tp: 0, fp: 0, fn: 2, precision: null, recall: 0, support: 2 });
  });
});
