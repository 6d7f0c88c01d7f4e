// Module hooks for invocation-path.ts: every function of a src/ file (tests, the testing kits and this
// script aside) starts with `globalThis.__pathTrace("<file>:<line>")`, so that the script can record
// the stack at each function entry of one request. Concise arrows get it as a comma expression:
// `(x) => f(x)` becomes `(x) => (trace, f(x))`. The source stays TypeScript; Node strips the types after.

import { fileURLToPath } from 'node:url';
import ts from 'typescript';

let srcDir = '';

export function initialize(data: { src: string }): void {
  srcDir = data.src;
}

function instrument(file: string, rel: string, text: string): string {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: { at: number; text: string }[] = [];
  const call = (node: ts.Node) =>
    `globalThis.__pathTrace(${JSON.stringify(`${rel}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`)})`;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const body = node.body as ts.Node;
      if (ts.isBlock(body)) edits.push({ at: body.getStart(sf) + 1, text: `${call(node)};` });
      else {
        edits.push({ at: body.getStart(sf), text: `(${call(node)}, ` });
        edits.push({ at: body.getEnd(), text: ')' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  edits.sort((a, b) => b.at - a.at);
  let out = text;
  for (const e of edits) out = out.slice(0, e.at) + e.text + out.slice(e.at);
  return out;
}

export async function load(
  url: string,
  context: object,
  nextLoad: (
    url: string,
    context: object,
  ) => Promise<{ format?: string | null; source?: string | ArrayBuffer | ArrayBufferView | null }>,
) {
  const loaded = await nextLoad(url, context);
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return loaded;
  const file = fileURLToPath(url);
  if (
    !file.startsWith(srcDir) ||
    file.endsWith('.test.ts') ||
    file.endsWith('test-kit.ts') ||
    file.includes('/testing/') ||
    loaded.source == null
  )
    return loaded;
  const text =
    typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source as ArrayBuffer).toString('utf8');
  return { ...loaded, source: instrument(file, file.slice(srcDir.length), text) };
}
