-- An approval's note is what a person wrote about the held call (it may name
-- the customer it concerns): retention and data-subject erasure (src/retention)
-- delete it and its salt with the invocation's content, so the approval_decided
-- leaf's commitment can no longer be opened; the decision, who made it and when
-- stay.
ALTER TABLE approvals ADD COLUMN note_erased_at timestamptz;
