-- Web Push per device (docs/rules/notifications.md#N6): a notice whose push is due is handed to one
-- delivery per device of its customer. A delivery is deleted after its attempt succeeded (or the device is
-- gone); a failed one waits until `next_attempt_at` (back-off) and counts its `attempts`, and a device whose
-- delivery failed every try is dropped. One device's failure never touches another's delivery.
CREATE TABLE push_deliveries (
	notice_id bigint NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
	subscription_id integer NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
	attempts smallint NOT NULL DEFAULT 0,
	next_attempt_at timestamptz NOT NULL,
	PRIMARY KEY (notice_id, subscription_id)
);
--> statement-breakpoint
CREATE INDEX push_deliveries_next_attempt_idx ON push_deliveries (next_attempt_at);
--> statement-breakpoint
CREATE INDEX push_deliveries_subscription_idx ON push_deliveries (subscription_id);
