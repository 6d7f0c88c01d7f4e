import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { generatedPool } from '../../../scripts/detect/injection-training-data.ts';
import { trainingTextsHash } from '../../../scripts/detect/train-injection.ts';
import { loadInjectionData, trainingCases } from '../eval/loso-injection.ts';

// The shipped model must be the one `npm run train:injection` makes from this repository: its training
// data is datasets/detect/injection/ and a share of generated text that includes the development set's dev
// injection cases and the READMEs of installed packages, so a change there leaves the model stale without
// anyone touching it. (The PII and secret texts it reads are
// a frozen copy, scripts/detect/data/injection-negatives.jsonl.gz, so PII work does not move it.) The manifest records a SHA-256 of the
// training texts; the same texts hashed now must give it, or the model needs training again.
test('the injection model was trained on the training texts of this repository (else: npm run train:injection)', () => {
  const manifest = JSON.parse(
    readFileSync(new URL('./model/injection-training-manifest.json', import.meta.url), 'utf8'),
  ) as {
    sha256_of_texts: string;
    examples: number;
  };
  const real = trainingCases(loadInjectionData());
  const generated = generatedPool();
  assert.equal(
    real.length + generated.length,
    manifest.examples,
    'the number of training examples changed: run npm run train:injection',
  );
  assert.equal(
    trainingTextsHash(real, generated),
    manifest.sha256_of_texts,
    'the training texts changed: run npm run train:injection',
  );
});
