-- Findings are not rolled up: a tool_output may be attached to an invocation
-- and scanned at any time after it was recorded (POST
-- /api/v1/invocations/{id}/output), so an invocation's findings are never
-- final when the roll-up pass folds it. Reports count findings from the rows;
-- daily_rollups keeps invocation counts only (finding_type = '').
DELETE FROM daily_rollups WHERE finding_type <> '';
DROP TABLE rollup_pending_findings;
