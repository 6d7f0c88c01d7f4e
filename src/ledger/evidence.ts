// The evidence id of a log entry, as the API shows it.

/** Evidence ids are 1-based log positions: positive integers, as API.md asks. */
export function evidenceIdOf(index: number): number {
  return index + 1;
}

export function evidenceIndex(evidenceId: number): number {
  return evidenceId - 1;
}
