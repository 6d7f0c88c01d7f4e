import { answerJson } from './answer-json.ts';
import type { JudgeVerdict } from './panel-types.ts';

// Reading a judge's answer: the chat-completions envelope, then the one JSON
// object of the message content (answer-json.ts: read through a Markdown code
// fence and prose around it) against the fixed schema {verdict, rationale,
// rubric_points}. Strict about the object: no JSON object (or more than one),
// a missing or extra key, a wrong type or a verdict outside the enum is
// malformed (retried once by ask-judge.ts). What passes is bounded before it
// is stored or shown to a reviewer.

export const MAX_RATIONALE_CHARS = 2_000;
export const MAX_RUBRIC_POINTS = 20;
export const MAX_RUBRIC_POINT_CHARS = 200;

export type Answer = { verdict: JudgeVerdict; rationale: string; rubric_points: string[] };
export type ParsedAnswer = { ok: true; answer: Answer } | { ok: false; reason: string };

const VERDICTS: readonly string[] = ['allow', 'deny', 'uncertain'];
const KEYS = ['rationale', 'rubric_points', 'verdict'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** The assistant message's text from a chat-completions response body, or why there is none. */
export function messageContent(body: string): { ok: true; content: string } | { ok: false; reason: string } {
  let env: unknown;
  try {
    env = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'response is not JSON' };
  }
  const choice = isObject(env) && Array.isArray(env.choices) ? env.choices[0] : undefined;
  const content = isObject(choice) && isObject(choice.message) ? choice.message.content : undefined;
  if (typeof content !== 'string') return { ok: false, reason: 'no choices[0].message.content' };
  return { ok: true, content };
}

export function parseAnswer(content: string): ParsedAnswer {
  const found = answerJson(content);
  if (!found.ok) return found;
  const v = found.value;
  if (!isObject(v)) return { ok: false, reason: 'answer is not a JSON object' };
  const keys = Object.keys(v).sort();
  if (keys.length !== KEYS.length || keys.some((k, i) => k !== KEYS[i]))
    return { ok: false, reason: `answer keys are ${JSON.stringify(keys)}` };
  if (typeof v.verdict !== 'string' || !VERDICTS.includes(v.verdict))
    return { ok: false, reason: 'verdict is not allow, deny or uncertain' };
  if (typeof v.rationale !== 'string') return { ok: false, reason: 'rationale is not a string' };
  if (!Array.isArray(v.rubric_points) || v.rubric_points.some((p) => typeof p !== 'string')) {
    return { ok: false, reason: 'rubric_points is not an array of strings' };
  }
  return {
    ok: true,
    answer: {
      verdict: v.verdict as JudgeVerdict,
      rationale: clip(v.rationale, MAX_RATIONALE_CHARS),
      rubric_points: (v.rubric_points as string[])
        .slice(0, MAX_RUBRIC_POINTS)
        .map((p) => clip(p, MAX_RUBRIC_POINT_CHARS)),
    },
  };
}
