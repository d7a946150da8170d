import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shorts } from '../../db/schema';
import { createHarness, type Harness } from '../../test/harness';
import { makeVideo, testTools } from '../../test/media';
import { probe } from '../media/ffmpeg';
import { LocalStorage, type MediaStorage } from '../media/storage';
import { ShortsPipeline } from './pipeline';
import { TRANSCODE_LEASE } from './transcode-lease';

/*
 * Several instances: the transcode lease keeps two of them off one short, but an instance that stalls past
 * its lease (a paused process: no renewal) is still transcoding when another takes the short over. Whatever
 * the interleaving, the short must end READY with its files. Gates on the real storage force the two bad
 * orders deterministically.
 */
let h: Harness;
let work: string;
let customerId: number;

const limits = { maxVideoBytes: 100 * 1024 * 1024, maxThumbnailBytes: 5 * 1024 * 1024, maxDurationSeconds: 60 };
const quiet = { error: () => undefined };

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open: () => open(), opened };
}

/** The real local storage, with a hook before `download` and before storing a video. */
function gated(
  storage: MediaStorage,
  hooks: { beforeDownload?: () => Promise<void>; beforeVideo?: () => Promise<void> },
): MediaStorage {
  return Object.assign(Object.create(storage) as MediaStorage, {
    async download(key: string, file: string) {
      await hooks.beforeDownload?.();
      return storage.download(key, file);
    },
    async putFile(key: string, file: string, contentType: string) {
      if (key.endsWith('.mp4') && key.startsWith('shorts/')) await hooks.beforeVideo?.();
      return storage.putFile(key, file, contentType);
    },
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-instances-'));
  h = await createHarness();
  ({ customerId } = await h.signUp());
});
afterAll(async () => {
  await h.close();
  rmSync(work, { recursive: true, force: true });
});

async function twoInstances(order: 'second-finishes-late' | 'second-loses-original') {
  const dir = join(work, order);
  const storage = new LocalStorage(dir);
  const secondStarted = gate();
  const firstDone = gate();
  // Instance A takes the upload and stalls: it renews no lease, and transcodes only once B has the short.
  const a = new ShortsPipeline(
    h.database.db,
    h.clock,
    gated(storage, { beforeDownload: () => secondStarted.opened }),
    testTools,
    limits,
    quiet,
    join(dir, 'work-a'),
    { instanceId: `${order}-a`, lease: { heartbeatMs: 3_600_000 } },
  );
  // Instance B takes the short over once the lease runs out; it goes on only after A is done.
  const b = new ShortsPipeline(
    h.database.db,
    h.clock,
    gated(storage, {
      beforeDownload: async () => {
        secondStarted.open();
        if (order === 'second-loses-original') await firstDone.opened;
      },
      beforeVideo: order === 'second-finishes-late' ? () => firstDone.opened : undefined,
    }),
    testTools,
    limits,
    quiet,
    join(dir, 'work-b'),
    { instanceId: `${order}-b` },
  );
  const clip = await makeVideo(work, `${order}.mp4`, { seconds: 1 });
  const { shortsId } = await a.accept({
    customerId,
    title: '두 인스턴스',
    content: '동시 변환',
    videoFile: clip,
    thumbnailFile: null,
  });
  // A's lease runs out unrenewed; B starts and takes the short over.
  h.clock.advance(TRANSCODE_LEASE.leaseMs);
  await b.recover();
  await a.idle();
  firstDone.open();
  await b.idle();
  await Promise.all([a.close(), b.close()]);

  const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, shortsId));
  expect(row).toMatchObject({ status: 'READY', sourceKey: null, failureReason: null });
  expect(existsSync(join(dir, row?.thumbnailKey ?? 'missing'))).toBe(true);
  expect(await probe(testTools, join(dir, row?.videoKey ?? 'missing'))).toMatchObject({ videoCodec: 'h264' });
}

it('keeps the video when a second instance finishes the same short after the first', async () => {
  await twoInstances('second-finishes-late');
});

it('keeps the short READY when a second instance fails because the first removed the original', async () => {
  await twoInstances('second-loses-original');
});
