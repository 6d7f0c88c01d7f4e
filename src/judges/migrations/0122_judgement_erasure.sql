-- A judgement's answers are written from the invocation's content, so
-- retention and data-subject erasure (src/retention) delete their rationales
-- with the content: each judge's verdict and rubric points stay, and the salt
-- goes, so the judge_verdict leaf's commitment can no longer be opened.
ALTER TABLE judgements ADD COLUMN rationales_erased_at timestamptz;
