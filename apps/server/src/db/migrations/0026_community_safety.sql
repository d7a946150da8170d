-- Reports, blocks and moderation of the shorts community (docs/rules/shorts.md#S10–S14).
-- A hidden short leaves READY, so every read path (feeds, search, profiles, my pages, one short) drops it and
-- the ranking trigger removes its rank and announces 'feed_changed' (migration 0003).
ALTER TABLE "shorts" DROP CONSTRAINT "shorts_status_check";
--> statement-breakpoint
ALTER TABLE "shorts" ADD CONSTRAINT "shorts_status_check" CHECK ("status" IN ('PROCESSING', 'READY', 'FAILED', 'HIDDEN'));
--> statement-breakpoint
ALTER TABLE "short_comments" ADD COLUMN "hidden_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "moderation_cases" (
	"id" serial PRIMARY KEY,
	"target_type" text NOT NULL CHECK ("target_type" IN ('SHORT', 'COMMENT')),
	"target_id" integer NOT NULL,
	"creator_id" integer NOT NULL REFERENCES "customers" ("id"),
	"state" text NOT NULL DEFAULT 'OPEN' CHECK ("state" IN ('OPEN', 'HIDDEN', 'CLOSED')),
	"auto_hidden" boolean NOT NULL DEFAULT false,
	-- A moderator has ruled on it once: later reports reopen it but never hide it by themselves.
	"reviewed" boolean NOT NULL DEFAULT false,
	"report_count" integer NOT NULL DEFAULT 0,
	"opened_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_cases_target_key" ON "moderation_cases" ("target_type", "target_id");
--> statement-breakpoint
CREATE INDEX "moderation_cases_state_idx" ON "moderation_cases" ("state", "opened_at");
--> statement-breakpoint
CREATE TABLE "content_reports" (
	"id" serial PRIMARY KEY,
	"case_id" integer NOT NULL REFERENCES "moderation_cases" ("id"),
	"reporter_id" integer NOT NULL REFERENCES "customers" ("id"),
	"reason" text NOT NULL CHECK ("reason" IN ('SPAM', 'SEXUAL', 'VIOLENCE', 'HATE', 'COPYRIGHT', 'OTHER')),
	"text" text NOT NULL DEFAULT '',
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "content_reports_once_key" ON "content_reports" ("case_id", "reporter_id");
--> statement-breakpoint
CREATE TABLE "creator_blocks" (
	"blocker_id" integer NOT NULL REFERENCES "customers" ("id"),
	"blocked_id" integer NOT NULL REFERENCES "customers" ("id"),
	"created_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("blocker_id", "blocked_id"),
	CONSTRAINT "creator_blocks_not_self" CHECK ("blocker_id" <> "blocked_id")
);
--> statement-breakpoint
-- Each instance remembers whom a viewer blocked; a change through any instance is announced like the
-- viewer's reactions and follows (migration 0010).
CREATE TRIGGER "creator_blocks_viewer_inserted" AFTER INSERT ON "creator_blocks"
	REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_viewers_changed('blocker_id');
--> statement-breakpoint
CREATE TRIGGER "creator_blocks_viewer_deleted" AFTER DELETE ON "creator_blocks"
	REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_viewers_changed('blocker_id');
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "upload_banned_until" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "strikes" integer NOT NULL DEFAULT 0;
