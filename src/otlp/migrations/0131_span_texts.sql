-- A span's texts are client content (src/otlp/span-texts.ts): its name and
-- operation, the instrumentation scope, model, provider, finish reasons, tool
-- call id and conversation id are stored redacted, withheld from viewers, and
-- deleted by an erasure and by retention like the invocation's other content
-- (the ids, kind, start time, token counts and truncation marks stay: they are
-- the service's own words or numbers, and the ids keep re-sent spans
-- recognised). A row whose texts are gone is marked, so the read side shows
-- them as erased rather than as never sent.
ALTER TABLE otel_spans ALTER COLUMN span_name DROP NOT NULL;
ALTER TABLE otel_spans ALTER COLUMN operation DROP NOT NULL;
ALTER TABLE otel_spans ADD COLUMN texts_erased_at timestamptz;
-- Rows written before texts were redacted hold them as sent: false marks them
-- until they are redacted (every row written from now on is written redacted).
ALTER TABLE otel_spans ADD COLUMN texts_redacted boolean NOT NULL DEFAULT false;
ALTER TABLE otel_spans ALTER COLUMN texts_redacted SET DEFAULT true;
-- The retention sweep redacts them (span-texts.ts redactLegacySpanTexts) and
-- finds them through this index, empty once they are done.
CREATE INDEX otel_spans_unredacted ON otel_spans (tenant_id) WHERE NOT texts_redacted;
