-- The write half of a payment's final (modules/payments/service.ts, ADR 0108), in one round trip and one
-- statement's transaction. The app reads without locks and decides everything (the rules stay in
-- TypeScript); this function takes the locks in the order of db/tx.ts (the customer, then the request),
-- checks that what the decision was based on still holds, and writes it, or writes nothing and says why:
--   'stale'     the customer's points, grade, suspension or this month's owed amount, or the request, changed
--               since the app read them: the app reads again and decides again;
--   'key_taken' the caller's Idempotency-Key was stored meanwhile (by a concurrent call): its answer stands.
-- Under READ COMMITTED every query of a VOLATILE plpgsql function takes a fresh snapshot, so the owed sum read
-- after the customer lock counts every payment of this customer committed before the lock was granted.
CREATE FUNCTION payment_final_apply(
	p_customer integer, p_request uuid, p_total_price integer, p_now timestamptz, p_kst_date date, p_month text,
	p_seen_balance integer, p_seen_grade_point integer, p_seen_owed bigint,
	p_point_used integer, p_point_earned integer, p_use_reason text, p_earn_reason text,
	p_scope text, p_response jsonb, p_key text, p_request_hash text,
	OUT outcome text, OUT payment_id integer
) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	r payment_requests%ROWTYPE;
	answer jsonb;
BEGIN
	PERFORM 1 FROM customers
		WHERE id = p_customer AND point_balance = p_seen_balance AND grade_point = p_seen_grade_point AND NOT suspended
		FOR UPDATE;
	IF NOT FOUND THEN outcome := 'stale'; RETURN; END IF;
	SELECT * INTO r FROM payment_requests
		WHERE id = p_request AND status = 'ACTIVE' AND reserved_by = p_customer AND expires_at > p_now
			AND total_price = p_total_price
		FOR UPDATE;
	IF NOT FOUND THEN outcome := 'stale'; RETURN; END IF;
	IF (SELECT coalesce(sum(price), 0) FROM purchases
			WHERE customer_id = p_customer AND statement_month = p_month AND status = 'UNPAID') <> p_seen_owed THEN
		outcome := 'stale'; RETURN;
	END IF;

	payment_id := nextval(pg_get_serial_sequence('purchases', 'id'));
	answer := p_response || jsonb_build_object('paymentId', payment_id);
	-- The caller's key first: if a concurrent call stored it, nothing else is written.
	IF p_key IS NOT NULL THEN
		INSERT INTO idempotency_keys (customer_id, scope, key, response, request_hash, created_at)
			VALUES (p_customer, p_scope, p_key, answer, p_request_hash, p_now) ON CONFLICT DO NOTHING;
		IF NOT FOUND THEN outcome := 'key_taken'; payment_id := NULL; RETURN; END IF;
	END IF;
	-- The answer under the request, for replays of this final.
	INSERT INTO idempotency_keys (customer_id, scope, key, response, created_at)
		VALUES (p_customer, p_scope, 'request:' || p_request, answer, p_now) ON CONFLICT DO NOTHING;
	-- The month's statement, opened or reopened (as `ensureStatement`).
	INSERT INTO statements (customer_id, month) VALUES (p_customer, p_month)
		ON CONFLICT (customer_id, month) DO UPDATE SET paid_at = NULL WHERE statements.paid_at IS NOT NULL;
	UPDATE payment_requests SET status = 'PAID', paid_at = p_now, closed_at = p_now WHERE id = p_request;
	INSERT INTO purchases (id, customer_id, merchant_id, request_id, request_name, total_price, point_used, price,
			point_earned, statement_month, created_at)
		VALUES (payment_id, p_customer, r.merchant_id, r.id, r.request_name, r.total_price, p_point_used,
			r.total_price - p_point_used, p_point_earned, p_month, p_now);
	-- Points as `postPoints` posts them: one ledger row per movement, and the balance moved by exactly those rows.
	IF p_point_used > 0 THEN
		INSERT INTO point_ledger (customer_id, amount, reason, ref_type, ref_id, kst_date, idempotency_key, created_at)
			VALUES (p_customer, -p_point_used, p_use_reason, 'purchase', payment_id::text, p_kst_date,
				'purchase:' || payment_id || ':use', p_now);
	END IF;
	IF p_point_earned > 0 THEN
		INSERT INTO point_ledger (customer_id, amount, reason, ref_type, ref_id, kst_date, idempotency_key, created_at)
			VALUES (p_customer, p_point_earned, p_earn_reason, 'purchase', payment_id::text, p_kst_date,
				'purchase:' || payment_id || ':earn', p_now);
	END IF;
	IF p_point_used > 0 OR p_point_earned > 0 THEN
		UPDATE customers SET point_balance = point_balance - p_point_used + p_point_earned WHERE id = p_customer;
	END IF;
	outcome := 'applied';
END $$;
