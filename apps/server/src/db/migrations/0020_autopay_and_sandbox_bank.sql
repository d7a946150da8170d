-- Autopay (docs/rules/bills-and-grades.md#B15): on for every customer unless they turn it off.
ALTER TABLE customers ADD COLUMN autopay boolean NOT NULL DEFAULT true;
--> statement-breakpoint
-- The built-in sandbox bank: its own balances and its own record of debits, keyed by the caller's
-- idempotency key, so a repeated debit answers what the first one did and never takes money twice.
CREATE TABLE sandbox_bank_accounts (
	bank text NOT NULL,
	account text NOT NULL,
	balance bigint NOT NULL DEFAULT 0,
	state text NOT NULL DEFAULT 'open',
	updated_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (bank, account),
	CONSTRAINT sandbox_bank_accounts_balance_nonnegative CHECK (balance >= 0),
	CONSTRAINT sandbox_bank_accounts_state CHECK (state IN ('open', 'closed', 'unavailable'))
);
--> statement-breakpoint
CREATE TABLE sandbox_bank_debits (
	idempotency_key text PRIMARY KEY,
	bank text NOT NULL,
	account text NOT NULL,
	amount bigint NOT NULL,
	result text NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- One autopay attempt per (statement, KST day): the unique key makes a day's debit happen once per cluster.
CREATE TABLE autopay_attempts (
	id serial PRIMARY KEY,
	statement_id integer NOT NULL REFERENCES statements(id),
	customer_id integer NOT NULL REFERENCES customers(id),
	kst_date date NOT NULL,
	status text NOT NULL DEFAULT 'PENDING',
	amount integer,
	purchase_ids integer[],
	result text,
	tries integer NOT NULL DEFAULT 0,
	next_try_at timestamptz NOT NULL,
	lease_until timestamptz,
	repayment_id integer REFERENCES repayments(id),
	created_at timestamptz NOT NULL DEFAULT now(),
	finished_at timestamptz,
	CONSTRAINT autopay_attempts_status CHECK (status IN ('PENDING', 'PAID', 'FAILED', 'SKIPPED'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX autopay_attempts_statement_day_key ON autopay_attempts (statement_id, kst_date);
--> statement-breakpoint
CREATE INDEX autopay_attempts_pending_idx ON autopay_attempts (next_try_at) WHERE status = 'PENDING';
