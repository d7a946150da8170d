-- Two money and retention gaps closed (docs/rules/ledger.md, docs/rules/webhooks.md; ADRs 0240, 0241).
--
-- 1원 인증 deposits post to the ledger. Each code the product sends is a won that leaves its bank: it is the
-- product's cost of proving a customer owns an account, a new expense account of the product (owner 0). The
-- deposit posts from `account.verification_deposited`, recorded in the transaction that records the code (the
-- row the reconciliation books the deposit from), and a deposit the bank refused is reversed by
-- `account.verification_refused`, recorded with the row's `NOT_DELIVERED`. Each is named by the code's row, so
-- a code posts at most once each way, whatever is retried.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
--> statement-breakpoint
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind IN ('CUSTOMER_RECEIVABLE',
	'CUSTOMER_PAYABLE', 'MERCHANT_PAYABLE', 'POINTS_LIABILITY', 'POINTS_EXPENSE', 'FEE_REVENUE', 'BANK_CLEARING',
	'OPENING_BALANCE', 'VERIFICATION_EXPENSE'));
--> statement-breakpoint
INSERT INTO ledger_accounts (kind) VALUES ('VERIFICATION_EXPENSE');
--> statement-breakpoint
-- The posting trigger's `ledger_lines_of` answers the verification events and asks the function it replaces
-- (0078's, kept under a new name) for every other event, so no earlier rule is copied.
ALTER FUNCTION ledger_lines_of(text, jsonb) RENAME TO ledger_lines_of_settled_facts;
--> statement-breakpoint
CREATE FUNCTION ledger_lines_of(event_type text, p jsonb)
RETURNS TABLE (source_kind text, source_id text, account_kind text, owner_id integer, amount bigint)
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	CASE event_type
	WHEN 'account.verification_deposited' THEN
		RETURN QUERY SELECT 'verification-deposit', p ->> 'verificationId', v.k, v.o, v.a FROM (VALUES
			('VERIFICATION_EXPENSE', 0, (p ->> 'amount')::bigint),
			('BANK_CLEARING', 0, -(p ->> 'amount')::bigint)) AS v (k, o, a);
	WHEN 'account.verification_refused' THEN
		RETURN QUERY SELECT 'verification-deposit-refused', p ->> 'verificationId', v.k, v.o, v.a FROM (VALUES
			('BANK_CLEARING', 0, (p ->> 'amount')::bigint),
			('VERIFICATION_EXPENSE', 0, -(p ->> 'amount')::bigint)) AS v (k, o, a);
	ELSE
		RETURN QUERY SELECT * FROM ledger_lines_of_settled_facts(event_type, p);
	END CASE;
END $$;
--> statement-breakpoint
-- The codes sent before this migration left their won too: one entry posts them (every code the bank did not
-- refuse, as the reconciliation books them), so the expense agrees with the codes from the start. A database
-- without such codes gets no entry.
WITH sent AS (
	SELECT count(*)::bigint AS won FROM account_verifications WHERE status <> 'NOT_DELIVERED'
), entry AS (
	INSERT INTO ledger_entries (source_kind, source_id, posted_at)
	SELECT 'opening', 'verification-deposits', now() FROM sent WHERE won > 0
	RETURNING id
)
INSERT INTO ledger_lines (entry_id, account_kind, owner_id, amount)
SELECT entry.id, v.kind, 0, v.amount FROM entry CROSS JOIN sent
CROSS JOIN LATERAL (VALUES ('VERIFICATION_EXPENSE', sent.won), ('BANK_CLEARING', -sent.won)) AS v (kind, amount);
--> statement-breakpoint
-- Webhook deliveries that are over (delivered, or given up) are pruned by the daily prune after their
-- retention, oldest first in batches: this index finds them by status and last attempt without reading the
-- pending ones, which are never pruned.
CREATE INDEX "webhook_deliveries_settled_idx" ON "webhook_deliveries" ("status", "last_attempt_at", "id")
	WHERE "status" IN ('SUCCEEDED', 'FAILED');
--> statement-breakpoint
-- An event is pruned once no delivery refers to it; this index answers that (and the foreign key's check on
-- each removal) without reading every delivery.
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" ("event_id");
