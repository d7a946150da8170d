-- A transaction that calls pg_notify takes a cluster-wide lock when it commits and keeps it through its commit
-- record's disk flush, so notifying transactions commit one at a time and never share a flush. Every final
-- notified twice (its domain events, its request turning PAID), which capped finals at one per flush of the
-- disk (ADR 0139). The final's transaction now notifies nothing: the dispatcher wakes in the process that
-- committed the events and polls for the rest, and announces PAID from the payment's event itself.
DROP TRIGGER domain_events_recorded_notify ON domain_events;
--> statement-breakpoint
DROP FUNCTION domain_events_recorded_notify();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payment_requests_status_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('payment_request_status', new_rows.id::text)
	FROM new_rows JOIN old_rows ON old_rows.id = new_rows.id
	WHERE old_rows.status IS DISTINCT FROM new_rows.status AND new_rows.status <> 'PAID';
	RETURN NULL;
END $$;
