-- Payment finals in batches (modules/payments/final-store.ts, ADR 0109): the read each final decides on, and
-- the write of what it decided, each for many finals in one statement. They replace `payment_final_apply`
-- (migration 0011), which wrote one payment: finals that are ready at the same time are read together and
-- written together (one statement, one commit), so the database's per-statement and per-commit work is shared.
--
-- Both run their queries with generic plans (`plan_cache_mode`): the items arrive as arrays, and with a custom
-- plan PostgreSQL would plan every query again for each array length, which cost more than running them.
DROP FUNCTION payment_final_apply(integer, uuid, integer, timestamptz, date, text, integer, integer, bigint,
	integer, integer, text, text, text, jsonb, text, text);
--> statement-breakpoint
-- The read, without locks: for each item (a customer, a request, the KST month whose unpaid lines count, the
-- caller's key) the customer's suspension, points, grade and owed amount, the request, and the answers stored
-- for the request's final and under the caller's key. A missing customer has no row.
CREATE FUNCTION payment_final_read_batch(
	p_customers integer[], p_requests uuid[], p_months text[], p_caller_keys text[], p_scope text
) RETURNS TABLE (
	item integer, suspended boolean, point_balance integer, grade_point integer, owed bigint, status text,
	reserved_by integer, expires_at timestamptz, total_price integer, request_answer json, caller_answer json
) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
	RETURN QUERY
	SELECT i.n::integer, c.suspended, c.point_balance, c.grade_point,
		-- What is owed as `owedSql` (modules/bills/statements.ts) counts it.
		(SELECT coalesce(sum(p.price), 0) FROM purchases p
			WHERE p.customer_id = i.customer AND p.statement_month = i.month AND p.status = 'UNPAID')::bigint,
		r.status, r.reserved_by, r.expires_at, r.total_price,
		(SELECT json_build_object('response', k.response, 'requestHash', k.request_hash) FROM idempotency_keys k
			WHERE k.customer_id = i.customer AND k.scope = p_scope AND k.key = 'request:' || i.request),
		(SELECT json_build_object('response', k.response, 'requestHash', k.request_hash) FROM idempotency_keys k
			WHERE k.customer_id = i.customer AND k.scope = p_scope AND k.key = i.caller_key)
	FROM unnest(p_customers, p_requests, p_months, p_caller_keys) WITH ORDINALITY AS i(customer, request, month, caller_key, n)
	JOIN customers c ON c.id = i.customer
	LEFT JOIN payment_requests r ON r.id = i.request;
END $$;
--> statement-breakpoint
-- The write. For each item (what the app read and decided for one final: the rules stay in TypeScript) it checks
-- that what the decision was based on still holds, and writes that payment, or writes nothing for it and says
-- why (the other items are unaffected):
--   'stale'     the customer's points, grade, suspension or this month's owed amount, or the request, changed
--               since the app read them (or an earlier item of the same call is the same customer's): the app
--               reads again and decides again;
--   'key_taken' the caller's Idempotency-Key was stored meanwhile (by a concurrent call): its answer stands.
-- Locks follow db/tx.ts: all the items' customers in ascending id, then their requests in ascending id. Under
-- READ COMMITTED every query of a VOLATILE plpgsql function takes a fresh snapshot, so the checks, run after
-- the locks are granted, see every payment of these customers committed before.
CREATE FUNCTION payment_final_apply_batch(
	p_customers integer[], p_requests uuid[], p_total_prices integer[], p_nows timestamptz[], p_kst_dates date[],
	p_months text[], p_seen_balances integer[], p_seen_grade_points integer[], p_seen_owed bigint[],
	p_points_used integer[], p_points_earned integer[], p_responses jsonb[], p_keys text[], p_request_hashes text[],
	p_use_reason text, p_earn_reason text, p_scope text
) RETURNS TABLE (item integer, outcome text, payment_id integer)
LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
	ok integer[];   -- the items (1-based) that are written, ascending
	ids integer[];  -- their purchase ids, in the same order
	taken integer[];
BEGIN
	PERFORM 1 FROM customers WHERE id = ANY (p_customers) ORDER BY id FOR UPDATE;
	PERFORM 1 FROM payment_requests WHERE id = ANY (p_requests) ORDER BY id FOR UPDATE;
	-- The items still as read, each with the id its purchase will have. Each row is looked up by its key alone
	-- (OFFSET 0 keeps the conditions out of the lookups): a generic plan could otherwise walk the partial index
	-- of all ACTIVE requests for every item.
	SELECT coalesce(array_agg(i.n ORDER BY i.n), '{}'),
		coalesce(array_agg(nextval(pg_get_serial_sequence('purchases', 'id')) ORDER BY i.n), '{}')
		INTO ok, ids
	FROM unnest(p_customers, p_requests, p_total_prices, p_nows, p_months, p_seen_balances, p_seen_grade_points,
			p_seen_owed)
		WITH ORDINALITY AS i(customer, request, total_price, now, month, seen_balance, seen_grade_point, seen_owed, n)
	CROSS JOIN LATERAL (SELECT * FROM customers WHERE id = i.customer OFFSET 0) c
	CROSS JOIN LATERAL (SELECT * FROM payment_requests WHERE id = i.request OFFSET 0) r
	WHERE c.point_balance = i.seen_balance AND c.grade_point = i.seen_grade_point AND NOT c.suspended
		AND r.status = 'ACTIVE' AND r.reserved_by = i.customer AND r.expires_at > i.now
		AND r.total_price = i.total_price
		AND NOT EXISTS (
			SELECT 1 FROM unnest(p_customers) WITH ORDINALITY AS e(customer, n) WHERE e.customer = i.customer AND e.n < i.n)
		AND (SELECT coalesce(sum(price), 0) FROM purchases
			WHERE customer_id = i.customer AND statement_month = i.month AND status = 'UNPAID') = i.seen_owed;

	-- The callers' keys first: an item whose key a concurrent call stored writes nothing else. (Statements with
	-- nothing to write are skipped: each costs an executor start even when it writes no row.)
	taken := '{}';
	IF array_remove(p_keys, NULL) <> '{}' THEN
		WITH stored AS (
			INSERT INTO idempotency_keys (customer_id, scope, key, response, request_hash, created_at)
			SELECT p_customers[o.n], p_scope, p_keys[o.n], p_responses[o.n] || jsonb_build_object('paymentId', o.id),
				p_request_hashes[o.n], p_nows[o.n]
			FROM unnest(ok, ids) AS o(n, id) WHERE p_keys[o.n] IS NOT NULL
			ON CONFLICT DO NOTHING RETURNING customer_id
		)
		SELECT coalesce(array_agg(o.n), '{}') INTO taken FROM unnest(ok) AS o(n)
		WHERE p_keys[o.n] IS NOT NULL AND p_customers[o.n] NOT IN (SELECT customer_id FROM stored);
	END IF;
	IF cardinality(taken) > 0 THEN
		SELECT coalesce(array_agg(o.n ORDER BY o.n), '{}'), coalesce(array_agg(o.id ORDER BY o.n), '{}') INTO ok, ids
		FROM unnest(ok, ids) AS o(n, id) WHERE o.n <> ALL (taken);
	END IF;

	-- The answer under each request, for replays of its final.
	INSERT INTO idempotency_keys (customer_id, scope, key, response, created_at)
	SELECT p_customers[o.n], p_scope, 'request:' || p_requests[o.n],
		p_responses[o.n] || jsonb_build_object('paymentId', o.id), p_nows[o.n]
	FROM unnest(ok, ids) AS o(n, id) ON CONFLICT DO NOTHING;
	-- The month's statement, opened or reopened (as `ensureStatement`).
	INSERT INTO statements (customer_id, month) SELECT p_customers[o.n], p_months[o.n] FROM unnest(ok) AS o(n)
		ON CONFLICT (customer_id, month) DO UPDATE SET paid_at = NULL WHERE statements.paid_at IS NOT NULL;
	UPDATE payment_requests r SET status = 'PAID', paid_at = p_nows[o.n], closed_at = p_nows[o.n]
		FROM unnest(ok) AS o(n) WHERE r.id = p_requests[o.n];
	INSERT INTO purchases (id, customer_id, merchant_id, request_id, request_name, total_price, point_used, price,
			point_earned, statement_month, created_at)
	SELECT o.id, p_customers[o.n], r.merchant_id, r.id, r.request_name, r.total_price, p_points_used[o.n],
		r.total_price - p_points_used[o.n], p_points_earned[o.n], p_months[o.n], p_nows[o.n]
	FROM unnest(ok, ids) AS o(n, id) JOIN payment_requests r ON r.id = p_requests[o.n]
	ORDER BY o.n;
	-- Points as `postPoints` posts them: one ledger row per movement (use, then earn), and each balance moved
	-- by exactly its rows.
	IF array_remove(p_points_used, 0) <> '{}' OR array_remove(p_points_earned, 0) <> '{}' THEN
		INSERT INTO point_ledger (customer_id, amount, reason, ref_type, ref_id, kst_date, idempotency_key, created_at)
		SELECT p_customers[o.n], m.amount, m.reason, 'purchase', o.id::text, p_kst_dates[o.n],
			'purchase:' || o.id || m.suffix, p_nows[o.n]
		FROM unnest(ok, ids) AS o(n, id)
		CROSS JOIN LATERAL (VALUES (1, -p_points_used[o.n], p_use_reason, ':use'),
			(2, p_points_earned[o.n], p_earn_reason, ':earn')) AS m(step, amount, reason, suffix)
		WHERE m.amount <> 0
		ORDER BY o.n, m.step;
		UPDATE customers c SET point_balance = c.point_balance - p_points_used[o.n] + p_points_earned[o.n]
		FROM unnest(ok) AS o(n)
		WHERE c.id = p_customers[o.n] AND (p_points_used[o.n] > 0 OR p_points_earned[o.n] > 0);
	END IF;

	RETURN QUERY
	SELECT a.n, CASE WHEN a.n = ANY (ok) THEN 'applied' WHEN a.n = ANY (taken) THEN 'key_taken' ELSE 'stale' END,
		ids[array_position(ok, a.n)]
	FROM generate_series(1, cardinality(p_customers)) AS a(n);
END $$;
