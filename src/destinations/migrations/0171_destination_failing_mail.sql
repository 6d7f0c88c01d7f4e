-- A destination that becomes failing (24 h of failed sends) e-mails the
-- workspace's admins once per failing episode. The flag is set with the state,
-- in the same statement, and cleared once the mails went out, so a node that
-- dies in between leaves it for the next attempt to send: at least once.
ALTER TABLE destination_cursors ADD COLUMN failing_mail_due boolean NOT NULL DEFAULT false;
