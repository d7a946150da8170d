-- A limit risk set for one customer (docs/rules/operations.md#O8). NULL follows the grade's monthly limit;
-- a value is a ceiling under it: the limit in force is the lower of the two, so a grade down still lowers it
-- and the value can never lift a customer above what the grade allows.
ALTER TABLE "customers" ADD COLUMN "credit_limit" integer;
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_credit_limit_nonnegative" CHECK ("credit_limit" >= 0);
