-- Contact notes and the indexes behind the console's work lists, timeline and search (docs/rules/operations.md#O16–#O17).
-- A contact note is what staff record after calling or messaging a customer: the channel, the outcome, an
-- optional promise-to-pay date and a text. Notes are facts kept for good: rows are only ever added (a trigger
-- refuses UPDATE, DELETE and TRUNCATE; the runtime role holds no such grant either). A correction is a new note.
CREATE TABLE "contact_notes" (
	"id" bigserial PRIMARY KEY,
	"customer_id" integer NOT NULL REFERENCES "customers" ("id"),
	"staff_id" integer REFERENCES "staff" ("id"),
	"staff_name" text NOT NULL,
	"channel" text NOT NULL CHECK ("channel" IN ('CALL', 'MESSAGE')),
	"outcome" text NOT NULL CHECK ("outcome" IN ('REACHED', 'NO_ANSWER', 'PROMISED', 'DISPUTED', 'OTHER')),
	"promise_date" date,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "contact_notes_customer_idx" ON "contact_notes" ("customer_id", "id");
--> statement-breakpoint
-- The overdue list shows each customer's latest promise: the newest note with a date, found by this index.
CREATE INDEX "contact_notes_promise_idx" ON "contact_notes" ("customer_id", "id") WHERE "promise_date" IS NOT NULL;
--> statement-breakpoint
CREATE FUNCTION contact_notes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'contact_notes is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "contact_notes_no_update_delete" BEFORE UPDATE OR DELETE ON "contact_notes"
	FOR EACH ROW EXECUTE FUNCTION contact_notes_append_only();
--> statement-breakpoint
CREATE TRIGGER "contact_notes_no_truncate" BEFORE TRUNCATE ON "contact_notes"
	FOR EACH STATEMENT EXECUTE FUNCTION contact_notes_append_only();
--> statement-breakpoint
-- The overdue list starts from overdue statements only, not every statement ever issued.
CREATE INDEX "statements_overdue_idx" ON "statements" ("customer_id") WHERE "overdue_at" IS NOT NULL;
--> statement-breakpoint
-- The customer lists page by (joined, id) when sorted by joining date.
CREATE INDEX "customers_created_idx" ON "customers" ("created_at", "id");
--> statement-breakpoint
-- A customer's timeline reads their autopay attempts.
CREATE INDEX "autopay_attempts_customer_idx" ON "autopay_attempts" ("customer_id", "id");
--> statement-breakpoint
-- The console's search by the account number a caller reads out: the linked account now, and any account
-- they consented to be debited from or verified before.
CREATE INDEX "customers_account_idx" ON "customers" ("account");
--> statement-breakpoint
CREATE INDEX "autopay_consents_account_idx" ON "autopay_consents" ("account");
--> statement-breakpoint
CREATE INDEX "account_verifications_account_idx" ON "account_verifications" ("account");
