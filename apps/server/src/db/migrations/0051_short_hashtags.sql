-- Every hashtag of a short's description, with the short's date (docs/rules/shorts.md#S2, ADR 0150). Search
-- finds a query '#x' as a description containing '#x', that is a hashtag starting with x: at a million shorts
-- a common tag matched thousands of descriptions through the gram index, each read to be sorted by date
-- (35–80 ms). Here they are a range of one index, already holding the date.
CREATE FUNCTION short_hashtags_of(content text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT DISTINCT m[1] FROM regexp_matches(lower(content), '#([^[:space:]#]+)', 'g') AS m
$$;
--> statement-breakpoint
CREATE TABLE "short_hashtags" (
	"short_id" integer NOT NULL REFERENCES "shorts"("id") ON DELETE CASCADE,
	"tag" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("short_id", "tag")
);
--> statement-breakpoint
INSERT INTO "short_hashtags" ("short_id", "tag", "created_at")
	SELECT s.id, t.tag, s.created_at FROM shorts s CROSS JOIN LATERAL short_hashtags_of(s.content) AS t(tag);
--> statement-breakpoint
-- text_pattern_ops: a LIKE 'x%' range on any database collation, not only the embedded cluster's C.UTF-8.
CREATE INDEX "short_hashtags_by_tag" ON "short_hashtags" ("tag" text_pattern_ops, "created_at" DESC, "short_id" DESC);
--> statement-breakpoint
CREATE FUNCTION shorts_hashtags_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		DELETE FROM short_hashtags WHERE short_id = NEW.id;
	END IF;
	INSERT INTO short_hashtags (short_id, tag, created_at)
		SELECT NEW.id, t.tag, NEW.created_at FROM short_hashtags_of(NEW.content) AS t(tag);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "shorts_hashtags_sync" AFTER INSERT OR UPDATE OF "content", "created_at" ON "shorts"
	FOR EACH ROW EXECUTE FUNCTION shorts_hashtags_sync();
