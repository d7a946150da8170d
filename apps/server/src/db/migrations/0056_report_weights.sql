-- Reports weigh by their reporter's standing (docs/rules/shorts.md#S11, ADR 0174): each report keeps the weight
-- it was given and the part of it that may hide the item by itself (0 from accounts younger than a week, without
-- a payment, or newer than the content); a case keeps both sums. A moderator's ruling marks the case's reports
-- upheld or dismissed, which moves their reporter's later weight. Weights are hundredths of a trusted report.
ALTER TABLE "content_reports" ADD COLUMN "weight" integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "content_reports" ADD COLUMN "hide_weight" integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "content_reports" ADD COLUMN "outcome" text CHECK ("outcome" IN ('UPHELD', 'DISMISSED'));
--> statement-breakpoint
ALTER TABLE "moderation_cases" ADD COLUMN "report_weight" integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "moderation_cases" ADD COLUMN "hide_weight" integer NOT NULL DEFAULT 0;
--> statement-breakpoint
-- Reports made before weights ranked as one trusted report each and hide nothing more by themselves.
UPDATE "content_reports" SET "weight" = 100;
--> statement-breakpoint
UPDATE "moderation_cases" SET "report_weight" = 100 * "report_count";
--> statement-breakpoint
-- A reporter's standing and rate caps read their reports by time.
CREATE INDEX "content_reports_reporter_idx" ON "content_reports" ("reporter_id", "created_at");
--> statement-breakpoint
CREATE INDEX "moderation_cases_weight_idx" ON "moderation_cases" ("report_weight" DESC, "opened_at")
	WHERE "state" = 'OPEN' OR ("state" = 'HIDDEN' AND "auto_hidden");
