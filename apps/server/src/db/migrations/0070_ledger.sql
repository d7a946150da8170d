-- The double-entry ledger (docs/rules/ledger.md, ADR 0205): one book of every won and point the product owes
-- or is owed. An account is a kind and an owner (a customer, a merchant, or 0 for the product's own
-- accounts). A journal entry is one money fact, named by its source (kind + id) and unique on it, so a fact
-- that is retried never posts twice; its lines carry signed won, debit positive and credit negative, one line
-- per account. The database itself holds every entry to a zero sum (a deferred constraint trigger checks each
-- entry at commit) and keeps entries and lines immutable.
--
-- Posting is a consumer of the domain events each money fact records in its own transaction: a statement
-- trigger on `domain_events` turns the events one statement inserted into entries, in that same statement's
-- transaction. No fact's code posts, and no money rule is computed here: every amount is read from the event.
CREATE TABLE ledger_accounts (
	kind text NOT NULL CHECK (kind IN ('CUSTOMER_RECEIVABLE', 'CUSTOMER_PAYABLE', 'MERCHANT_PAYABLE',
		'POINTS_LIABILITY', 'POINTS_EXPENSE', 'FEE_REVENUE', 'BANK_CLEARING', 'OPENING_BALANCE')),
	owner_id integer NOT NULL DEFAULT 0,
	PRIMARY KEY (kind, owner_id)
);
--> statement-breakpoint
INSERT INTO ledger_accounts (kind) VALUES
	('POINTS_LIABILITY'), ('POINTS_EXPENSE'), ('FEE_REVENUE'), ('BANK_CLEARING'), ('OPENING_BALANCE');
--> statement-breakpoint
CREATE TABLE ledger_entries (
	id bigserial PRIMARY KEY,
	source_kind text NOT NULL,
	source_id text NOT NULL,
	-- The domain event it was posted from (events are pruned, so no foreign key); null for an opening entry.
	event_id bigint,
	posted_at timestamp with time zone NOT NULL,
	CONSTRAINT ledger_entries_source_key UNIQUE (source_kind, source_id)
);
--> statement-breakpoint
CREATE TABLE ledger_lines (
	entry_id bigint NOT NULL REFERENCES ledger_entries (id),
	account_kind text NOT NULL,
	owner_id integer NOT NULL,
	amount bigint NOT NULL CHECK (amount <> 0),
	PRIMARY KEY (entry_id, account_kind, owner_id),
	FOREIGN KEY (account_kind, owner_id) REFERENCES ledger_accounts (kind, owner_id)
);
--> statement-breakpoint
-- An account's balance, and the trial balance by kind, read from this index alone.
CREATE INDEX ledger_lines_account_idx ON ledger_lines (account_kind, owner_id) INCLUDE (amount);
--> statement-breakpoint
CREATE FUNCTION ledger_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	total bigint;
BEGIN
	SELECT coalesce(sum(amount), 0) INTO total FROM ledger_lines WHERE entry_id = NEW.entry_id;
	IF total <> 0 THEN
		RAISE EXCEPTION 'ledger entry % does not balance: its lines sum to %', NEW.entry_id, total
			USING ERRCODE = 'check_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- Checked at commit, once every line of the transaction is in, whoever wrote them.
CREATE CONSTRAINT TRIGGER ledger_lines_balanced AFTER INSERT ON ledger_lines
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_balanced();
--> statement-breakpoint
CREATE FUNCTION ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME
		USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries
	FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
--> statement-breakpoint
CREATE TRIGGER ledger_lines_immutable BEFORE UPDATE OR DELETE ON ledger_lines
	FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
--> statement-breakpoint
-- The lines of one recorded event (docs/rules/ledger.md, "Postings"): its source and signed amounts, every
-- amount read from the event's payload (packages/contract/src/domain-events.ts). Zero amounts are dropped by
-- the caller. Events that move no money give no rows. Points used, earned, returned and taken back by a
-- payment or a refund are lines of that payment's or refund's entry; every other point movement (check-in,
-- watching) is an entry of its own, the product's marketing expense.
CREATE FUNCTION ledger_lines_of(event_type text, p jsonb)
RETURNS TABLE (source_kind text, source_id text, account_kind text, owner_id integer, amount bigint)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	customer integer := (p ->> 'customerId')::integer;
	attempt text := (p ->> 'customerId') || ':' || (p ->> 'month') || ':' || (p ->> 'date');
BEGIN
	CASE event_type
	WHEN 'payment.completed' THEN
		RETURN QUERY SELECT 'payment', p ->> 'paymentId', v.k, v.o, v.a FROM (VALUES
			('CUSTOMER_RECEIVABLE', customer, (p ->> 'price')::bigint),
			('POINTS_LIABILITY', 0, (p ->> 'pointUsed')::bigint - (p ->> 'pointEarned')::bigint),
			('POINTS_EXPENSE', 0, (p ->> 'pointEarned')::bigint),
			('MERCHANT_PAYABLE', (p ->> 'merchantId')::integer, -(p ->> 'totalPrice')::bigint)) AS v (k, o, a);
	WHEN 'payment.refunded' THEN
		-- The sale comes off the merchant's payable in full (what went on the bill and the points used); an
		-- unpaid line leaves the receivable, a repaid one is owed back to the customer (`payout`).
		RETURN QUERY SELECT 'refund', p ->> 'paymentId', v.k, v.o, v.a FROM (VALUES
			('MERCHANT_PAYABLE', (p ->> 'merchantId')::integer,
				(p ->> 'price')::bigint + (p ->> 'pointsReturned')::bigint),
			('CUSTOMER_RECEIVABLE', customer, -((p ->> 'price')::bigint - (p ->> 'payout')::bigint)),
			('CUSTOMER_PAYABLE', customer, -(p ->> 'payout')::bigint),
			('POINTS_LIABILITY', 0, (p ->> 'pointsTakenBack')::bigint - (p ->> 'pointsReturned')::bigint),
			('POINTS_EXPENSE', 0, -(p ->> 'pointsTakenBack')::bigint)) AS v (k, o, a);
	WHEN 'repayment.made' THEN
		RETURN QUERY SELECT 'repayment', p ->> 'repaymentId', v.k, v.o, v.a FROM (VALUES
			('BANK_CLEARING', 0, (p ->> 'amount')::bigint),
			('CUSTOMER_RECEIVABLE', customer, -(p ->> 'amount')::bigint)) AS v (k, o, a);
	WHEN 'autopay.succeeded' THEN
		-- What the bank took beyond the lines still owed is the customer's until the bank gives it back.
		RETURN QUERY SELECT 'autopay-surplus-held', attempt, v.k, v.o, v.a FROM (VALUES
			('BANK_CLEARING', 0, coalesce((p ->> 'surplus')::bigint, 0)),
			('CUSTOMER_PAYABLE', customer, -coalesce((p ->> 'surplus')::bigint, 0))) AS v (k, o, a);
	WHEN 'autopay.surplus_refunded' THEN
		RETURN QUERY SELECT 'autopay-surplus-refunded', attempt, v.k, v.o, v.a FROM (VALUES
			('CUSTOMER_PAYABLE', customer, (p ->> 'amount')::bigint),
			('BANK_CLEARING', 0, -(p ->> 'amount')::bigint)) AS v (k, o, a);
	WHEN 'points.posted' THEN
		IF p ->> 'reason' IN ('PURCHASE_EARN', 'PURCHASE_USE', 'REFUND_USE_RETURN', 'REFUND_EARN_CANCEL') THEN
			RETURN;
		END IF;
		RETURN QUERY SELECT 'points',
			coalesce(p ->> 'key', customer || ':' || (p ->> 'reason') || ':' || (p ->> 'refType') || ':' || (p ->> 'refId')),
			v.k, v.o, v.a FROM (VALUES
			('POINTS_EXPENSE', 0, (p ->> 'amount')::bigint),
			('POINTS_LIABILITY', 0, -(p ->> 'amount')::bigint)) AS v (k, o, a);
	ELSE
		RETURN;
	END CASE;
END $$;
--> statement-breakpoint
-- The consumer: every event one statement recorded, posted in one statement of the same transaction. An
-- account is opened by its first line; a source already posted is skipped whole.
CREATE FUNCTION ledger_post_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	WITH posting AS (
		SELECT e.id AS event_id, e.occurred_at, l.*
		FROM recorded e CROSS JOIN LATERAL ledger_lines_of(e.type, e.payload) AS l
		WHERE l.amount <> 0
	), opened AS (
		INSERT INTO ledger_accounts (kind, owner_id)
		SELECT DISTINCT account_kind, owner_id FROM posting
		ON CONFLICT DO NOTHING
	), entries AS (
		INSERT INTO ledger_entries (source_kind, source_id, event_id, posted_at)
		SELECT DISTINCT ON (source_kind, source_id) source_kind, source_id, event_id, occurred_at
		FROM posting ORDER BY source_kind, source_id, event_id
		ON CONFLICT DO NOTHING
		RETURNING id, event_id, source_kind, source_id
	)
	INSERT INTO ledger_lines (entry_id, account_kind, owner_id, amount)
	SELECT entries.id, posting.account_kind, posting.owner_id, sum(posting.amount)
	FROM posting JOIN entries USING (event_id, source_kind, source_id)
	GROUP BY 1, 2, 3
	HAVING sum(posting.amount) <> 0;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER domain_events_post_ledger AFTER INSERT ON domain_events
	REFERENCING NEW TABLE AS recorded FOR EACH STATEMENT EXECUTE FUNCTION ledger_post_events();
