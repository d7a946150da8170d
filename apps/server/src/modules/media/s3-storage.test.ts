import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shorts } from '../../db/schema';
import { testConfig } from '../../lib/config';
import { seedDemoShorts } from '../../seed/demo-shorts';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { heldBrokenEncoderFfmpeg, makeVideo, testTools, uploadShort } from '../../test/media';
import { startTestS3Server, type TestS3Server } from '../../test/s3-server';
import { ShortsPipeline } from '../shorts/pipeline';
import { probe } from './ffmpeg';
import { createStorage, LocalStorage, type MediaStorage, S3Storage } from './storage';

/*
 * The S3 path against a real S3-compatible HTTP server (s3rver, in this process): what lands in the bucket
 * must be byte-for-byte what the local path stores, and everything the app does with media must work on it.
 */
let s3: TestS3Server;
let h: Harness;
let storage: MediaStorage;
let client: S3Client;
let work: string;

const limits = { maxVideoBytes: 100 * 1024 * 1024, maxThumbnailBytes: 5 * 1024 * 1024, maxDurationSeconds: 60 };
const quiet = { error: () => undefined };

async function bucketKeys(): Promise<string[]> {
  const out = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
}

async function objectBytes(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-s3-test-'));
  s3 = await startTestS3Server();
  // The web app loads media straight from the store (a CDN in production).
  h = await createHarness({ config: { ...s3.config, MEDIA_BASE_URL: `${s3.endpoint}/${s3.bucket}/` } });
  storage = createStorage(testConfig(s3.config));
  client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  client?.destroy();
  await h?.close();
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('S3 storage', () => {
  it('stores a streamed file byte for byte (no aws-chunked framing), reads ranges, deletes', async () => {
    const bytes = randomBytes(202_896);
    const file = join(work, 'random.bin');
    writeFileSync(file, bytes);
    await storage.putFile('check/random.mp4', file, 'video/mp4');
    expect(await storage.size('check/random.mp4')).toBe(bytes.length);
    expect(Buffer.compare(await objectBytes('check/random.mp4'), bytes)).toBe(0);
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read('check/random.mp4', { start: 65_530, end: 65_545 })) {
      chunks.push(chunk as Buffer);
    }
    expect(Buffer.compare(Buffer.concat(chunks), bytes.subarray(65_530, 65_546))).toBe(0);
    await storage.download('check/random.mp4', join(work, 'downloaded.bin'));
    expect(Buffer.compare(readFileSync(join(work, 'downloaded.bin')), bytes)).toBe(0);
    await storage.delete('check/random.mp4');
    expect(await storage.size('check/random.mp4')).toBeNull();
    expect(await bucketKeys()).toEqual([]);
  });

  it('is ready when the bucket answers, and stays ready reporting storage: error when it does not', async () => {
    const ready = await h.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      draining: false,
      checks: { database: 'ok', storage: 'ok', dataDir: 'ok' },
    });

    const missing = await createHarness({
      config: { ...s3.config, S3_BUCKET: 'no-such-bucket' },
    });
    try {
      const res = await missing.app.inject({ method: 'GET', url: '/health/ready' });
      // A media outage holds uploads back but must not take payments and feeds out of the balancer.
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'ready',
        draining: false,
        checks: { database: 'ok', storage: 'error', dataDir: 'ok' },
      });
      // Liveness stays up: a storage outage must not get the instance restarted.
      expect((await missing.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await missing.close();
    }
  });
});

describe('media on S3', () => {
  it('seeds the demo shorts into the bucket exactly as the local path renders them', async () => {
    await seedDemoShorts(h.database.db, h.clock, testConfig(s3.config), storage);
    const rows = await h.database.db.select().from(shorts);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    const keys = rows.flatMap((r) => [r.videoKey, r.thumbnailKey ?? '']).sort();
    expect(await bucketKeys()).toEqual(keys);

    // The same seed into a local directory: rows exist, files are missing, so every clip is rendered again.
    const localDir = join(work, 'seed-local');
    await seedDemoShorts(h.database.db, h.clock, testConfig({ MEDIA_DIR: localDir }), new LocalStorage(localDir));
    for (const key of keys) {
      const local = readFileSync(join(localDir, key));
      expect(Buffer.compare(await objectBytes(key), local), key).toBe(0);
    }
    const first = join(localDir, rows[0]?.videoKey ?? '');
    expect(await probe(testTools, first)).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', width: 360 });
  }, 180_000); // two full seeds: eighteen ffmpeg renders on a busy 2-core machine

  it('uploads, transcodes to READY and serves ranges through /media/ and the media base URL', async () => {
    const { token, customerId } = await h.signUp();
    const clip = await makeVideo(work, 'upload.mp4', { seconds: 2, size: '160x284' });
    const before = new Set(await bucketKeys());
    const id = await uploadShort(h, token, clip, { title: 'S3 영상' });
    const status = await h.app.inject({ method: 'GET', url: `/api/shorts/${id}/status`, headers: bearer(token) });
    expect(status.json().data).toMatchObject({ status: 'READY' });
    const one = (await h.app.inject({ method: 'GET', url: `/api/public/shorts/${id}` })).json();
    // Only the MP4 and its poster stay; the original waiting for transcoding is gone from the bucket.
    const added = (await bucketKeys()).filter((k) => !before.has(k));
    expect(added).toEqual([one.thumbnail, one.videoName].sort());

    // The local path, given the same clip, stores the same bytes.
    const localDir = join(work, 'upload-local');
    const local = new ShortsPipeline(h.database.db, h.clock, new LocalStorage(localDir), testTools, limits, quiet);
    const copy = join(work, 'upload-copy.mp4');
    copyFileSync(clip, copy);
    const accepted = await local.accept({
      customerId,
      title: '로컬',
      content: '비교',
      videoFile: copy,
      thumbnailFile: null,
    });
    await local.idle();
    await local.close();
    const [localRow] = await h.database.db.select().from(shorts).where(eq(shorts.id, accepted.shortsId));
    expect(localRow?.status).toBe('READY');
    const full = await objectBytes(one.videoName);
    expect(Buffer.compare(full, readFileSync(join(localDir, localRow?.videoKey ?? '')))).toBe(0);
    expect(Buffer.compare(await objectBytes(one.thumbnail), readFileSync(join(localDir, accepted.thumbnail)))).toBe(0);

    // Through the app's /media/ route (read from the bucket with a ranged GET).
    const ranged = await h.app.inject({
      method: 'GET',
      url: `/media/${one.videoName}`,
      headers: { range: 'bytes=100-199' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 100-199/${full.length}`);
    expect(Buffer.compare(ranged.rawPayload, full.subarray(100, 200))).toBe(0);
    const whole = await h.app.inject({ method: 'GET', url: `/media/${one.videoName}` });
    expect(Buffer.compare(whole.rawPayload, full)).toBe(0);

    // Through the media base URL the web app uses: the store itself answers the range.
    expect(one.mediaBaseUrl).toBe(`${s3.endpoint}/${s3.bucket}/`);
    const direct = await fetch(`${one.mediaBaseUrl}${one.videoName}`, { headers: { range: 'bytes=1000-1999' } });
    expect(direct.status).toBe(206);
    expect(Buffer.compare(Buffer.from(await direct.arrayBuffer()), full.subarray(1000, 2000))).toBe(0);
    const poster = await fetch(`${one.mediaBaseUrl}${one.thumbnail}`);
    expect(
      Buffer.from(await poster.arrayBuffer())
        .subarray(0, 3)
        .toString('hex'),
    ).toBe('ffd8ff');
  });

  it('removes every object it stored from the bucket when transcoding fails', async () => {
    const { customerId } = await h.signUp();
    const before = await bucketKeys();
    const s3Storage = new S3Storage(s3.bucket, {
      region: 'us-east-1',
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    const held = heldBrokenEncoderFfmpeg(work);
    const broken = { ...testTools, ffmpeg: held.ffmpeg };
    const pipeline = new ShortsPipeline(h.database.db, h.clock, s3Storage, broken, limits, quiet);
    const clip = await makeVideo(work, 'to-fail.mp4', { seconds: 1 });
    const accepted = await pipeline.accept({
      customerId,
      title: '실패',
      content: '변환 실패',
      videoFile: clip,
      thumbnailFile: null,
    });
    // Poster (made in the background) and original are in the bucket while the transcode runs.
    await held.started;
    expect((await bucketKeys()).length).toBe(before.length + 2);
    held.release();
    await pipeline.idle();
    await pipeline.close();
    const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, accepted.shortsId));
    expect(row).toMatchObject({ status: 'FAILED', sourceKey: null, thumbnailKey: null });
    expect(await bucketKeys()).toEqual(before);
  });
});
