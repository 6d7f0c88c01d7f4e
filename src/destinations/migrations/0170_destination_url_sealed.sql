-- A destination's URL is a secret too: a Slack incoming-webhook URL is the
-- credential itself, and a URL may carry user:password or a key in its query.
-- It is sealed like the signing secret and the token (url_sealed, AES-256-GCM
-- under a key derived from the service secret, bound to the workspace and the
-- destination); `url` stays only for rows written before, read as they are and
-- sealed by the delivery worker when it starts (it sets url to NULL).
ALTER TABLE destinations ADD COLUMN url_sealed text;
ALTER TABLE destinations ALTER COLUMN url DROP NOT NULL;
ALTER TABLE destinations ADD CONSTRAINT destinations_url_one CHECK ((url IS NULL) <> (url_sealed IS NULL));
