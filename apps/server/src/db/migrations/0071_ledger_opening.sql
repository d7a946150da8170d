-- Opening entries (docs/rules/ledger.md, ADR 0206): a database with money facts from before the ledger gets one
-- entry that brings every account to what the other tables say it holds, so the books balance and the
-- invariants hold from the first posting on. Receivables are the unpaid lines of the bills, merchant payables
-- the sales not refunded, points liability the customers' point balances, customer payables the repaid
-- refunds and autopay surpluses owed back; the difference is the opening balance (equity). Each amount is what
-- the account should hold minus what the ledger already holds for it, so facts posted since the ledger's
-- tables appeared are not counted twice. A fresh database gets no entry.
WITH target (kind, owner_id, amount) AS (
	SELECT 'CUSTOMER_RECEIVABLE', customer_id, sum(price)::bigint FROM purchases WHERE status = 'UNPAID'
		GROUP BY customer_id
	UNION ALL
	SELECT 'MERCHANT_PAYABLE', merchant_id, -sum(total_price)::bigint FROM purchases WHERE status <> 'REFUNDED'
		GROUP BY merchant_id
	UNION ALL
	SELECT 'POINTS_LIABILITY', 0, -sum(point_balance)::bigint FROM customers
	UNION ALL
	SELECT 'CUSTOMER_PAYABLE', customer_id, -sum(amount)::bigint FROM refund_payouts GROUP BY customer_id
	UNION ALL
	SELECT 'CUSTOMER_PAYABLE', customer_id, -sum(surplus)::bigint FROM autopay_attempts
		WHERE surplus > 0 AND surplus_refunded_at IS NULL GROUP BY customer_id
), held AS (
	SELECT account_kind AS kind, owner_id, sum(amount)::bigint AS amount FROM ledger_lines
		WHERE account_kind IN ('CUSTOMER_RECEIVABLE', 'MERCHANT_PAYABLE', 'POINTS_LIABILITY', 'CUSTOMER_PAYABLE')
		GROUP BY 1, 2
), opening AS (
	SELECT kind, owner_id, sum(amount)::bigint AS amount FROM (
		SELECT kind, owner_id, amount FROM target WHERE amount IS NOT NULL
		UNION ALL
		SELECT kind, owner_id, -amount FROM held
	) AS moves GROUP BY 1, 2 HAVING sum(amount) <> 0
), lines AS (
	SELECT kind, owner_id, amount FROM opening
	UNION ALL
	SELECT 'OPENING_BALANCE', 0, -sum(amount)::bigint FROM opening HAVING sum(amount) <> 0
), opened AS (
	INSERT INTO ledger_accounts (kind, owner_id) SELECT DISTINCT kind, owner_id FROM lines ON CONFLICT DO NOTHING
), entry AS (
	INSERT INTO ledger_entries (source_kind, source_id, posted_at)
	SELECT 'opening', 'ledger-introduced', now() WHERE EXISTS (SELECT 1 FROM lines)
	RETURNING id
)
INSERT INTO ledger_lines (entry_id, account_kind, owner_id, amount)
SELECT entry.id, lines.kind, lines.owner_id, lines.amount FROM entry CROSS JOIN lines;
