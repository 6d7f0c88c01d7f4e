import { isKnownFindingType } from '../detect/index.ts';
import { unprocessable } from '../core/index.ts';

/**
 * What a rule list must hold beyond its JSON Schema, checked where a policy or
 * a persona's overrides are stored: unique rule ids (an id is the reason a
 * verdict names), and finding types the detectors emit — a type they never
 * emit ("EMAIL" for EMAIL_ADDRESS) would be stored and silently never fire.
 */
export function checkRules(
  rules: ReadonlyArray<{ id: string; when: { finding_types?: string[] | undefined } }>,
  path: string,
): void {
  const seen = new Set<string>();
  rules.forEach((r, i) => {
    if (seen.has(r.id))
      throw unprocessable('Rule ids must be unique.', [
        { field: `${path}/${i}/id`, message: 'duplicates an earlier rule id' },
      ]);
    seen.add(r.id);
    (r.when.finding_types ?? []).forEach((type, j) => {
      if (isKnownFindingType(type)) return;
      throw unprocessable(
        `Unknown finding type ${type}: finding_types takes the detectors' types (e.g. EMAIL_ADDRESS, GITHUB_TOKEN, PROMPT_INJECTION).`,
        [
          {
            field: `${path}/${i}/when/finding_types/${j}`,
            message: `${type} is not a finding type the detectors emit`,
          },
        ],
      );
    });
  });
}
