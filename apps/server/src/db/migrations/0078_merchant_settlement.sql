-- Merchant settlement and payouts (docs/rules/settlement.md, ADRs 0228–0230). Each merchant has a fee rate
-- (basis points) and a cycle (paid D+N business days after the KST day it sold), and a settlement account
-- set by one operator and verified by another. A settlement closes one merchant's KST day: its lines are the
-- sales and refunds of that day (each sale and each refund settled exactly once, by the lines' primary key),
-- its amounts fixed at close (a negative net is carried into the next settlement), and its payout made once
-- through the bank under the settlement's own key. The fee and the payout post to the ledger from the events
-- `settlement.closed` and `settlement.paid` (ledger_lines_of below), in their facts' transactions.
ALTER TABLE "merchants"
	ADD COLUMN "fee_bps" integer NOT NULL DEFAULT 250 CHECK ("fee_bps" BETWEEN 0 AND 10000),
	ADD COLUMN "settlement_days" integer NOT NULL DEFAULT 1 CHECK ("settlement_days" BETWEEN 1 AND 10),
	ADD COLUMN "settlement_bank" text,
	ADD COLUMN "settlement_account" text,
	ADD COLUMN "settlement_account_set_by" integer,
	ADD COLUMN "settlement_account_verified_at" timestamp with time zone,
	ADD COLUMN "settlement_account_verified_by" integer;
--> statement-breakpoint
-- RISK holds a merchant's payouts with a reason and releases them; one hold open at a time, kept for good.
CREATE TABLE "merchant_payout_holds" (
	"id" serial PRIMARY KEY,
	"merchant_id" integer NOT NULL REFERENCES "merchants" ("id"),
	"reason" text NOT NULL,
	"held_by" integer,
	"held_at" timestamp with time zone NOT NULL,
	"released_by" integer,
	"released_at" timestamp with time zone,
	"release_reason" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_payout_holds_open_key" ON "merchant_payout_holds" ("merchant_id")
	WHERE "released_at" IS NULL;
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" serial PRIMARY KEY,
	"merchant_id" integer NOT NULL REFERENCES "merchants" ("id"),
	-- The KST day closed.
	"business_date" date NOT NULL,
	"fee_bps" integer NOT NULL,
	"sales" bigint NOT NULL CHECK ("sales" >= 0),
	"refunds" bigint NOT NULL CHECK ("refunds" >= 0),
	-- Fees charged on the day's sales less the fees given back with its refunds (may be negative).
	"fees" bigint NOT NULL,
	-- The previous settlement's negative net, brought forward (0 when it was not negative).
	"carried_in" bigint NOT NULL CHECK ("carried_in" <= 0),
	"net" bigint NOT NULL,
	"payout" bigint NOT NULL,
	"due_date" date NOT NULL,
	-- PENDING: a payout is owed; PAID: the bank credited it; NO_PAYOUT: the net was not positive.
	"status" text NOT NULL CHECK ("status" IN ('PENDING', 'PAID', 'NO_PAYOUT')),
	"closed_at" timestamp with time zone NOT NULL,
	-- The account the payout goes to, fixed by its first attempt so every retry of the key asks the same.
	"payout_bank" text,
	"payout_account" text,
	"attempts" integer NOT NULL DEFAULT 0,
	"claimed_until" timestamp with time zone,
	"next_try_at" timestamp with time zone,
	"last_result" text,
	"paid_at" timestamp with time zone,
	CONSTRAINT "settlements_merchant_day_key" UNIQUE ("merchant_id", "business_date"),
	CONSTRAINT "settlements_net" CHECK ("net" = "sales" - "refunds" - "fees" + "carried_in"),
	CONSTRAINT "settlements_payout" CHECK ("payout" = greatest("net", 0)),
	CONSTRAINT "settlements_paid" CHECK (("status" = 'PAID') = ("paid_at" IS NOT NULL)),
	CONSTRAINT "settlements_owed" CHECK (("status" = 'NO_PAYOUT') = ("payout" = 0))
);
--> statement-breakpoint
-- The payouts still owed, oldest first.
CREATE INDEX "settlements_pending_idx" ON "settlements" ("due_date", "id") WHERE "status" = 'PENDING';
--> statement-breakpoint
CREATE TABLE "settlement_lines" (
	"settlement_id" integer NOT NULL REFERENCES "settlements" ("id"),
	"kind" text NOT NULL CHECK ("kind" IN ('SALE', 'REFUND')),
	"payment_id" integer NOT NULL REFERENCES "purchases" ("id"),
	"amount" bigint NOT NULL CHECK ("amount" > 0),
	"fee" bigint NOT NULL CHECK ("fee" >= 0),
	"at" timestamp with time zone NOT NULL,
	-- A payment's sale, and its refund, are each in exactly one settlement.
	PRIMARY KEY ("kind", "payment_id")
);
--> statement-breakpoint
CREATE INDEX "settlement_lines_settlement_idx" ON "settlement_lines" ("settlement_id", "at");
--> statement-breakpoint
-- A settlement's amounts are fixed at close, and a settlement that is final (PAID or NO_PAYOUT) never changes;
-- none is ever removed, and lines are append-only. The runtime role also lacks the privilege to update the
-- amounts at all (db/roles.ts), so even a disabled trigger would not let the app rewrite one.
CREATE FUNCTION settlements_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		RAISE EXCEPTION 'settlements are kept for good: DELETE refused' USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF OLD.status <> 'PENDING' THEN
		RAISE EXCEPTION 'settlement % is % and immutable', OLD.id, OLD.status USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF (NEW.merchant_id, NEW.business_date, NEW.fee_bps, NEW.sales, NEW.refunds, NEW.fees, NEW.carried_in, NEW.net,
			NEW.payout, NEW.due_date, NEW.closed_at)
		IS DISTINCT FROM (OLD.merchant_id, OLD.business_date, OLD.fee_bps, OLD.sales, OLD.refunds, OLD.fees,
			OLD.carried_in, OLD.net, OLD.payout, OLD.due_date, OLD.closed_at) THEN
		RAISE EXCEPTION 'settlement % amounts are fixed at close', OLD.id USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER settlements_guarded BEFORE UPDATE OR DELETE ON "settlements"
	FOR EACH ROW EXECUTE FUNCTION settlements_guard();
--> statement-breakpoint
CREATE FUNCTION settlement_lines_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'settlement_lines is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER settlement_lines_no_change BEFORE UPDATE OR DELETE ON "settlement_lines"
	FOR EACH ROW EXECUTE FUNCTION settlement_lines_append_only();
--> statement-breakpoint
-- The ledger's postings gain the settlement's two facts (docs/rules/ledger.md, "Postings"). The rules of
-- every earlier fact stay where migration 0070 wrote them: that function is kept under a new name and the
-- posting trigger's `ledger_lines_of` now answers the settlement events itself and asks it for the rest.
ALTER FUNCTION ledger_lines_of(text, jsonb) RENAME TO ledger_lines_of_money_facts;
--> statement-breakpoint
CREATE FUNCTION ledger_lines_of(event_type text, p jsonb)
RETURNS TABLE (source_kind text, source_id text, account_kind text, owner_id integer, amount bigint)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	merchant integer := (p ->> 'merchantId')::integer;
BEGIN
	CASE event_type
	WHEN 'settlement.closed' THEN
		-- The day's fees (net of fees given back with refunds) leave the merchant's payable as our revenue.
		RETURN QUERY SELECT 'settlement-fee', p ->> 'settlementId', v.k, v.o, v.a FROM (VALUES
			('MERCHANT_PAYABLE', merchant, (p ->> 'fees')::bigint),
			('FEE_REVENUE', 0, -(p ->> 'fees')::bigint)) AS v (k, o, a);
	WHEN 'settlement.paid' THEN
		RETURN QUERY SELECT 'settlement-payout', p ->> 'settlementId', v.k, v.o, v.a FROM (VALUES
			('MERCHANT_PAYABLE', merchant, (p ->> 'amount')::bigint),
			('BANK_CLEARING', 0, -(p ->> 'amount')::bigint)) AS v (k, o, a);
	ELSE
		RETURN QUERY SELECT * FROM ledger_lines_of_money_facts(event_type, p);
	END CASE;
END $$;
