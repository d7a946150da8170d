-- One 'feed_changed' notification per statement that writes shorts, not one per row (ADR 0151). A single
-- statement writing 100,000 shorts (a bulk import, a bulk moderation, the bench's fixture) sent 100,000,
-- and every instance applied them one by one: its thread was held about 12 s. A statement's ids now go in
-- one payload ('short:1,2,…' or 'counts:…'); past 7,000 characters it says everything (''), as the
-- comments' triggers do (migration 0040). The per-row trigger keeps the stored ranking exact.
CREATE OR REPLACE FUNCTION shorts_rank_sync() RETURNS trigger LANGUAGE plpgsql AS $$
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
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION announce_shorts(kind text, ids text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF ids IS NOT NULL THEN
		PERFORM pg_notify('feed_changed', CASE WHEN length(ids) > 7000 THEN '' ELSE kind || ':' || ids END);
	END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION shorts_inserted_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM announce_shorts('short', (SELECT string_agg(id::text, ',' ORDER BY id) FROM new_rows));
	RETURN NULL;
END $$;
--> statement-breakpoint
-- A short whose own fields changed is 'short'; one whose counters alone changed is 'counts'; a statement
-- that changed neither (a view of nothing cached) announces nothing.
CREATE FUNCTION shorts_updated_announce() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	own text;
	counts text;
BEGIN
	SELECT string_agg(n.id::text, ',' ORDER BY n.id) FILTER (WHERE own_changed),
	       string_agg(n.id::text, ',' ORDER BY n.id) FILTER (WHERE NOT own_changed AND counts_changed)
	  INTO own, counts
	  FROM new_rows n JOIN old_rows o ON o.id = n.id,
	       LATERAL (SELECT (o.status, o.title, o.content, o.thumbnail_key, o.video_key, o.created_at)
	                         IS DISTINCT FROM (n.status, n.title, n.content, n.thumbnail_key, n.video_key, n.created_at)
	                         AS own_changed,
	                       (o.like_count, o.comment_count) IS DISTINCT FROM (n.like_count, n.comment_count)
	                         AS counts_changed) d;
	PERFORM announce_shorts('short', own);
	PERFORM announce_shorts('counts', counts);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "shorts_inserted_announce" AFTER INSERT ON "shorts"
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shorts_inserted_announce();
--> statement-breakpoint
CREATE TRIGGER "shorts_updated_announce" AFTER UPDATE ON "shorts"
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shorts_updated_announce();
