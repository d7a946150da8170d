-- Validate's read for many validates in one statement (modules/payments/validate-store.ts, ADR 0109), as
-- `payment_final_read_batch` does for finals: validates that arrive together share one statement.
-- For each item (a customer, the code type and code, the time, the KST month, and the two failed-code counters
-- that limit it) it answers whether either counter is at its limit, the customer's suspension, points, grade
-- and owed amount, and the request the code points at if this customer already holds it (active, unexpired),
-- as JSON. A missing customer has no row. The counters are checked as `anyOverSql` (lib/rate-limit.ts)
-- checks them; the owed amount is counted as `owedSql` (modules/bills/statements.ts) counts it.
CREATE FUNCTION payment_validate_read_batch(
	p_customers integer[], p_code_types text[], p_codes text[], p_nows timestamptz[], p_months text[],
	p_fail_keys text[], p_fail_starts timestamptz[], p_ip_keys text[], p_ip_starts timestamptz[],
	p_fail_limit integer, p_ip_limit integer
) RETURNS TABLE (
	item integer, over boolean, suspended boolean, point_balance integer, grade_point integer, owed bigint,
	held json
) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
	RETURN QUERY
	SELECT i.n::integer,
		EXISTS (SELECT 1 FROM rate_limit_counters k
			WHERE (k.key = i.ip_key AND k.window_start = i.ip_start AND k.count >= p_ip_limit)
				OR (k.key = i.fail_key AND k.window_start = i.fail_start AND k.count >= p_fail_limit)),
		c.suspended, c.point_balance, c.grade_point,
		(SELECT coalesce(sum(p.price), 0) FROM purchases p
			WHERE p.customer_id = i.customer AND p.statement_month = i.month AND p.status = 'UNPAID')::bigint,
		coalesce(
			(SELECT json_build_object('id', r.id, 'requestName', r.request_name, 'totalPrice', r.total_price,
					'expiresAt', r.expires_at)
				FROM payment_requests r
				WHERE i.code_type = 'pincode' AND r.pin_code = i.code AND r.status = 'ACTIVE'
					AND r.expires_at > i.now AND r.reserved_by = i.customer LIMIT 1),
			(SELECT json_build_object('id', r.id, 'requestName', r.request_name, 'totalPrice', r.total_price,
					'expiresAt', r.expires_at)
				FROM payment_requests r
				WHERE i.code_type = 'qrcode' AND r.qr_token = i.code AND r.status = 'ACTIVE'
					AND r.expires_at > i.now AND r.reserved_by = i.customer LIMIT 1))
	FROM unnest(p_customers, p_code_types, p_codes, p_nows, p_months, p_fail_keys, p_fail_starts, p_ip_keys,
			p_ip_starts)
		WITH ORDINALITY AS i(customer, code_type, code, now, month, fail_key, fail_start, ip_key, ip_start, n)
	JOIN customers c ON c.id = i.customer;
END $$;
