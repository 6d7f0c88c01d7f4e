import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PATTERN_RULES } from './index.ts';
import { scanTokenRules } from './token-scan.ts';
import type { TokenRule } from './token-scan.ts';

/** What the scan must reproduce: the rule's regex run over the whole text. */
function regexMatches(text: string, rule: TokenRule): number[] {
  const out: number[] = [];
  rule.re.lastIndex = 0;
  for (let m = rule.re.exec(text); m; m = rule.re.exec(text)) out.push(m.index, m.index + m[0].length);
  return out;
}

/**
 * Strings shaped like the rule's matches: its regex without look-arounds (which fast-check cannot
 * generate), the back-reference loosened to an optional '-', some letters lower-cased. Some of them
 * are not matches, on purpose.
 */
function nearMatches(rule: TokenRule): fc.Arbitrary<string> {
  const core = rule.re.source.replace(/\(\?<?!(?:[^()[\]]|\[[^\]]*\])*\)/g, '').replace(/\\1/g, '-?');
  const shaped = fc.stringMatching(new RegExp(`^(?:${core})$`));
  const lower = fc.array(fc.boolean(), { minLength: 24, maxLength: 24 });
  return fc
    .tuple(shaped, fc.oneof(fc.constant([]), lower))
    .map(([s, low]) => [...s].map((ch, i) => (low[i] ? ch.toLowerCase() : ch)).join(''));
}

const filler = fc.stringMatching(/^[a-zA-Z0-9_ \-/+.:ÄÖÜé\n]{0,4}$/);
const separator = fc.constantFrom('', ' ', '\n', '-', '/', ', ', 'x');
const fragment = fc.tuple(separator, fc.oneof(filler, ...PATTERN_RULES.map(nearMatches))).map(([sep, s]) => sep + s);

describe('scanTokenRules', () => {
  it("finds exactly the matches of every rule's regex", () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        const found = scanTokenRules(text, PATTERN_RULES);
        PATTERN_RULES.forEach((r, i) =>
          assert.deepEqual(found[i], regexMatches(text, r), `${r.type} in ${JSON.stringify(text)}`),
        );
      }),
      { numRuns: 10_000 },
    );
  });

  it('finds a value at the start, at the end and inside a longer text', () => {
    const text = 'AB123456C, then X-1234567-L and 010190-123N';
    const found = scanTokenRules(text, PATTERN_RULES);
    const at = (type: string) => found[PATTERN_RULES.findIndex((r) => r.type === type)];
    assert.deepEqual(at('UK_NINO'), [0, 9]);
    assert.deepEqual(at('ES_NIE'), [16, 27]);
    assert.deepEqual(at('FI_PERSONAL_IDENTITY_CODE'), [32, 43]);
  });
});
