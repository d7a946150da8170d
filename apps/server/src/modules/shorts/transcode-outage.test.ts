import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shorts } from '../../db/schema';
import { testConfig } from '../../lib/config';
import { createHarness, type Harness } from '../../test/harness';
import { ffmpegWrapper, makeVideo, testTools } from '../../test/media';
import { startTestS3Server, type TestS3Server } from '../../test/s3-server';
import { withHooks } from '../../test/storage-hooks';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy';
import { createStorage, LocalStorage } from '../media/storage';
import { ShortsPipeline } from './pipeline';

/*
 * A real S3-compatible store behind a TCP hop: the store goes away exactly when the background transcode
 * fetches the original, and comes back a moment later. The accepted upload must survive that.
 */
let h: Harness;
let s3: TestS3Server;
let proxy: TcpProxy;
let work: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-outage-'));
  s3 = await startTestS3Server();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
  await proxy.close();
  await s3.close();
  rmSync(work, { recursive: true, force: true });
});

const limits = { maxVideoBytes: 100 * 1024 * 1024, maxThumbnailBytes: 5 * 1024 * 1024, maxDurationSeconds: 60 };

it('keeps a short PROCESSING through a media-store outage during its transcode and finishes it once the store is back', async () => {
  const { customerId } = await h.signUp();
  const s3Storage = createStorage(testConfig({ ...s3.config, S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` }));
  let downloads = 0;
  // The real S3 storage; its first download finds the store gone.
  const storage = withHooks(s3Storage, {
    async download(key, file) {
      downloads += 1;
      if (downloads === 1) await proxy.cut();
      return s3Storage.download(key, file);
    },
  });
  let waited: () => void = () => undefined;
  const firstWait = new Promise<void>((resolve) => {
    waited = resolve;
  });
  const errors: unknown[] = [];
  const pipeline = new ShortsPipeline(h.database.db, h.clock, storage, testTools, limits, {
    error: (obj) => errors.push(obj),
    warn: (_obj, msg) => {
      if (msg === 'transcode waits for the media store or disk') waited();
    },
  });
  try {
    const clip = await makeVideo(work, 'outage.mp4', { seconds: 1 });
    const { shortsId } = await pipeline.accept({
      customerId,
      title: '저장소 장애',
      content: '변환 중 장애',
      videoFile: clip,
      thumbnailFile: null,
    });
    await firstWait;
    const [during] = await h.database.db.select().from(shorts).where(eq(shorts.id, shortsId));
    expect(during).toMatchObject({ status: 'PROCESSING', failureReason: null });
    expect(during?.sourceKey).toMatch(/^incoming\//);

    await proxy.restore();
    await pipeline.idle();
    const [after] = await h.database.db.select().from(shorts).where(eq(shorts.id, shortsId));
    expect(after).toMatchObject({ status: 'READY', sourceKey: null, failureReason: null });
    expect(downloads).toBeGreaterThanOrEqual(2);
    expect(await s3Storage.size(after?.videoKey ?? '')).toBeGreaterThan(0);
    // The private original is gone once the short is READY.
    expect(await s3Storage.size(during?.sourceKey ?? '')).toBeNull();
    expect(errors).toEqual([]);
  } finally {
    await proxy.restore().catch(() => undefined);
    await pipeline.close();
  }
}, 120_000);

it('keeps a short PROCESSING when the disk is full while its poster is made, and makes it once there is room', async () => {
  const { customerId } = await h.signUp();
  // A real ffmpeg whose first poster (one frame) meets a full disk, as ffmpeg reports it.
  const once = join(work, 'poster-disk-full-once');
  const ffmpeg = ffmpegWrapper(
    join(work, 'full-disk-poster-ffmpeg.sh'),
    `case " $* " in *" -frames:v 1 "*) [ -f '${once}' ] || { : > '${once}'; echo "Error writing poster: No space left on device" >&2; exit 1; };; esac`,
  );
  let waited: () => void = () => undefined;
  const firstWait = new Promise<void>((resolve) => {
    waited = resolve;
  });
  const storage = new LocalStorage(join(work, 'poster-media'));
  const pipeline = new ShortsPipeline(h.database.db, h.clock, storage, { ...testTools, ffmpeg }, limits, {
    error: () => undefined,
    warn: (_obj, msg) => {
      if (msg === 'transcode waits for the media store or disk') waited();
    },
  });
  try {
    const clip = await makeVideo(work, 'poster-full.mp4', { seconds: 1 });
    const { shortsId, thumbnail } = await pipeline.accept({
      customerId,
      title: '디스크 부족',
      content: '포스터 중 장애',
      videoFile: clip,
      thumbnailFile: null,
    });
    // Waiting for the retry, or (were the full disk taken for a bad video) for the failed short.
    await Promise.race([firstWait, pipeline.idle()]);
    const [during] = await h.database.db.select().from(shorts).where(eq(shorts.id, shortsId));
    expect(during).toMatchObject({ status: 'PROCESSING', failureReason: null });
    await pipeline.idle();
    const [after] = await h.database.db.select().from(shorts).where(eq(shorts.id, shortsId));
    expect(after).toMatchObject({ status: 'READY', failureReason: null, thumbnailKey: thumbnail });
    expect(await storage.size(thumbnail)).toBeGreaterThan(0);
  } finally {
    await pipeline.close();
  }
}, 120_000);
