import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { anchorsOf, brokenLinks, linksOf, markdownFiles, reachableFrom, resolveLink, slug } from './markdown-links.ts';

// The documentation is a web of files: README.md for a newcomer, the
// reference under docs/, a README in the modules that need one. Moving a
// section must not leave a dead link, and nothing under docs/ may be
// reachable only by someone who already knows it is there.

test('every relative link in README.md, docs/ and the module READMEs names an existing file and heading', () => {
  const files = markdownFiles();
  assert.ok(files.includes('README.md') && files.includes('docs/api.md'), files.join(', '));
  assert.deepEqual(brokenLinks(files), []);
});

test('every document under docs/ can be reached from README.md by following links', () => {
  const reached = reachableFrom('README.md');
  const docs = markdownFiles().filter((f) => f.startsWith('docs/'));
  assert.deepEqual(
    docs.filter((f) => !reached.has(f)),
    [],
  );
});

test('the checker: GitHub anchors', () => {
  assert.equal(slug('1. Shape of the system'), '1-shape-of-the-system');
  assert.equal(slug('OpenTelemetry (OTLP/HTTP traces)'), 'opentelemetry-otlphttp-traces');
  assert.equal(
    slug('TypeScript client (`packages/client`, `@agent-ledger/client`)'),
    'typescript-client-packagesclient-agent-ledgerclient',
  );
  assert.equal(slug('Leaf format v2: no personal data in the log'), 'leaf-format-v2-no-personal-data-in-the-log');
  assert.equal(slug('Judge panels: OpenAI-compatible model servers'), 'judge-panels-openai-compatible-model-servers');
  assert.deepEqual([...anchorsOf('# A\n## Tests\n```sh\n# not a heading\n```\n## Tests\n')], ['a', 'tests', 'tests-1']);
});

test('the checker: links outside code, resolved from the linking file', () => {
  const md =
    'See [api](api.md#events) and ![x](console/a.png "t").\n`[no](code.md)`\n```\n[no](fence.md)\n```\n[web](https://c2sp.org)';
  assert.deepEqual(
    linksOf(md).map((l) => `${l.line}:${l.target}`),
    ['1:api.md#events', '1:console/a.png', '6:https://c2sp.org'],
  );
  assert.deepEqual(resolveLink('docs/api.md', 'design.md#keys'), { file: 'docs/design.md', fragment: 'keys' });
  assert.deepEqual(resolveLink('src/ingest/README.md', '../../docs/api.md'), { file: 'docs/api.md' });
  assert.deepEqual(resolveLink('docs/api.md', '#errors'), { file: 'docs/api.md', fragment: 'errors' });
  assert.equal(resolveLink('README.md', 'https://example.com/x.md'), undefined);
});

test('the checker reports a missing file, a missing heading and a link out of the repository', () => {
  const root = mkdtempSync(join(tmpdir(), 'docs-links-'));
  try {
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'a.md'), '# A\n## Known heading\n[back](../README.md)\n');
    writeFileSync(join(root, 'docs', 'orphan.md'), '# Orphan\n');
    writeFileSync(
      join(root, 'README.md'),
      [
        '[ok](docs/a.md#known-heading) [ok](#top)',
        '# Top',
        '[gone](docs/gone.md)',
        '[no heading](docs/a.md#unknown-heading)',
        '[out](../outside.md)',
      ].join('\n'),
    );
    assert.deepEqual(markdownFiles(root), ['README.md', 'docs/a.md', 'docs/orphan.md']);
    assert.deepEqual(brokenLinks(markdownFiles(root), root), [
      'README.md:3: docs/gone.md (no such file)',
      'README.md:4: docs/a.md#unknown-heading (no such heading)',
      'README.md:5: ../outside.md (outside the repository)',
    ]);
    assert.deepEqual([...reachableFrom('README.md', root)].sort(), ['README.md', 'docs/a.md']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
