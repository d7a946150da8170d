-- Search's title tier (docs/rules/shorts.md#S2, ADR 0020) narrowed by the titles alone: through the grams of
-- the whole text, a word common in descriptions but rare in titles ('오늘') fetched every description that
-- has it before finding the few titles (2.7 s at a million shorts).
CREATE INDEX IF NOT EXISTS "shorts_title_grams" ON "shorts" USING gin (ohgood_grams(lower("title")));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "shorts_title_choseong_grams" ON "shorts" USING gin (ohgood_grams(ohgood_choseong("title")));
--> statement-breakpoint
-- The creators a query names, found through grams too: pg_trgm serves nothing shorter than three letters,
-- so a two-letter query read every customer (26 ms at 100,000 customers).
CREATE INDEX IF NOT EXISTS "customers_nickname_search_grams" ON "customers" USING gin (ohgood_grams("nickname_search"));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "customers_nickname_choseong_grams" ON "customers" USING gin (ohgood_grams("nickname_choseong"));
