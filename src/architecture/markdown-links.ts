import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// The repository's Markdown, read as a web of files: every relative link and
// image must name a file that exists and, with a #fragment, a heading in it,
// so documents moved or renamed leave no dead links behind. Links to other
// sites (a scheme such as https:) are not followed.

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface Link {
  /** The target as written, e.g. `docs/api.md#events`. */
  target: string;
  line: number;
}

/** The documents checked: README.md, everything under docs/, and every README below src/ and packages/. */
export function markdownFiles(root = REPO): string[] {
  const out: string[] = [];
  const walk = (dir: string, all: boolean) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full, all);
      else if (e.name.endsWith('.md') && (all || e.name === 'README.md')) out.push(full);
    }
  };
  if (existsSync(join(root, 'README.md'))) out.push(join(root, 'README.md'));
  for (const [dir, all] of [
    ['docs', true],
    ['src', false],
    ['packages', false],
  ] as const) {
    if (existsSync(join(root, dir))) walk(join(root, dir), all);
  }
  return out.map((f) => relative(root, f).split(sep).join('/')).sort();
}

/** Text outside fenced code blocks and inline code, line by line (code is shown, not linked). */
function proseLines(md: string): string[] {
  let fence: string | undefined;
  return md.split('\n').map((line) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = undefined;
      return '';
    }
    return fence === undefined ? line.replace(/`+[^`]*`+/g, '') : '';
  });
}

/** Every inline link and image target of a document, `[text](target)` and `![alt](target "title")`. */
export function linksOf(md: string): Link[] {
  const out: Link[] = [];
  proseLines(md).forEach((line, i) => {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      out.push({ target: m[1]!, line: i + 1 });
  });
  return out;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a document's headings; a repeated heading gets -1, -2, … as on GitHub. */
export function anchorsOf(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = undefined;
      continue;
    }
    const h = fence === undefined ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line) : null;
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Where a relative link of `from` leads, below the repository root; undefined for an external link. */
export function resolveLink(
  from: string,
  target: string,
  root = REPO,
): { file: string; fragment?: string } | undefined {
  if (external(target)) return undefined;
  const hash = target.indexOf('#');
  const path = hash < 0 ? target : target.slice(0, hash);
  const fragment = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const file = path === '' ? from : relative(root, resolve(root, dirname(from), decodeURIComponent(path)));
  return { file: file.split(sep).join('/'), ...(fragment !== undefined ? { fragment } : {}) };
}

/** Every broken relative link of the given documents, as `file:line: target (why)`. */
export function brokenLinks(files: readonly string[], root = REPO): string[] {
  const texts = new Map<string, string>();
  const read = (file: string) => {
    let t = texts.get(file);
    if (t === undefined) texts.set(file, (t = readFileSync(join(root, file), 'utf8')));
    return t;
  };
  const out: string[] = [];
  for (const from of files) {
    for (const { target, line } of linksOf(read(from))) {
      const to = resolveLink(from, target, root);
      if (to === undefined) continue;
      const where = `${from}:${line}: ${target}`;
      if (to.file.startsWith('..')) out.push(`${where} (outside the repository)`);
      else if (!existsSync(join(root, to.file))) out.push(`${where} (no such file)`);
      else if (to.fragment !== undefined && to.fragment !== '') {
        if (statSync(join(root, to.file)).isDirectory() || !to.file.endsWith('.md'))
          out.push(`${where} (a fragment of a file that is not Markdown)`);
        else if (!anchorsOf(read(to.file)).has(to.fragment)) out.push(`${where} (no such heading)`);
      }
    }
  }
  return out;
}

/** The Markdown files reachable from `start` by following relative links. */
export function reachableFrom(start: string, root = REPO): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const { target } of linksOf(readFileSync(join(root, from), 'utf8'))) {
      const to = resolveLink(from, target, root);
      if (!to || !to.file.endsWith('.md') || seen.has(to.file) || !existsSync(join(root, to.file))) continue;
      seen.add(to.file);
      queue.push(to.file);
    }
  }
  return seen;
}
