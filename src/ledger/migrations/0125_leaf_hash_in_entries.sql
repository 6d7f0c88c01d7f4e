-- A leaf's hash is kept in its entry's row instead of a level-0 row of
-- log_nodes: every event appended then costs one row and one index entry
-- fewer (index maintenance is most of PostgreSQL's CPU in an append; issue
-- #10). Entries appended before this migration keep their level-0 node rows
-- and a null leaf_hash; readers take a level-0 hash from either place
-- (ledger/log-store.ts, ledger/tiles.ts), so nothing is rewritten here.
ALTER TABLE log_entries ADD COLUMN leaf_hash bytea;
