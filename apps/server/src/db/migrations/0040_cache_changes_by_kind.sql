-- Cache invalidation names what changed (caches.ts): on 'feed_changed' a short's own change is 'short:<id>',
-- a change of only its counters 'counts:<id>', its comments 'comments:<ids>', the minute's refresh 'ranking'
-- (sent by the app); an empty payload still means everything (a deleted short, a creator's new name).
-- Watching (short_views, short_watch_daily) announces nothing: it changes no cached answer.
CREATE OR REPLACE FUNCTION shorts_rank_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	b double precision;
	at timestamp with time zone;
	kind text := 'short:';
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
	IF TG_OP = 'UPDATE' AND (OLD.status, OLD.title, OLD.content, OLD.thumbnail_key, OLD.video_key, OLD.created_at)
		IS NOT DISTINCT FROM (NEW.status, NEW.title, NEW.content, NEW.thumbnail_key, NEW.video_key, NEW.created_at) THEN
		kind := 'counts:';
	END IF;
	PERFORM pg_notify('feed_changed', kind || NEW.id::text);
	RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "short_comments_feed_changed" ON "short_comments";
--> statement-breakpoint
DROP FUNCTION notify_comments_changed();
--> statement-breakpoint
CREATE FUNCTION notify_comments_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	ids text;
BEGIN
	SELECT string_agg(DISTINCT short_id::text, ',') INTO ids FROM changed;
	IF ids IS NOT NULL THEN
		PERFORM pg_notify('feed_changed', CASE WHEN length(ids) > 7000 THEN '' ELSE 'comments:' || ids END);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "short_comments_inserted_changed" AFTER INSERT ON "short_comments"
	REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_comments_changed();
--> statement-breakpoint
CREATE TRIGGER "short_comments_updated_changed" AFTER UPDATE ON "short_comments"
	REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_comments_changed();
--> statement-breakpoint
CREATE TRIGGER "short_comments_deleted_changed" AFTER DELETE ON "short_comments"
	REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_comments_changed();
