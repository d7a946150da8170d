-- Media objects to remove, written in the transaction that makes a short FAILED: the store may be down at
-- that moment, so the delete is retried by the media sweep until the store confirms it.
CREATE TABLE media_deletions (
  key text PRIMARY KEY,
  due_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0
);
--> statement-breakpoint
CREATE INDEX media_deletions_due_idx ON media_deletions (due_at);
