-- A short that becomes playable (published after its transcode, restored by moderation, inserted ready) is
-- announced as 'added:<ids>', not 'short:<ids>' (ADR 0152): instances drop what they hold about it and the
-- signed-in ranked pages, and the anonymous feed lists it from the ranking's next refresh (each minute), as
-- it does with moved counts. Every upload used to drop the whole anonymous feed twice (its insert, then its
-- publication); under the bench's mix that was most of its misses. Rows playable neither before nor after a
-- statement (an upload being inserted, a transcode failing) are in no cache, so they announce nothing.
CREATE OR REPLACE FUNCTION shorts_inserted_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM announce_shorts('added', (SELECT string_agg(id::text, ',' ORDER BY id) FROM new_rows WHERE status = 'READY'));
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION shorts_updated_announce() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	own text;
	added text;
	counts text;
BEGIN
	SELECT string_agg(n.id::text, ',' ORDER BY n.id) FILTER (WHERE own_changed AND o.status = 'READY'),
	       string_agg(n.id::text, ',' ORDER BY n.id) FILTER (WHERE o.status <> 'READY' AND n.status = 'READY'),
	       string_agg(n.id::text, ',' ORDER BY n.id) FILTER (WHERE NOT own_changed AND counts_changed)
	  INTO own, added, counts
	  FROM new_rows n JOIN old_rows o ON o.id = n.id,
	       LATERAL (SELECT (o.status, o.title, o.content, o.thumbnail_key, o.video_key, o.created_at)
	                         IS DISTINCT FROM (n.status, n.title, n.content, n.thumbnail_key, n.video_key, n.created_at)
	                         AS own_changed,
	                       (o.like_count, o.comment_count) IS DISTINCT FROM (n.like_count, n.comment_count)
	                         AS counts_changed) d;
	PERFORM announce_shorts('short', own);
	PERFORM announce_shorts('added', added);
	PERFORM announce_shorts('counts', counts);
	RETURN NULL;
END $$;
