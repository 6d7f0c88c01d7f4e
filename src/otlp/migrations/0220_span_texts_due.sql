-- The retention sweep's question (src/otlp/span-texts.ts eraseSpanTexts with
-- a period only): which of a workspace's spans, texts not yet erased, belong
-- to invocations before the cutoff (a span's created_at is its invocation's).
-- Without it each chunk of a first sweep read the period from its start again,
-- past the spans the chunks before had erased, through every invocation of the
-- period; with it a chunk starts at the first span still to erase, and a sweep
-- with nothing due reads a page of it. A span leaves the index when its texts
-- are erased.
CREATE INDEX otel_spans_texts_due ON otel_spans (tenant_id, created_at) WHERE texts_erased_at IS NULL;
