-- The instance transcoding a short holds a lease on it: its id and the instant the lease runs out. It renews
-- the lease while ffmpeg runs; another instance may take a PROCESSING short only when the lease is free or
-- has run out, with one conditional UPDATE, so two instances never transcode the same short at once.
ALTER TABLE shorts ADD COLUMN transcode_owner text;
--> statement-breakpoint
ALTER TABLE shorts ADD COLUMN transcode_lease_until timestamptz;
--> statement-breakpoint
CREATE INDEX shorts_processing_lease_idx ON shorts (transcode_lease_until) WHERE status = 'PROCESSING';
