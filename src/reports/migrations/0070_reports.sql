-- Reports find the log entries of a period by time.
CREATE INDEX log_entries_time ON log_entries (tenant_id, created_at);
