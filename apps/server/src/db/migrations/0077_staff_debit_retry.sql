-- Staff may retry a failed autopay debit at once (docs/rules/operations.md, ADR 0222). A retry on the day the
-- scheduled debit failed needs its own bank key, so an attempt now has a round within its (statement, day): the
-- plan's attempt is round 0 and keeps its key; each retry that day takes the next round. Whatever asks for it,
-- a statement has at most one open (PENDING) attempt, so a retry racing the plan or a second click can never
-- put two debits of one bill in flight: the database refuses the second.
ALTER TABLE autopay_attempts ADD COLUMN round integer NOT NULL DEFAULT 0;
--> statement-breakpoint
DROP INDEX autopay_attempts_statement_day_key;
--> statement-breakpoint
CREATE UNIQUE INDEX autopay_attempts_statement_day_round_key ON autopay_attempts (statement_id, kst_date, round);
--> statement-breakpoint
CREATE UNIQUE INDEX autopay_attempts_one_open_key ON autopay_attempts (statement_id) WHERE status = 'PENDING';
