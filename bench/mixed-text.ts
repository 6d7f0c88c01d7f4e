// The mixed text the detector benchmark and profiles run on: prose, JSON logs, code, and PII / secrets
// at a realistic density (deterministic, so runs compare).

/** Deterministic pseudo-random digits, so that numbers vary between records (no memo hits). */
let seed = 12345;
function digits(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    s += String(seed % 10);
  }
  return s;
}

export function mixedText(bytes: number): string {
  const parts: (() => string)[] = [
    () => 'The quarterly report was reviewed by the finance team on Tuesday; numbers look fine overall. ',
    () =>
      `{"ts":"2024-03-${digits(1)}1T12:${digits(2)}:38Z","level":"info","msg":"request done","latency_ms":${digits(2)},"status":200,"path":"/api/v1/items"}\n`,
    () =>
      `Please contact Maria Schneider at maria.schneider@example.org or +49 30 ${digits(7)} about invoice 2024-${digits(3)}.\n`,
    () => 'const total = items.reduce((sum, item) => sum + item.price * item.qty, 0); // compute totals\n',
    () => 'Customer paid with card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, from 203.0.113.42.\n',
    () => 'Meeting notes: migrate the billing cron to the new scheduler, then update the runbook and wiki.\n',
    () => 'export AWS_REGION=eu-west-1 GITHUB_TOKEN=ghp_0yKjZYF7fM11W3e5GzqzfJQnnbtuy4wuu5AT\n',
    () => '| Year | Venue | Position |\n| 1997 | Paris, France | 5th |\n',
    () => `Ship to Grace Boyle, ${digits(2)} Mavrokordatou Street, ${digits(4)} Foinikaria, Cyprus. Thanks!\n`,
    () => 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.\n',
  ];
  let s = '';
  let i = 0;
  while (s.length < bytes) s += parts[i++ % parts.length]!();
  return s.slice(0, bytes);
}

/**
 * The mixed text cut into records of `size` characters, each a string of its own as the service gets its
 * text fields: out of JSON.parse of a request body. (Slices of one long string would be V8 sliced strings,
 * on which every char-code loop runs slower than on the strings ingest actually scans.)
 */
export function mixedRecords(bytes: number, size = 4096): { text: string; records: string[] } {
  const text = mixedText(bytes);
  const slices: string[] = [];
  for (let off = 0; off < text.length; off += size) slices.push(text.slice(off, off + size));
  return { text, records: JSON.parse(JSON.stringify(slices)) as string[] };
}
