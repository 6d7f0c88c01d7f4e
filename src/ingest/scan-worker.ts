// A detector worker (worker_threads, run by the pool in scan-pool.ts): scans
// and redacts the text fields of one event off the HTTP event loop.
import { scanField } from '../detect/index.ts';
import type { ContentField } from '../policy/index.ts';

export default function scanFields(fields: Array<[ContentField, string]>) {
  return fields.map(([field, text]) => scanField(field, text));
}
