-- Range scans for the console's CSV exports (docs/rules/operations.md#O15, ADR 0226): each export walks one
-- table by the time its fact happened, within the KST days asked, oldest first, through a server-side cursor.
-- Without these the cursor would sort the whole table before its first row.
CREATE INDEX purchases_created_idx ON purchases (created_at, id);
--> statement-breakpoint
CREATE INDEX purchases_refunded_idx ON purchases (refunded_at, id) WHERE refunded_at IS NOT NULL;
--> statement-breakpoint
CREATE INDEX repayments_created_idx ON repayments (created_at, id);
--> statement-breakpoint
CREATE INDEX autopay_attempts_day_idx ON autopay_attempts (kst_date, id);
--> statement-breakpoint
CREATE INDEX audit_log_at_idx ON audit_log (at, id);
