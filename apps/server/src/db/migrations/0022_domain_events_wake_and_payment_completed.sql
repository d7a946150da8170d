-- Wakes the notification dispatcher of every instance when events are recorded (one notification per
-- inserting statement, delivered at commit, so never for a rolled-back fact). The payload is empty: the
-- dispatcher claims what is undispatched.
CREATE FUNCTION domain_events_recorded_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('domain_events_recorded', '');
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER domain_events_recorded_notify AFTER INSERT ON domain_events
	FOR EACH STATEMENT EXECUTE FUNCTION domain_events_recorded_notify();
--> statement-breakpoint
-- payment.completed for every new purchase, in the final's own transaction: the final's write is one
-- PostgreSQL function (migrations 0011/0012), so the event is recorded beside it by the database. When the
-- final records payment.completed itself, this trigger is dropped; until then the notice is keyed by the
-- payment, so an event recorded twice still gives one notice.
CREATE FUNCTION purchases_payment_completed_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO domain_events (type, customer_id, payload, occurred_at)
	SELECT 'payment.completed', p.customer_id, jsonb_build_object(
		'type', 'payment.completed', 'customerId', p.customer_id, 'paymentId', p.id, 'requestId', p.request_id,
		'merchantId', p.merchant_id, 'requestName', p.request_name, 'totalPrice', p.total_price,
		'pointUsed', p.point_used, 'price', p.price, 'pointEarned', p.point_earned, 'month', p.statement_month),
		p.created_at
	FROM new_rows p ORDER BY p.id;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER purchases_payment_completed_event AFTER INSERT ON purchases
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION purchases_payment_completed_event();
