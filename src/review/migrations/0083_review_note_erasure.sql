-- A review note and its salt are deleted by retention or erasure
-- (src/review/erasure.ts); the decision and its leaf stay.
ALTER TABLE reviews ALTER COLUMN note DROP NOT NULL;
ALTER TABLE reviews ALTER COLUMN note_salt DROP NOT NULL;
ALTER TABLE reviews ADD COLUMN note_erased_at timestamptz;
