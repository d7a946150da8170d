-- One owner per won (docs/rules/bills-and-grades.md#B18, ADR 0175). A bill line an autopay attempt is
-- collecting names that attempt from the claim that fixes the debit until the bank's answer is recorded, so
-- an early payment of it in between is refused instead of paid twice. A debit the bank still reports for lines
-- paid meanwhile (a late answer, a refund) leaves a surplus on the attempt, paid back through the bank's credit
-- under its own idempotency key; the sandbox bank records its credits as it records its debits.
ALTER TABLE "purchases" ADD COLUMN "collecting_attempt_id" integer REFERENCES "autopay_attempts" ("id");
--> statement-breakpoint
ALTER TABLE "autopay_attempts" ADD COLUMN "surplus" integer NOT NULL DEFAULT 0 CHECK ("surplus" >= 0);
--> statement-breakpoint
ALTER TABLE "autopay_attempts" ADD COLUMN "surplus_refunded_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "autopay_attempts_surplus_owed_idx" ON "autopay_attempts" ("id")
	WHERE "surplus" > 0 AND "surplus_refunded_at" IS NULL;
--> statement-breakpoint
CREATE TABLE "sandbox_bank_credits" (
	"idempotency_key" text PRIMARY KEY,
	"bank" text NOT NULL,
	"account" text NOT NULL,
	"amount" bigint NOT NULL,
	"result" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL DEFAULT now()
);
