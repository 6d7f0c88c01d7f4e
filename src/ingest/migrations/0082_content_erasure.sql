-- Retention and erasure (src/retention) delete stored text through
-- src/ingest/erasure.ts: the text and its salt go (the leaf's commitment can
-- no longer be opened, nor a guess confirmed), finding positions go (types
-- stay, as the leaves count them), and the row remains, marked, so the read
-- side shows the field as erased rather than as never sent.
ALTER TABLE invocation_content ALTER COLUMN body DROP NOT NULL;
ALTER TABLE invocation_content ALTER COLUMN salt DROP NOT NULL;
ALTER TABLE invocation_content ADD COLUMN erased_at timestamptz;
