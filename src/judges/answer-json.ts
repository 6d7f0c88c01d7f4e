// Finding the one JSON object in a judge's answer. Asked for a JSON object and
// nothing else, most models still wrap it in a Markdown code fence
// (```json … ```) or put a sentence before or after it. Read through that:
//  1. the whole answer, when it is JSON;
//  2. else the code fences: the one fenced block that holds a JSON object;
//  3. else the prose: the one balanced {…} span that is a JSON object.
// More than one candidate is ambiguous (a model quoting the schema, then
// answering), never guessed at. Each step is one pass over the text: an
// answer is at most MAX_RESPONSE_BYTES (chat-client.ts), and a crafted one
// must cost no more than a plain one.

export type Extracted = { ok: true; value: unknown } | { ok: false; reason: string };

export function answerJson(content: string): Extracted {
  const whole = parsed(content);
  if (whole !== undefined) return { ok: true, value: whole };
  const fenced = objects(fencedBlocks(content));
  if (fenced.length === 1) return { ok: true, value: fenced[0] };
  if (fenced.length > 1) return { ok: false, reason: 'answer holds more than one fenced JSON object' };
  const spans = objects(balancedSpans(content));
  if (spans.length === 1) return { ok: true, value: spans[0] };
  if (spans.length > 1) return { ok: false, reason: 'answer holds more than one JSON object' };
  return { ok: false, reason: 'answer is not JSON' };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The texts that parse as a JSON object (not an array, string or number). */
function objects(texts: string[]): unknown[] {
  const out: unknown[] = [];
  for (const t of texts) {
    const v = parsed(t);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(v);
  }
  return out;
}

/**
 * The bodies of the closed Markdown code fences of a text (``` or ~~~, three
 * or more, any info string; closed by a line of at least as many of the same
 * character), line by line in one pass: a fence never closed runs to the end,
 * as CommonMark has it, and holds no block.
 */
export function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  let open: { marker: string; from: number } | null = null;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd).trim();
    if (open === null) {
      const m = /^(`{3,}|~{3,})/.exec(line);
      // An info string may follow an opening fence; a backtick fence's may not hold a backtick.
      if (m && !(m[1]![0] === '`' && line.slice(m[1]!.length).includes('`')))
        open = { marker: m[1]!, from: lineEnd + 1 };
    } else if (line.length >= open.marker.length && line === open.marker[0]!.repeat(line.length)) {
      blocks.push(text.slice(Math.min(open.from, lineStart), Math.max(lineStart - 1, open.from)));
      open = null;
    }
    lineStart = lineEnd + 1;
  }
  return blocks;
}

/**
 * The top-level {…} spans of a text, braces inside JSON strings skipped, in
 * one pass (each character is looked at once; spans do not overlap). A brace
 * left open at the end is no span.
 */
export function balancedSpans(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (depth === 0) {
      if (c === 0x7b) {
        depth = 1;
        start = i;
      }
      continue;
    }
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) spans.push(text.slice(start, i + 1));
  }
  return spans;
}
