import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shortReactions, shorts } from '../db/schema';
import { testConfig } from '../lib/config';
import { probe, resolveMediaTools } from '../modules/media/ffmpeg';
import { createHarness, type Harness } from '../test/harness';
import { seedDemoShorts } from './demo-shorts';

let h: Harness;
let mediaDir: string;
beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'ohgood-seed-test-'));
  h = await createHarness({ config: { MEDIA_DIR: mediaDir } });
});
afterAll(async () => {
  await h.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

it('renders playable vertical 5–15 s demo shorts with likes and comments, idempotently', async () => {
  const config = testConfig({ MEDIA_DIR: mediaDir });
  await seedDemoShorts(h.database.db, h.clock, config);
  const rows = await h.database.db.select().from(shorts);
  expect(rows.length).toBeGreaterThanOrEqual(8);
  expect(new Set(rows.map((r) => r.customerId)).size).toBeGreaterThanOrEqual(3);
  for (const row of rows) {
    expect(row.status).toBe('READY');
    expect(row.durationMs).toBeGreaterThanOrEqual(5000);
    expect(row.durationMs).toBeLessThanOrEqual(15000);
    const [likes] = await h.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(shortReactions)
      .where(eq(shortReactions.shortId, row.id));
    expect(row.likeCount).toBe(likes?.n);
  }
  expect(rows.some((r) => r.likeCount > 0)).toBe(true);
  expect(rows.some((r) => r.commentCount > 0)).toBe(true);
  const first = join(mediaDir, rows[0]?.videoKey ?? '');
  expect(await probe(resolveMediaTools({}), first)).toMatchObject({
    videoCodec: 'h264',
    audioCodec: 'aac',
    width: 360,
    height: 640,
  });
  const mtime = statSync(first).mtimeMs;

  // The public feed is alive.
  const feed = await h.app.inject({ method: 'GET', url: '/api/public/shorts/feeds?page=1&size=10' });
  expect(feed.json().data.length).toBe(rows.length);

  await seedDemoShorts(h.database.db, h.clock, config);
  expect(await h.database.db.select().from(shorts)).toHaveLength(rows.length);
  expect(statSync(first).mtimeMs).toBe(mtime);
});
