-- One workspace per company domain by default: while a workspace of a domain
-- keeps this on, a new address at that domain cannot start a workspace of its
-- own (with a fresh trial); it is told to ask the admins for an invitation.
ALTER TABLE workspaces ADD COLUMN one_workspace_per_domain boolean NOT NULL DEFAULT true;
CREATE INDEX workspaces_domain ON workspaces (domain);
-- Sub-addresses (alice+x@) are the same mailbox as alice@: looked up by the
-- address without its +tag, for the same rule.
CREATE INDEX accounts_mailbox ON accounts ((regexp_replace(email, '\+[^@]*@', '@')));
