import type { ErasableText } from '../ingest/index.ts';

/**
 * The notes of reviews, erased with the invocation's content (eraseText);
 * retention erases them by the review's decision time.
 */
export const REVIEW_NOTES: ErasableText = {
  table: 'reviews',
  key: ['invocation_id'],
  set: (at) => `note = NULL, note_salt = NULL, note_erased_at = ${at}`,
  pending: 'x.note_erased_at IS NULL',
  timeColumn: 'decided_at',
};
