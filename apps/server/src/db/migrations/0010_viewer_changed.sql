-- Each instance keeps, per viewer, what it learned of their reactions and subscriptions (modules/shorts/
-- viewer-state.ts). When those rows change — through any instance or job — the customers concerned are
-- announced on 'viewer_changed' (comma-separated ids, or '*' when the list would not fit a notification).
-- Statement-level triggers with transition tables: one notification per statement, however many rows.
-- Comments also announce 'feed_changed' themselves (the per-short comment rows each instance remembers),
-- not only through the shorts counter, so even a write that skips the counter is never missed.
CREATE FUNCTION notify_viewers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	ids text;
BEGIN
	EXECUTE format('SELECT string_agg(DISTINCT %I::text, '','') FROM changed', TG_ARGV[0]) INTO ids;
	IF ids IS NOT NULL THEN
		PERFORM pg_notify('viewer_changed', CASE WHEN length(ids) > 7000 THEN '*' ELSE ids END);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "short_reactions_viewer_inserted" AFTER INSERT ON "short_reactions"
	REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_viewers_changed('customer_id');
--> statement-breakpoint
CREATE TRIGGER "short_reactions_viewer_updated" AFTER UPDATE ON "short_reactions"
	REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_viewers_changed('customer_id');
--> statement-breakpoint
CREATE TRIGGER "short_reactions_viewer_deleted" AFTER DELETE ON "short_reactions"
	REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_viewers_changed('customer_id');
--> statement-breakpoint
CREATE TRIGGER "short_subscriptions_viewer_inserted" AFTER INSERT ON "short_subscriptions"
	REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_viewers_changed('subscriber_id');
--> statement-breakpoint
CREATE TRIGGER "short_subscriptions_viewer_deleted" AFTER DELETE ON "short_subscriptions"
	REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_viewers_changed('subscriber_id');
--> statement-breakpoint
CREATE TRIGGER "short_subscriptions_viewer_updated" AFTER UPDATE ON "short_subscriptions"
	REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_viewers_changed('subscriber_id');
--> statement-breakpoint
CREATE FUNCTION notify_comments_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('feed_changed', '');
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "short_comments_feed_changed" AFTER INSERT OR UPDATE OR DELETE ON "short_comments"
	FOR EACH STATEMENT EXECUTE FUNCTION notify_comments_changed();
