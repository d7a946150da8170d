-- Autopay consent and account ownership (docs/rules/bills-and-grades.md#B21–#B23, ADR 0198, ADR 0199).
-- A customer's consent to debit (출금 동의) and its withdrawal are facts kept for good: rows are only ever
-- added, never changed or removed. The linked account is proven the customer's by a 1원 deposit whose
-- depositor name carries a code (1원 인증); only the code's hash is kept. One bank account is verified by one
-- customer at most, held by the unique partial index below rather than by a check in the code alone. Nobody
-- is verified by this migration: customers with autopay on wait in "pending" until they verify (ADR 0199).
CREATE TABLE "autopay_consents" (
	"id" serial PRIMARY KEY,
	"customer_id" integer NOT NULL REFERENCES "customers" ("id"),
	"action" text NOT NULL CHECK ("action" IN ('GRANTED', 'WITHDRAWN')),
	"bank" text NOT NULL,
	"account" text NOT NULL,
	"wording_version" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "autopay_consents_customer_idx" ON "autopay_consents" ("customer_id", "id");
--> statement-breakpoint
CREATE FUNCTION autopay_consents_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'autopay_consents is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER autopay_consents_no_change BEFORE UPDATE OR DELETE ON "autopay_consents"
	FOR EACH ROW EXECUTE FUNCTION autopay_consents_append_only();
--> statement-breakpoint
CREATE TABLE "account_verifications" (
	"id" serial PRIMARY KEY,
	"customer_id" integer NOT NULL REFERENCES "customers" ("id"),
	"bank" text NOT NULL,
	"account" text NOT NULL,
	"code_hash" text NOT NULL,
	"status" text NOT NULL DEFAULT 'SENT' CHECK ("status" IN ('SENT', 'VERIFIED', 'LOCKED', 'REPLACED', 'NOT_DELIVERED')),
	"tries" smallint NOT NULL DEFAULT 0 CHECK ("tries" >= 0),
	"sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "account_verifications_one_owner_key" ON "account_verifications" ("bank", "account")
	WHERE "status" = 'VERIFIED';
--> statement-breakpoint
CREATE UNIQUE INDEX "account_verifications_one_open_key" ON "account_verifications" ("customer_id")
	WHERE "status" = 'SENT';
--> statement-breakpoint
CREATE INDEX "account_verifications_customer_idx" ON "account_verifications" ("customer_id", "sent_at");
--> statement-breakpoint
CREATE TABLE "sandbox_bank_deposits" (
	"idempotency_key" text PRIMARY KEY,
	"bank" text NOT NULL,
	"account" text NOT NULL,
	"amount" bigint NOT NULL,
	"result" text NOT NULL,
	"depositor_name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "sandbox_bank_deposits_account_idx" ON "sandbox_bank_deposits" ("bank", "account", "created_at");
