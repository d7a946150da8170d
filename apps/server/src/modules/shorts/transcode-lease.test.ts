import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../db/client';
import { shorts } from '../../db/schema';
import { testConfig } from '../../lib/config';
import { createHarness, type Harness } from '../../test/harness';
import { makeVideo, testTools } from '../../test/media';
import { startTestS3Server, type TestS3Server } from '../../test/s3-server';
import { withHooks } from '../../test/storage-hooks';
import { probe } from '../media/ffmpeg';
import { createStorage, type MediaStorage } from '../media/storage';
import { type PipelineInstance, ShortsPipeline } from './pipeline';
import { TRANSCODE_LEASE } from './transcode-lease';

/*
 * Instances on one database and one real S3-compatible store. A transcode runs under a lease: a short whose
 * instance died is taken over once the lease runs out (never before), and two instances resuming the same
 * short run one transcode between them. Downloads of the original count transcodes: each starts with one.
 */
let h: Harness;
let s3: TestS3Server;
let storage: MediaStorage;
let work: string;
let customerId: number;

const limits = { maxVideoBytes: 100 * 1024 * 1024, maxThumbnailBytes: 5 * 1024 * 1024, maxDurationSeconds: 60 };
const quiet = { error: () => undefined };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-lease-'));
  s3 = await startTestS3Server();
  storage = createStorage(testConfig(s3.config));
  h = await createHarness();
  ({ customerId } = await h.signUp());
});
afterAll(async () => {
  await h.close();
  await s3.close();
  rmSync(work, { recursive: true, force: true });
});

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open: () => open(), opened };
}

/** The real S3 storage; `downloads` counts transcodes started, `beforeDownload` can hold one. */
function counted(hooks: { beforeDownload?: () => Promise<void> } = {}) {
  const state = { downloads: 0 };
  const wrapped = withHooks(storage, {
    async download(key, file) {
      state.downloads += 1;
      await hooks.beforeDownload?.();
      return storage.download(key, file);
    },
  });
  return { storage: wrapped, state };
}

function instance(db: Database['db'], store: MediaStorage, name: string, options: PipelineInstance = {}) {
  return new ShortsPipeline(db, h.clock, store, testTools, limits, quiet, join(work, name), {
    instanceId: name,
    ...options,
  });
}

async function rowOf(id: number) {
  const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, id));
  return row;
}

/**
 * An instance that accepts an upload and dies while its transcode has begun: its database connections are
 * gone (no renewal, no hand-back), then its process stops.
 */
async function uploadToDyingInstance(name: string): Promise<number> {
  const own = await connectDatabase(h.database.url, { kind: h.database.kind, migrate: false, max: 2 });
  const entered = gate();
  const dead = gate();
  const held = counted({
    beforeDownload: () => {
      entered.open();
      return dead.opened;
    },
  });
  const dying = instance(own.db, held.storage, name);
  const clip = await makeVideo(work, `${name}.mp4`, { seconds: 1 });
  const { shortsId } = await dying.accept({
    customerId,
    title: '죽는 인스턴스',
    content: '변환 도중 중단',
    videoFile: clip,
    thumbnailFile: null,
  });
  await entered.opened;
  await own.close();
  const stopped = dying.close();
  dead.open();
  await stopped;
  return shortsId;
}

it('lets another live instance take over a transcode whose instance died once its lease runs out, and never while the lease is fresh', async () => {
  const shortsId = await uploadToDyingInstance('instance-a');
  const before = await rowOf(shortsId);
  expect(before).toMatchObject({ status: 'PROCESSING', transcodeOwner: 'instance-a' });
  expect(before?.transcodeLeaseUntil?.getTime()).toBe(h.clock.now().getTime() + TRANSCODE_LEASE.leaseMs);

  const b = counted();
  const live = instance(h.database.db, b.storage, 'instance-b');
  try {
    // The lease is still fresh: B starts and looks, and leaves the short alone.
    await live.recover();
    h.clock.advance(TRANSCODE_LEASE.leaseMs - 1);
    await live.takeOverStranded();
    await live.idle();
    expect(b.state.downloads).toBe(0);
    expect(await rowOf(shortsId)).toMatchObject({ status: 'PROCESSING', transcodeOwner: 'instance-a' });

    // Nobody renewed it: once it runs out, B's next look takes the short over and finishes it.
    h.clock.advance(1);
    await live.takeOverStranded();
    await live.idle();
    expect(b.state.downloads).toBe(1);
    const after = await rowOf(shortsId);
    expect(after).toMatchObject({
      status: 'READY',
      sourceKey: null,
      failureReason: null,
      transcodeOwner: null,
      transcodeLeaseUntil: null,
    });
    await storage.download(after?.videoKey ?? 'missing', join(work, 'taken-over.mp4'));
    expect(await probe(testTools, join(work, 'taken-over.mp4'))).toMatchObject({ videoCodec: 'h264' });
    expect(await storage.size(before?.sourceKey ?? 'missing')).toBeNull();
  } finally {
    await live.close();
  }
}, 120_000);

it('runs exactly one transcode when two instances resume the same PROCESSING short at once', async () => {
  // A dead instance left the short PROCESSING; its lease has run out.
  const shortsId = await uploadToDyingInstance('instance-dead');
  h.clock.advance(TRANSCODE_LEASE.leaseMs);

  // Whichever instance wins the claim holds its download until the other has tried and given up. A second
  // transcode (the failure this guards against) lets both go on, so the count below fails at once.
  const entered = gate();
  const release = gate();
  const hold = async () => {
    if (c.state.downloads + d.state.downloads > 1) return release.open();
    entered.open();
    await release.opened;
  };
  const c = counted({ beforeDownload: hold });
  const d = counted({ beforeDownload: hold });
  const first = instance(h.database.db, c.storage, 'instance-c');
  const second = instance(h.database.db, d.storage, 'instance-d');
  try {
    await Promise.all([first.recover(), second.recover()]);
    await entered.opened;
    await Promise.race([first.idle(), second.idle()]);
    const during = await rowOf(shortsId);
    expect(['instance-c', 'instance-d']).toContain(during?.transcodeOwner);
    release.open();
    await Promise.all([first.idle(), second.idle()]);

    expect(c.state.downloads + d.state.downloads).toBe(1);
    expect(await rowOf(shortsId)).toMatchObject({ status: 'READY', sourceKey: null, transcodeOwner: null });
  } finally {
    release.open();
    await Promise.all([first.close(), second.close()]);
  }
}, 120_000);

it('stops a stalled instance’s transcode once its renewal finds the lease taken over, leaving the short to the new owner', async () => {
  const clip = await makeVideo(work, 'stalled.mp4', { seconds: 1 });
  // E stalls in its download past the lease; its renewal (every 50 ms here) then finds F holding the short.
  const eHeld = gate();
  const fHeld = gate();
  const eEntered = gate();
  let stoppedLogged: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stoppedLogged = resolve;
  });
  let eVideos = 0;
  const eStorage = withHooks(storage, {
    async download(key, file) {
      eEntered.open();
      await eHeld.opened;
      return storage.download(key, file);
    },
    async putFile(key, file, type) {
      if (key.startsWith('shorts/') && key.endsWith('.mp4')) eVideos += 1;
      return storage.putFile(key, file, type);
    },
  });
  const stalled = new ShortsPipeline(
    h.database.db,
    h.clock,
    eStorage,
    testTools,
    limits,
    {
      error: () => undefined,
      warn: (_obj, msg) => {
        if (msg === 'transcode lease was taken over; stopping this transcode') stoppedLogged();
      },
    },
    join(work, 'instance-e'),
    { instanceId: 'instance-e', lease: { heartbeatMs: 50 } },
  );
  const fEntered = gate();
  const f = counted({
    beforeDownload: () => {
      fEntered.open();
      return fHeld.opened;
    },
  });
  const taker = instance(h.database.db, f.storage, 'instance-f');
  try {
    const { shortsId } = await stalled.accept({
      customerId,
      title: '멈춘 인스턴스',
      content: '임대 만료',
      videoFile: clip,
      thumbnailFile: null,
    });
    await eEntered.opened;
    // E's renewals keep its lease fresh while the clock stands still: F finds nothing to take.
    await taker.takeOverStranded();
    await taker.idle();
    expect(f.state.downloads).toBe(0);
    // Time jumps past the lease (E stalled) and F takes the short over; should E's renewal slip in between
    // the jump and F's claim, time jumps again.
    let taken = false;
    void fEntered.opened.then(() => {
      taken = true;
    });
    while (!taken) {
      h.clock.advance(TRANSCODE_LEASE.leaseMs);
      await taker.takeOverStranded();
      await Promise.race([fEntered.opened, taker.idle()]);
    }
    await stopped;
    expect((await rowOf(shortsId))?.transcodeOwner).toBe('instance-f');
    eHeld.open();
    await stalled.idle();
    expect(eVideos).toBe(0);
    fHeld.open();
    await taker.idle();
    expect(f.state.downloads).toBe(1);
    expect(await rowOf(shortsId)).toMatchObject({ status: 'READY', transcodeOwner: null });
  } finally {
    eHeld.open();
    fHeld.open();
    await Promise.all([stalled.close(), taker.close()]);
  }
}, 120_000);
