-- The outbox relay's per-consumer retries (ADR 0213). A batch of domain events is
-- marked dispatched once every consumer handled it or failed; a consumer that failed gets one row per event of
-- its batch here, retried for that consumer alone with back-off, and the row goes when its delivery commits.
-- The other consumers' work committed with the mark, so a failing consumer neither blocks nor repeats theirs.
CREATE TABLE domain_event_retries (
	consumer text NOT NULL,
	event_id bigint NOT NULL REFERENCES domain_events (id),
	attempts integer NOT NULL,
	due_at timestamptz NOT NULL,
	last_error text NOT NULL,
	PRIMARY KEY (consumer, event_id)
);
--> statement-breakpoint
CREATE INDEX domain_event_retries_due_idx ON domain_event_retries (consumer, due_at);
