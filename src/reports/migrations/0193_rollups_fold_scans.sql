-- Findings rolled up again, exactly: an invocation's findings are folded with
-- it, but those of a tool_output scanned in the background are folded by the
-- scan (ingest's output_scans, by log position), since that output may be
-- attached and scanned long after the invocation was folded. The scans folded
-- so far are those at or below scan_log_index.
ALTER TABLE rollup_marks ADD COLUMN scan_log_index bigint NOT NULL DEFAULT -9223372036854775808;

-- Every roll-up is folded again from the start under these rules (the rows
-- 0190's pass wrote counted findings differently). Row-level security binds the
-- tables' owner too (FORCE): lifted for this workspace-wide reset.
ALTER TABLE daily_rollups NO FORCE ROW LEVEL SECURITY;
ALTER TABLE daily_rogue_rollups NO FORCE ROW LEVEL SECURITY;
ALTER TABLE rollup_marks NO FORCE ROW LEVEL SECURITY;
DELETE FROM daily_rollups;
DELETE FROM daily_rogue_rollups;
DELETE FROM rollup_marks;
ALTER TABLE daily_rollups FORCE ROW LEVEL SECURITY;
ALTER TABLE daily_rogue_rollups FORCE ROW LEVEL SECURITY;
ALTER TABLE rollup_marks FORCE ROW LEVEL SECURITY;
