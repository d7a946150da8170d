-- Issue #12 hardening. An Idempotency-Key answers only the exact request it was first used with.
ALTER TABLE "idempotency_keys" ADD COLUMN "request_hash" text;--> statement-breakpoint
-- Watch points pay each real second once: claims of one customer cannot overlap in time.
ALTER TABLE "short_watch_daily" ADD COLUMN "watched_until" timestamp with time zone;
