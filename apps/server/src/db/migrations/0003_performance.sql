-- Issue 13: a stored feed ranking, and change notifications for caches and live status streams.
--
-- Ranking (docs/rules/shorts.md#S1): base = 1.5·ln(1+likes) + 1.2·ln(1+comments) + 1.2·[#tag], plus the freshness
-- term 5·exp(−ageHours/72). Every score is evaluated at one instant, short_rank_clock.decay_at, which the
-- server moves forward about once a minute (refreshing the freshness of recent rows); triggers keep the base
-- exact on every like, comment, edit and status change. The freshness of a short older than 60 days is below
-- 1e-8 and is stored as 0, so only recent rows need refreshing.
CREATE TABLE "short_rank_clock" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"decay_at" timestamp with time zone NOT NULL,
	CONSTRAINT "short_rank_clock_single_row" CHECK ("id" = 1)
);
--> statement-breakpoint
INSERT INTO "short_rank_clock" ("id", "decay_at") VALUES (1, now());
--> statement-breakpoint
CREATE TABLE "short_ranks" (
	"short_id" integer PRIMARY KEY NOT NULL REFERENCES "shorts"("id") ON DELETE CASCADE,
	"base" double precision NOT NULL,
	"score" double precision NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "short_ranks_order_idx" ON "short_ranks" ("score" DESC, "created_at" DESC, "short_id" DESC);
--> statement-breakpoint
CREATE INDEX "short_ranks_created_idx" ON "short_ranks" ("created_at");
--> statement-breakpoint
CREATE FUNCTION short_rank_freshness(at timestamp with time zone, created timestamp with time zone)
RETURNS double precision LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN at - created > interval '60 days' THEN 0
		ELSE 5.0 * exp(-greatest(0, extract(epoch FROM (at - created))) / 3600.0 / 72.0) END
$$;
--> statement-breakpoint
CREATE FUNCTION short_rank_base(likes integer, comments integer, content text)
RETURNS double precision LANGUAGE sql IMMUTABLE AS $$
	SELECT 1.5 * ln(1 + greatest(likes, 0)) + 1.2 * ln(1 + greatest(comments, 0))
		+ CASE WHEN content ~ '#[^[:space:]#]+' THEN 1.2 ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION shorts_rank_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	b double precision;
	at timestamp with time zone;
BEGIN
	IF NEW.status <> 'READY' THEN
		DELETE FROM short_ranks WHERE short_id = NEW.id;
	ELSE
		b := short_rank_base(NEW.like_count, NEW.comment_count, NEW.content);
		SELECT decay_at INTO at FROM short_rank_clock WHERE id = 1;
		INSERT INTO short_ranks (short_id, base, score, created_at)
		VALUES (NEW.id, b, b + short_rank_freshness(at, NEW.created_at), NEW.created_at)
		ON CONFLICT (short_id) DO UPDATE
			SET base = EXCLUDED.base, score = EXCLUDED.score, created_at = EXCLUDED.created_at;
	END IF;
	PERFORM pg_notify('feed_changed', '');
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "shorts_rank_sync" AFTER INSERT OR UPDATE OF "status", "like_count", "comment_count", "content", "created_at", "title", "thumbnail_key", "video_key"
	ON "shorts" FOR EACH ROW EXECUTE FUNCTION shorts_rank_sync();
--> statement-breakpoint
CREATE FUNCTION shorts_feed_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('feed_changed', '');
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "shorts_feed_deleted" AFTER DELETE ON "shorts" FOR EACH STATEMENT EXECUTE FUNCTION shorts_feed_deleted();
--> statement-breakpoint
-- A creator's nickname and picture appear in every feed item of theirs.
CREATE TRIGGER "customers_feed_changed" AFTER UPDATE OF "nickname", "profile_img" ON "customers"
	FOR EACH STATEMENT EXECUTE FUNCTION shorts_feed_deleted();
--> statement-breakpoint
INSERT INTO "short_ranks" ("short_id", "base", "score", "created_at")
SELECT "id", short_rank_base("like_count", "comment_count", "content"),
	short_rank_base("like_count", "comment_count", "content") + short_rank_freshness(now(), "created_at"), "created_at"
FROM "shorts" WHERE "status" = 'READY';
--> statement-breakpoint
-- Live status (merchant SSE): every status change of a payment request, from any code path or instance.
CREATE FUNCTION payment_request_status_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('payment_request_status', NEW.id::text);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "payment_requests_status_notify" AFTER UPDATE OF "status" ON "payment_requests"
	FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION payment_request_status_notify();
