-- A guard for statements sent before the answer to the one that takes the log
-- head's lock (PostgreSQL pipelines a transaction decided ahead behind its
-- lock): it raises, aborting the transaction before its write and COMMIT run,
-- unless what the transaction was decided on still holds once the lock is
-- held. SQLSTATE AL001 tells the log writer to decide again. Same rights as
-- the caller (SECURITY INVOKER): row-level security applies to what `holds`
-- reads.
CREATE FUNCTION log_expect(holds boolean, what text) RETURNS boolean
  LANGUAGE plpgsql AS $$
BEGIN
  IF holds IS NOT TRUE THEN
    RAISE EXCEPTION 'moved since the transaction was decided: %', what USING ERRCODE = 'AL001';
  END IF;
  RETURN true;
END
$$;
