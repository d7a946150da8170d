-- The daily reconciliation (docs/rules/bills-and-grades.md#B20): one row per KST day, replaced when the day is
-- reconciled again. It counts and sums the bank's movements and the book entries they should match, per
-- direction, and lists each mismatch (its kind, direction, bank reference and both amounts) in `mismatches`.
CREATE TABLE reconciliations (
	day date PRIMARY KEY,
	reconciled_at timestamptz NOT NULL,
	bank_debits integer NOT NULL,
	bank_debit_sum bigint NOT NULL,
	bank_credits integer NOT NULL,
	bank_credit_sum bigint NOT NULL,
	book_debits integer NOT NULL,
	book_debit_sum bigint NOT NULL,
	book_credits integer NOT NULL,
	book_credit_sum bigint NOT NULL,
	mismatch_count integer NOT NULL,
	mismatches jsonb NOT NULL
);
--> statement-breakpoint
-- What staff must look at (ADR 0200): one row per (kind, subject), raised again rather than duplicated, and
-- resolved when the cause is gone (a day that reconciles clean again). Shown on the console's home.
CREATE TABLE staff_alerts (
	id bigserial PRIMARY KEY,
	kind text NOT NULL,
	subject text NOT NULL,
	message text NOT NULL,
	raised_at timestamptz NOT NULL,
	resolved_at timestamptz,
	UNIQUE (kind, subject)
);
--> statement-breakpoint
CREATE INDEX staff_alerts_open_idx ON staff_alerts (raised_at) WHERE resolved_at IS NULL;
