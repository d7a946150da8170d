import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shorts } from '../../db/schema';
import { PROBE_FILE_PREFIX } from '../../http/readiness';
import { workRoot } from '../../lib/work-dir';
import { bearer, createHarness, type Harness } from '../../test/harness';
import {
  brokenEncoderFfmpeg,
  ffmpegWrapper,
  makeImage,
  makeVideo,
  multipart,
  onH264Encode,
  testTools,
} from '../../test/media';
import { probe } from '../media/ffmpeg';
import { LocalStorage } from '../media/storage';
import { ShortsPipeline } from './pipeline';

/** A valid PNG signature and header declaring width×height (8-bit grey), with a tiny image stream. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let h: Harness;
let token: string;
let work: string;
let mediaDir: string;

/** Resolves when `path` has content (an fs event, not a timer). */
function waitForFile(path: string): Promise<void> {
  const written = () => existsSync(path) && statSync(path).size > 0;
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), () => {
      if (!written()) return;
      watcher.close();
      resolve();
    });
    if (written()) {
      watcher.close();
      resolve();
    }
  });
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

async function upload(
  fields: Record<string, string>,
  files: Record<string, { path: string; filename: string; type: string }>,
  harness = h,
  auth = token,
) {
  const body = await multipart(fields, files);
  return harness.app.inject({
    method: 'POST',
    url: '/api/upload',
    headers: { ...body.headers, ...bearer(auth) },
    payload: body.payload,
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-upload-test-'));
  mediaDir = join(work, 'media');
  h = await createHarness({ config: { MEDIA_DIR: mediaDir } });
  ({ token } = await h.signUp());
});
afterAll(async () => {
  await h.close();
  rmSync(work, { recursive: true, force: true });
});

describe('upload validation', () => {
  it('refuses a text file renamed .mp4 with 415, whatever its name and declared type', async () => {
    const fake = join(work, 'fake.mp4');
    writeFileSync(fake, '이것은 영상이 아닙니다. just text pretending to be a video\n'.repeat(20));
    const res = await upload(
      { title: '가짜', content: '가짜 영상' },
      { video: { path: fake, filename: 'fake.mp4', type: 'video/mp4' } },
    );
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_VIDEO' });
    expect(res.json().message).toMatch(/[가-힣]/);
    expect(filesUnder(mediaDir)).toEqual([]);
  });

  it('fails a 61 s video in the background with the limit as its reason, keeping no file', async () => {
    const long = await makeVideo(work, 'long.mp4', { seconds: 61, fps: 2, size: '32x32', audio: false });
    const res = await upload(
      { title: '긴 영상', content: '61초' },
      { video: { path: long, filename: 'long.mp4', type: 'video/mp4' } },
    );
    // Probing is the transcode's first step, not the request's (ADR 0147): the upload is taken at once.
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'PROCESSING' });
    await h.app.mediaPipeline.idle();
    const status = await h.app.inject({
      method: 'GET',
      url: `/api/shorts/${res.json().data.shortsId}/status`,
      headers: bearer(token),
    });
    expect(status.json().data).toMatchObject({
      status: 'FAILED',
      failureReason: '영상은 60초 이하만 올릴 수 있습니다.',
    });
    expect(filesUnder(mediaDir)).toEqual([]);
    const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, res.json().data.shortsId));
    expect(row).toMatchObject({ status: 'FAILED', thumbnailKey: null, sourceKey: null });
  });

  it('fails a file that starts like an MP4 but holds no readable video, with the reason its uploader sees', async () => {
    const fake = join(work, 'header-only.mp4');
    // An ftyp box (so the byte check takes it for an MP4) followed by noise ffprobe cannot read.
    const ftyp = Buffer.from('00000018667479706d703432000000006d703432', 'hex');
    writeFileSync(fake, Buffer.concat([ftyp, Buffer.alloc(4096, 7)]));
    const res = await upload(
      { title: '깨진 영상', content: '머리만 MP4' },
      { video: { path: fake, filename: 'x.mp4', type: 'video/mp4' } },
    );
    expect(res.statusCode).toBe(200);
    await h.app.mediaPipeline.idle();
    const status = await h.app.inject({
      method: 'GET',
      url: `/api/shorts/${res.json().data.shortsId}/status`,
      headers: bearer(token),
    });
    expect(status.json().data).toMatchObject({ status: 'FAILED', failureReason: '영상 파일을 읽을 수 없습니다.' });
    expect(filesUnder(mediaDir)).toEqual([]);
  });

  it('requires a video, a title and content after trimming (400) and enforces the title length', async () => {
    const clip = await makeVideo(work, 'short.mp4', { seconds: 1 });
    const video = { path: clip, filename: 'short.mp4', type: 'video/mp4' };
    const blank = await upload({ title: '   ', content: '내용' }, { video });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('영상, 제목, 내용을 모두 입력해주세요.');
    const noVideo = await upload({ title: '제목', content: '내용' }, {});
    expect(noVideo.statusCode).toBe(400);
    const longTitle = await upload({ title: '가'.repeat(51), content: '내용' }, { video });
    expect(longTitle.statusCode).toBe(400);
    expect(longTitle.json().code).toBe('TITLE_TOO_LONG');
    expect(filesUnder(mediaDir)).toEqual([]);
  });

  it('refuses a thumbnail that is not an image with 415', async () => {
    const clip = await makeVideo(work, 'short2.mp4', { seconds: 1 });
    const notImage = join(work, 'thumb.png');
    writeFileSync(notImage, 'not an image at all');
    const res = await upload(
      { title: '썸네일', content: '썸네일 테스트' },
      {
        video: { path: clip, filename: 'short2.mp4', type: 'video/mp4' },
        thumbnail: { path: notImage, filename: 'thumb.png', type: 'image/png' },
      },
    );
    expect(res.statusCode).toBe(415);
    expect(filesUnder(mediaDir)).toEqual([]);
  });

  it('refuses a thumbnail that declares more pixels than the limit (a 30000×30000 PNG) before decoding it', async () => {
    const clip = await makeVideo(work, 'short3.mp4', { seconds: 1 });
    const bomb = join(work, 'bomb.png');
    writeFileSync(bomb, pngHeaderOnly(30_000, 30_000));
    const res = await upload(
      { title: '픽셀 폭탄', content: '썸네일' },
      {
        video: { path: clip, filename: 'short3.mp4', type: 'video/mp4' },
        thumbnail: { path: bomb, filename: 'thumb.png', type: 'image/png' },
      },
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: '썸네일 이미지의 해상도가 너무 큽니다. (최대 4,000만 화소)',
    });
    expect(filesUnder(mediaDir)).toEqual([]);
  });

  it('refuses a video over the size limit with 413', async () => {
    const small = await createHarness({ config: { MEDIA_DIR: join(work, 'small-media'), UPLOAD_MAX_VIDEO_MB: 0.01 } });
    try {
      const user = await small.signUp();
      const clip = await makeVideo(work, 'big.mp4', { seconds: 3, size: '320x568', fps: 15 });
      const res = await upload(
        { title: '큰 영상', content: '용량 초과' },
        { video: { path: clip, filename: 'big.mp4', type: 'video/mp4' } },
        small,
        user.token,
      );
      expect(res.statusCode).toBe(413);
      expect(res.json().success).toBe(false);
      expect(filesUnder(join(work, 'small-media'))).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('needs a login', async () => {
    const clip = await makeVideo(work, 'anon.mp4', { seconds: 1 });
    const body = await multipart(
      { title: 'a', content: 'b' },
      { video: { path: clip, filename: 'a.mp4', type: 'video/mp4' } },
    );
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: body.headers,
      payload: body.payload,
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('processing', () => {
  let shortsId: number;
  let videoName: string;

  it('transcodes a duration-less WebM (as Chrome records it) into a playable fast-start H.264/AAC MP4', async () => {
    const webm = await makeVideo(work, 'rec.webm', { seconds: 3, format: 'webm-stream', size: '160x284' });
    // The precondition that matters: the container really has no duration.
    expect((await probe(testTools, webm)).durationSeconds).toBeNull();

    const res = await upload(
      { title: ' 녹화 영상 ', content: '카메라로 찍었어요' },
      { video: { path: webm, filename: 'blob', type: 'video/webm' } },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'PROCESSING' });
    shortsId = res.json().data.shortsId;
    expect(res.json().data.thumbnail).toMatch(/^shorts\/[0-9a-f-]+\.jpg$/);

    await h.app.mediaPipeline.idle();
    const status = await h.app.inject({ method: 'GET', url: `/api/shorts/${shortsId}/status`, headers: bearer(token) });
    expect(status.json().data).toMatchObject({ shortsId, status: 'READY', failureReason: null });

    const one = await h.app.inject({ method: 'GET', url: `/api/public/shorts/${shortsId}` });
    expect(one.statusCode).toBe(200);
    const item = one.json();
    expect(item.title).toBe('녹화 영상');
    expect(item.durationSeconds).toBeGreaterThan(2.5);
    expect(item.durationSeconds).toBeLessThan(3.6);
    videoName = item.videoName;
    expect(videoName).toMatch(/^shorts\/[0-9a-f-]+\.mp4$/);

    const served = await h.app.inject({ method: 'GET', url: `/media/${videoName}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('video/mp4');
    const out = join(work, 'served.mp4');
    writeFileSync(out, served.rawPayload);
    const streams = await probe(testTools, out);
    expect(streams.videoCodec).toBe('h264');
    expect(streams.audioCodec).toBe('aac');
    // Fast start: the index (moov) comes before the media data (mdat).
    const bytes = served.rawPayload;
    expect(bytes.indexOf('moov')).toBeGreaterThan(0);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    // The original waiting for transcoding is gone; only the MP4 and its poster remain.
    const files = filesUnder(mediaDir)
      .map((f) => f.slice(mediaDir.length + 1))
      .sort();
    expect(files).toEqual([item.thumbnail, videoName].sort());
    const poster = await readFile(join(mediaDir, item.thumbnail));
    expect(poster.subarray(0, 3).toString('hex')).toBe('ffd8ff');
  }, 120_000);

  it('scales a tall video so its short side is at most 720 px and stores a given PNG thumbnail re-encoded', async () => {
    const tall = await makeVideo(work, 'tall.mp4', {
      seconds: 2,
      size: '1080x1920',
      fps: 10,
      audio: false,
      bitrate: '16M',
    });
    // Bigger than the 1 MB JSON body limit: multipart streams are limited only by the upload limits.
    expect(statSync(tall).size).toBeGreaterThan(2 * 1024 * 1024);
    const png = await makeImage(work, 'thumb-real.png', 'png');
    const res = await upload(
      { title: '세로 영상', content: '큰 화면' },
      {
        video: { path: tall, filename: 'tall.mov', type: 'video/quicktime' },
        thumbnail: { path: png, filename: 'thumb.png', type: 'image/png' },
      },
    );
    expect(res.statusCode).toBe(200);
    // Decoded and re-encoded, never the uploaded bytes.
    expect(res.json().data.thumbnail).toMatch(/^shorts\/[0-9a-f-]+\.jpg$/);
    const stored = await readFile(join(mediaDir, res.json().data.thumbnail));
    expect(stored.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(Buffer.compare(stored, await readFile(png))).not.toBe(0);
    await h.app.mediaPipeline.idle();
    const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, res.json().data.shortsId));
    expect(row).toMatchObject({ status: 'READY', width: 720, height: 1280, sourceKey: null });
  }, 120_000);

  describe('media serving', () => {
    it('answers a range request with 206 and exactly those bytes, with long cache headers', async () => {
      const full = await readFile(join(mediaDir, videoName));
      const res = await h.app.inject({
        method: 'GET',
        url: `/media/${videoName}`,
        headers: { range: 'bytes=100-199' },
      });
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes 100-199/${full.length}`);
      expect(res.headers['content-length']).toBe('100');
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['cache-control']).toContain('max-age=31536000');
      expect(Buffer.compare(res.rawPayload, full.subarray(100, 200))).toBe(0);

      const suffix = await h.app.inject({ method: 'GET', url: `/media/${videoName}`, headers: { range: 'bytes=-10' } });
      expect(suffix.statusCode).toBe(206);
      expect(Buffer.compare(suffix.rawPayload, full.subarray(full.length - 10))).toBe(0);

      const open = await h.app.inject({
        method: 'GET',
        url: `/media/${videoName}`,
        headers: { range: `bytes=${full.length - 5}-` },
      });
      expect(open.statusCode).toBe(206);
      expect(open.rawPayload.length).toBe(5);

      const head = await h.app.inject({ method: 'HEAD', url: `/media/${videoName}`, headers: { range: 'bytes=0-9' } });
      expect(head.statusCode).toBe(206);
      expect(head.headers['content-length']).toBe('10');
      expect(head.rawPayload.length).toBe(0);

      const beyond = await h.app.inject({
        method: 'GET',
        url: `/media/${videoName}`,
        headers: { range: `bytes=${full.length}-` },
      });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${full.length}`);
    });

    it('names each file with a strong validator so a preloaded range is kept and resumed, not fetched again', async () => {
      const full = await readFile(join(mediaDir, videoName));
      const whole = await h.app.inject({ method: 'GET', url: `/media/${videoName}` });
      const etag = whole.headers.etag as string;
      // Strong (no W/): browsers keep partial video only for a strong validator.
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(whole.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const first = await h.app.inject({
        method: 'GET',
        url: `/media/${videoName}`,
        headers: { range: 'bytes=0-1023' },
      });
      expect(first.statusCode).toBe(206);
      expect(first.headers.etag).toBe(etag);

      // The rest, asked against the validator of the bytes already held: only the rest.
      const rest = await h.app.inject({
        method: 'GET',
        url: `/media/${videoName}`,
        headers: { range: 'bytes=1024-', 'if-range': etag },
      });
      expect(rest.statusCode).toBe(206);
      expect(Buffer.compare(rest.rawPayload, full.subarray(1024))).toBe(0);
      // Asked against another content's validator: the whole file, never a range of a different video.
      const other = await h.app.inject({
        method: 'GET',
        url: `/media/${videoName}`,
        headers: { range: 'bytes=1024-', 'if-range': '"something-else"' },
      });
      expect(other.statusCode).toBe(200);
      expect(other.rawPayload.length).toBe(full.length);

      const again = await h.app.inject({
        method: 'GET',
        url: `/media/${videoName}`,
        headers: { 'if-none-match': etag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      // Another file has another validator.
      const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, shortsId));
      const poster = await h.app.inject({ method: 'GET', url: `/media/${row?.thumbnailKey}` });
      expect(poster.headers.etag).not.toBe(etag);
    });

    it('serves posters as images and refuses unknown keys and path tricks', async () => {
      const [row] = await h.database.db.select().from(shorts).where(eq(shorts.id, shortsId));
      const poster = await h.app.inject({ method: 'GET', url: `/media/${row?.thumbnailKey}` });
      expect(poster.statusCode).toBe(200);
      expect(poster.headers['content-type']).toBe('image/jpeg');
      expect((await h.app.inject({ method: 'GET', url: '/media/shorts/nope.mp4' })).statusCode).toBe(404);
      expect((await h.app.inject({ method: 'GET', url: '/media/..%2f..%2fetc%2fpasswd' })).statusCode).toBe(404);
      expect((await h.app.inject({ method: 'GET', url: '/media/incoming/x.webm' })).statusCode).toBe(404);
    });
  });
});

describe('failure and recovery', () => {
  it('marks a short FAILED and removes every stored file when transcoding fails', async () => {
    const wrapper = brokenEncoderFfmpeg(work);
    const dir = join(work, 'broken-media');
    const broken = await createHarness({ config: { MEDIA_DIR: dir, FFMPEG_PATH: wrapper } });
    try {
      const user = await broken.signUp();
      const clip = await makeVideo(work, 'to-fail.mp4', { seconds: 1 });
      const res = await upload(
        { title: '실패할 영상', content: '변환 실패' },
        { video: { path: clip, filename: 'a.mp4', type: 'video/mp4' } },
        broken,
        user.token,
      );
      expect(res.statusCode).toBe(200);
      await broken.app.mediaPipeline.idle();
      const status = await broken.app.inject({
        method: 'GET',
        url: `/api/shorts/${res.json().data.shortsId}/status`,
        headers: bearer(user.token),
      });
      expect(status.json().data).toMatchObject({ status: 'FAILED', failureReason: '영상 변환에 실패했습니다.' });
      expect(filesUnder(dir)).toEqual([]);
      const feed = await broken.app.inject({ method: 'GET', url: '/api/public/shorts/feeds' });
      expect(feed.json().data).toEqual([]);
    } finally {
      await broken.close();
    }
  }, 120_000);

  it('leaves an interrupted transcode PROCESSING, works under DATA_DIR, and after a restart cleans what a killed process left and finishes it', async () => {
    const dir = join(work, 'restart-media');
    const dataDir = join(work, 'restart-data');
    // A real ffmpeg (the system's or npm's, as the app resolves it) whose transcode hangs until it is killed:
    // the shutdown below always finds it running.
    const marker = join(work, 'transcode-started');
    const wrapper = ffmpegWrapper(
      join(work, 'hanging-ffmpeg.sh'),
      onH264Encode(`echo "$@" > "${marker}"; exec sleep 300`),
    );
    const first = await createHarness({ config: { MEDIA_DIR: dir, DATA_DIR: dataDir, FFMPEG_PATH: wrapper } });
    try {
      const user = await first.signUp();
      const clip = await makeVideo(work, 'restart.mp4', { seconds: 2, size: '180x320' });
      const started = waitForFile(marker);
      const res = await upload(
        { title: '재시작 영상', content: '중단 후 복구' },
        { video: { path: clip, filename: 'r.mp4', type: 'video/mp4' } },
        first,
        user.token,
      );
      const id = res.json().data.shortsId as number;
      await started;
      // Scratch files live under DATA_DIR/tmp/<pid>, never in the system temp directory.
      expect(readFileSync(marker, 'utf8')).toContain(join(workRoot(dataDir), String(process.pid), 'transcode-'));
      // Shutdown kills the running ffmpeg; the row must stay PROCESSING with its original kept.
      await first.app.mediaPipeline.close();
      const [interrupted] = await first.database.db.select().from(shorts).where(eq(shorts.id, id));
      expect(interrupted?.status).toBe('PROCESSING');
      expect(interrupted?.sourceKey).toMatch(/^incoming\//);
      // Only playable videos are listed.
      const feed = await first.app.inject({ method: 'GET', url: '/api/public/shorts/feeds' });
      expect(feed.json().data).toEqual([]);
      expect((await first.app.inject({ method: 'GET', url: `/api/public/shorts/${id}` })).statusCode).toBe(404);

      // What a process killed with -9 mid-transcode leaves behind: its pid folder, no longer running.
      const deadPid = spawnSync('true').pid;
      const leftover = join(workRoot(dataDir), String(deadPid), 'transcode-abc123');
      mkdirSync(leftover, { recursive: true });
      writeFileSync(join(leftover, 'out.mp4'), 'half a video');

      // The next process cleans up and re-queues it at start-up.
      const limits = { maxVideoBytes: 100 * 1024 * 1024, maxThumbnailBytes: 5 * 1024 * 1024, maxDurationSeconds: 60 };
      const restarted = new ShortsPipeline(
        first.database.db,
        first.clock,
        new LocalStorage(dir),
        testTools,
        limits,
        { error: () => undefined, warn: () => undefined },
        workRoot(dataDir),
      );
      await restarted.recover();
      expect(existsSync(join(workRoot(dataDir), String(deadPid)))).toBe(false);
      await restarted.idle();
      const [done] = await first.database.db.select().from(shorts).where(eq(shorts.id, id));
      expect(done).toMatchObject({ status: 'READY', sourceKey: null });
      expect(filesUnder(dir).some((f) => f.includes('incoming'))).toBe(false);
      // The harness's readiness check writes and removes a probe file of its own there every few seconds.
      const scratch = filesUnder(workRoot(dataDir)).filter((f) => !basename(f).startsWith(PROBE_FILE_PREFIX));
      expect(scratch).toEqual([]);
      await restarted.close();
    } finally {
      await first.close();
    }
  }, 120_000);
});
