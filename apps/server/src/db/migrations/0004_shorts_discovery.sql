-- Shorts discovery (issue 9): search by text, hashtag, nickname and Korean initial consonants; my-page lists.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- Initial consonants of Hangul syllables (U+AC00..U+D7A3: 21 vowels × 28 finals = 588 per initial);
-- every other character is kept (lower-cased), so 'ㅋㅍ' matches only consecutive syllables. The database
-- derives it, so every writer (upload, seed, fixtures, profile edit) stores the same value; a test checks
-- it against es-hangul's getChoseong.
CREATE OR REPLACE FUNCTION ohgood_choseong(input text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  initials constant text := 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ';
  result text := '';
  ch text;
  code integer;
BEGIN
  FOREACH ch IN ARRAY regexp_split_to_array(lower(input), '') LOOP
    code := ascii(ch);
    IF code BETWEEN 44032 AND 55203 THEN
      result := result || substr(initials, (code - 44032) / 588 + 1, 1);
    ELSE
      result := result || ch;
    END IF;
  END LOOP;
  RETURN result;
END
$$;
--> statement-breakpoint
-- Every character and every pair of adjacent characters, for a GIN index that also serves the one- and
-- two-character queries Korean search is full of (pg_trgm needs three characters to narrow anything).
-- Costly per row on purpose (COST): the planner should reach it through its index, not as a filter.
CREATE OR REPLACE FUNCTION ohgood_grams(input text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}')
    FROM (
      SELECT substr(input, i, 1) AS g FROM generate_series(1, char_length(input)) AS i
      UNION ALL
      SELECT substr(input, i, 2) FROM generate_series(1, char_length(input) - 1) AS i
    ) AS grams
$$;
--> statement-breakpoint
ALTER TABLE "shorts" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("title" || ' ' || "content")) STORED;
--> statement-breakpoint
ALTER TABLE "shorts" ADD COLUMN "search_choseong" text GENERATED ALWAYS AS (ohgood_choseong("title" || ' ' || "content")) STORED;
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "nickname_search" text GENERATED ALWAYS AS (lower("nickname")) STORED;
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "nickname_choseong" text GENERATED ALWAYS AS (ohgood_choseong("nickname")) STORED;
--> statement-breakpoint
CREATE INDEX "shorts_search_text_trgm" ON "shorts" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "shorts_search_choseong_trgm" ON "shorts" USING gin ("search_choseong" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "shorts_search_text_grams" ON "shorts" USING gin (ohgood_grams("search_text"));
--> statement-breakpoint
CREATE INDEX "shorts_search_choseong_grams" ON "shorts" USING gin (ohgood_grams("search_choseong"));
--> statement-breakpoint
CREATE INDEX "customers_nickname_search_trgm" ON "customers" USING gin ("nickname_search" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "customers_nickname_choseong_trgm" ON "customers" USING gin ("nickname_choseong" gin_trgm_ops);
--> statement-breakpoint
-- My page lists: newest first by keyset.
CREATE INDEX "short_reactions_customer_type_created_idx" ON "short_reactions" USING btree ("customer_id", "type", "created_at", "short_id");
--> statement-breakpoint
CREATE INDEX "short_subscriptions_subscriber_created_idx" ON "short_subscriptions" USING btree ("subscriber_id", "created_at", "target_id");
--> statement-breakpoint
CREATE INDEX "short_comments_customer_short_idx" ON "short_comments" USING btree ("customer_id", "short_id", "id");
--> statement-breakpoint
-- Search pages by (tier, created_at, id) with the date in the cursor at millisecond precision (ISO), so
-- stored instants carry exactly that precision; every writer gets this, whatever clock it uses.
CREATE OR REPLACE FUNCTION ohgood_created_at_ms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_at := date_trunc('milliseconds', NEW.created_at);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "shorts_created_at_ms" BEFORE INSERT OR UPDATE OF "created_at" ON "shorts"
  FOR EACH ROW EXECUTE FUNCTION ohgood_created_at_ms();
--> statement-breakpoint
UPDATE "shorts" SET "created_at" = date_trunc('milliseconds', "created_at")
 WHERE "created_at" <> date_trunc('milliseconds', "created_at");
--> statement-breakpoint
-- Newest-first reads of playable shorts (each search tier, channel lists).
CREATE INDEX "shorts_ready_created_id_idx" ON "shorts" USING btree ("created_at" DESC, "id" DESC) WHERE "status" = 'READY';
