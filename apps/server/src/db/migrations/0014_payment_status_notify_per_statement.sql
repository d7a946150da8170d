-- Live status (merchant SSE, migration 0003) notifies once per statement instead of once per row: a batch of
-- finals (or the expiry sweep) changes many requests in one UPDATE, and a row trigger cost a plpgsql call and a
-- query per row. (A trigger with transition tables cannot name its columns, so it fires on every UPDATE and
-- picks the rows whose status changed.)
DROP TRIGGER payment_requests_status_notify ON payment_requests;
--> statement-breakpoint
DROP FUNCTION payment_request_status_notify();
--> statement-breakpoint
CREATE FUNCTION payment_requests_status_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('payment_request_status', new_rows.id::text)
	FROM new_rows JOIN old_rows ON old_rows.id = new_rows.id
	WHERE old_rows.status IS DISTINCT FROM new_rows.status;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER payment_requests_status_notify AFTER UPDATE ON payment_requests
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION payment_requests_status_notify();
