-- The domain-event outbox (apps/server/src/events/record-event.ts, ADR 0111): one row per fact of money, points
-- or grade, written in the fact's own transaction, so an event exists exactly when its fact committed. The
-- types and their payloads are the contract's `domainEvent` union; the database keeps them as text and JSON
-- so a new event type needs no migration. No foreign key: an event must never lock or block the rows of the
-- fact that writes it.
-- A dispatcher claims undispatched rows (`FOR UPDATE SKIP LOCKED`, oldest first), may lease them
-- (`claimed_until`, `attempts`) and marks each done with `dispatched_at`.
CREATE TABLE domain_events (
	id bigserial PRIMARY KEY,
	type text NOT NULL,
	customer_id integer,
	payload jsonb NOT NULL,
	occurred_at timestamptz NOT NULL,
	claimed_until timestamptz,
	attempts integer NOT NULL DEFAULT 0,
	dispatched_at timestamptz
);
--> statement-breakpoint
CREATE INDEX domain_events_undispatched_idx ON domain_events (id) WHERE dispatched_at IS NULL;
--> statement-breakpoint
CREATE INDEX domain_events_customer_idx ON domain_events (customer_id, id);
