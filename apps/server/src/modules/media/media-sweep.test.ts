import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mediaDeletions, shorts } from '../../db/schema';
import { testConfig } from '../../lib/config';
import { createHarness, type Harness } from '../../test/harness';
import { brokenEncoderFfmpeg, makeVideo, testTools } from '../../test/media';
import { startTestS3Server, type TestS3Server } from '../../test/s3-server';
import { withHooks } from '../../test/storage-hooks';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy';
import { ShortsPipeline } from '../shorts/pipeline';
import { createStorage, LocalStorage, type MediaStorage } from './storage';
import { ORPHAN_MIN_AGE_MS, sweepMedia } from './sweep';

/*
 * The media sweep against a real S3-compatible store behind a TCP hop (to take it away): a failed short's
 * files go even when the store was down as it failed, and objects no row refers to go after a day.
 */
let h: Harness;
let s3: TestS3Server;
let proxy: TcpProxy;
let storage: MediaStorage;
let work: string;

const limits = { maxVideoBytes: 100 * 1024 * 1024, maxThumbnailBytes: 5 * 1024 * 1024, maxDurationSeconds: 60 };
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-sweep-'));
  s3 = await startTestS3Server();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
  storage = createStorage(testConfig({ ...s3.config, S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` }));
  h = await createHarness();
});
afterAll(async () => {
  await proxy.restore().catch(() => undefined);
  await h.close();
  await proxy.close();
  await s3.close();
  rmSync(work, { recursive: true, force: true });
});

async function keysIn(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list(prefix)) keys.push(object.key);
  return keys.sort();
}

async function putObject(key: string): Promise<void> {
  const file = join(work, key.replaceAll('/', '_'));
  writeFileSync(file, 'bytes');
  await storage.putFile(key, file, 'application/octet-stream');
}

it("removes a failed short's original and poster once the store is back, retrying the deletes the outage refused", async () => {
  const { customerId } = await h.signUp();
  let cut = false;
  // The store goes away exactly when the failed short's files are deleted.
  const cutOnDelete = withHooks(storage, {
    async delete(key) {
      if (!cut) {
        cut = true;
        await proxy.cut();
      }
      return storage.delete(key);
    },
  });
  const tools = { ...testTools, ffmpeg: brokenEncoderFfmpeg(work) };
  const pipeline = new ShortsPipeline(h.database.db, h.clock, cutOnDelete, tools, limits, { error: () => undefined });
  try {
    const clip = await makeVideo(work, 'fails.mp4', { seconds: 1 });
    const { shortsId } = await pipeline.accept({
      customerId,
      title: '실패하는 영상',
      content: '변환 실패',
      videoFile: clip,
      thumbnailFile: null,
    });
    await pipeline.idle();
    const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, shortsId));
    expect(row).toMatchObject({ status: 'FAILED', thumbnailKey: null, sourceKey: null });
    const id = row?.videoKey.replace(/^shorts\/|\.mp4$/g, '');
    const files = [`incoming/${id}.mp4`, `shorts/${id}.jpg`];
    // Refused at once: owed, in the transaction that failed the short.
    const owed = await h.database.db.select().from(mediaDeletions);
    expect(owed.map((o) => o.key).sort()).toEqual([...files, `shorts/${id}.mp4`].sort());
    expect(owed.map((o) => o.attempts)).toEqual([1, 1, 1]);

    // The next sweep, with the store still down, fails (the scheduler logs it) and leaves them owed.
    h.clock.advance(60_000);
    await expect(sweepMedia(h.database.db, storage, h.clock)).rejects.toThrow(/ECONNREFUSED/);
    expect((await h.database.db.select().from(mediaDeletions)).map((o) => o.attempts)).toEqual([2, 2, 2]);

    await proxy.restore();
    expect(await keysIn('incoming/')).toContain(files[0]);
    expect(await keysIn('shorts/')).toContain(files[1]);
    h.clock.advance(2 * 60_000);
    expect(await sweepMedia(h.database.db, storage, h.clock)).toMatchObject({ owedDeleted: 3, owedFailed: 0 });
    expect(await keysIn('incoming/')).not.toContain(files[0]);
    expect(await keysIn('shorts/')).not.toContain(files[1]);
    expect(await h.database.db.select().from(mediaDeletions)).toEqual([]);
  } finally {
    await proxy.restore().catch(() => undefined);
    await pipeline.close();
  }
}, 120_000);

it('removes objects no row refers to once they are a day old, and keeps younger ones and referenced ones', async () => {
  const { customerId } = await h.signUp();
  // Object ages are the store's (real time): the app clock is set to real time for this sweep.
  h.clock.set(new Date());
  const old = new Date(h.clock.now().getTime() - ORPHAN_MIN_AGE_MS - 60_000);
  const orphans = ['incoming/orphan-original.mp4', 'shorts/orphan-poster.jpg', 'avatars/orphan-photo.webp'];
  const inFlight = 'incoming/upload-in-flight.mp4';
  const referenced = ['shorts/kept-video.mp4', 'shorts/kept-poster.jpg'];
  const demo = 'demo/seeded.mp4';
  for (const key of [...orphans, inFlight, ...referenced, demo]) await putObject(key);
  for (const key of [...orphans, ...referenced, demo]) await s3.backdate(key, old);
  // A young object: an upload whose row is not written yet.
  await s3.backdate(inFlight, new Date(h.clock.now().getTime() - DAY + 60 * 60_000));
  await h.database.db.insert(shorts).values({
    customerId,
    title: '남는 영상',
    content: '참조됨',
    videoKey: referenced[0] as string,
    thumbnailKey: referenced[1] as string,
    status: 'READY',
    createdAt: old,
  });

  const outcome = await sweepMedia(h.database.db, storage, h.clock);
  expect(outcome.orphansDeleted).toBe(orphans.length);
  const left = [...(await keysIn('incoming/')), ...(await keysIn('shorts/')), ...(await keysIn('avatars/'))];
  for (const key of orphans) expect(left).not.toContain(key);
  expect(left).toEqual(expect.arrayContaining([inFlight, ...referenced]));
  expect(await keysIn('demo/')).toEqual([demo]);
}, 60_000);

it('sweeps a local media directory the same way (keys listed by prefix, ages from the files)', async () => {
  h.clock.set(new Date());
  const local = new LocalStorage(join(work, 'local-media'));
  const old = new Date(h.clock.now().getTime() - ORPHAN_MIN_AGE_MS - 60_000);
  for (const key of ['shorts/nested/old-orphan.jpg', 'incoming/fresh.mp4']) {
    mkdirSync(join(local.root, key, '..'), { recursive: true });
    writeFileSync(join(local.root, key), 'bytes');
  }
  utimesSync(join(local.root, 'shorts/nested/old-orphan.jpg'), old, old);
  const listed: string[] = [];
  for await (const object of local.list('shorts/')) listed.push(object.key);
  expect(listed).toEqual(['shorts/nested/old-orphan.jpg']);

  expect(await sweepMedia(h.database.db, local, h.clock)).toMatchObject({ orphansDeleted: 1 });
  expect(existsSync(join(local.root, 'shorts/nested/old-orphan.jpg'))).toBe(false);
  expect(existsSync(join(local.root, 'incoming/fresh.mp4'))).toBe(true);
});
