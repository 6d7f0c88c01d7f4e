-- The API or ingress token that recorded an invocation (null: the fallback
-- token, the OTLP receiver, or recorded before this column): an ingress token
-- may attach a tool_output only to the invocations it recorded
-- (POST /api/v1/invocations/{id}/output).
ALTER TABLE invocations ADD COLUMN recorded_by_token uuid;
