-- The notification center (docs/rules/notifications.md): one row per notice a customer sees. `dedupe_key`
-- makes each notice happen once however often its source is dispatched (an event id, a reminder's statement
-- and day, a creator's hour). `push_due_at` is when a push may go out (quiet hours move it to the morning).
CREATE TABLE notifications (
	id bigserial PRIMARY KEY,
	customer_id integer NOT NULL REFERENCES customers(id),
	dedupe_key text NOT NULL,
	kind text NOT NULL,
	category text NOT NULL,
	title text NOT NULL,
	body text NOT NULL,
	link text NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now(),
	read_at timestamptz,
	push_due_at timestamptz,
	pushed_at timestamptz,
	CONSTRAINT notifications_category CHECK (category IN ('billing', 'community', 'benefit'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX notifications_dedupe_key ON notifications (dedupe_key);
--> statement-breakpoint
CREATE INDEX notifications_customer_idx ON notifications (customer_id, id DESC);
--> statement-breakpoint
CREATE INDEX notifications_unread_idx ON notifications (customer_id) WHERE read_at IS NULL;
--> statement-breakpoint
CREATE INDEX notifications_push_due_idx ON notifications (push_due_at) WHERE pushed_at IS NULL AND push_due_at IS NOT NULL;
--> statement-breakpoint
CREATE INDEX notifications_created_idx ON notifications (created_at);
--> statement-breakpoint
-- Live delivery: one notification per inserting statement and customer, so every instance's open streams
-- of that customer read the new rows (the payload is the customer id; nothing else leaves the database).
CREATE FUNCTION notifications_created_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('notice_created', c.customer_id::text)
	FROM (SELECT DISTINCT customer_id FROM new_rows) c;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER notifications_created_notify AFTER INSERT ON notifications
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION notifications_created_notify();
--> statement-breakpoint
CREATE TABLE notification_preferences (
	customer_id integer PRIMARY KEY REFERENCES customers(id),
	billing_push boolean NOT NULL DEFAULT true,
	community_in_app boolean NOT NULL DEFAULT true,
	community_push boolean NOT NULL DEFAULT true,
	benefit_in_app boolean NOT NULL DEFAULT true,
	benefit_push boolean NOT NULL DEFAULT true,
	quiet_hours boolean NOT NULL DEFAULT true,
	quiet_start smallint NOT NULL DEFAULT 1260,
	quiet_end smallint NOT NULL DEFAULT 480,
	updated_at timestamptz NOT NULL DEFAULT now(),
	CONSTRAINT notification_preferences_minutes CHECK (quiet_start BETWEEN 0 AND 1439 AND quiet_end BETWEEN 0 AND 1439)
);
--> statement-breakpoint
-- Web Push subscriptions, one per device (endpoint); removed when the push service answers 404/410.
CREATE TABLE push_subscriptions (
	id serial PRIMARY KEY,
	customer_id integer NOT NULL REFERENCES customers(id),
	endpoint text NOT NULL,
	p256dh text NOT NULL,
	auth text NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX push_subscriptions_endpoint_key ON push_subscriptions (endpoint);
--> statement-breakpoint
CREATE INDEX push_subscriptions_customer_idx ON push_subscriptions (customer_id);
