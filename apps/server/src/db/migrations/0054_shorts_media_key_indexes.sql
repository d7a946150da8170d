-- Shorts found by their media keys: the media sweep asks which stored objects a short still points at, and
-- the demo seed which demo clips exist (on every start). Without these both read every short: on the bench's
-- 100,000 shorts the seed's one look took 70–90 ms of each start. A short's counters, its frequent updates,
-- touch none of these columns, so they stay heap-only updates.
CREATE INDEX IF NOT EXISTS shorts_video_key_idx ON shorts (video_key);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS shorts_thumbnail_key_idx ON shorts (thumbnail_key);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS shorts_source_key_idx ON shorts (source_key) WHERE source_key IS NOT NULL;
