-- Whom a viewer blocked is announced on a channel of its own, 'blocks_changed' (the blockers' ids, or '*'
-- when the list would not fit a notification), not on 'viewer_changed' with their reactions and follows
-- (migrations 0010, 0026). Each instance then drops exactly what moved: a reaction or a follow no longer
-- drops its memory of the viewer's blocks (one more read on their next page), nor a block their reactions
-- and follows (ADR 0167).
CREATE FUNCTION notify_blocks_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	ids text;
BEGIN
	SELECT string_agg(DISTINCT blocker_id::text, ',') FROM changed INTO ids;
	IF ids IS NOT NULL THEN
		PERFORM pg_notify('blocks_changed', CASE WHEN length(ids) > 7000 THEN '*' ELSE ids END);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "creator_blocks_viewer_inserted" ON "creator_blocks";
--> statement-breakpoint
DROP TRIGGER "creator_blocks_viewer_deleted" ON "creator_blocks";
--> statement-breakpoint
CREATE TRIGGER "creator_blocks_announced_inserted" AFTER INSERT ON "creator_blocks"
	REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_blocks_changed();
--> statement-breakpoint
CREATE TRIGGER "creator_blocks_announced_deleted" AFTER DELETE ON "creator_blocks"
	REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_blocks_changed();
