import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDisplayable } from '@ohgood/contract/input';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, shorts } from '../../db/schema';
import { type Tx, withTx } from '../../db/tx';
import { recordEvents } from '../../events/record-event';
import type { Clock } from '../../lib/clock';
import type { Config } from '../../lib/config';
import { AppError, badRequest } from '../../lib/errors';
import { isDependencyOutage } from '../../lib/unavailable';
import { cleanWorkRoot, makeWorkDir, removeWorkDir } from '../../lib/work-dir';
import { detectImage, detectVideo } from '../media/detect';
import {
  extractPoster,
  type MediaTools,
  measureDuration,
  type ProbeResult,
  probe,
  ToolError,
  transcodeToMp4,
} from '../media/ffmpeg';
import { oweDeletion, settleDeletions } from '../media/owed-deletions';
import type { MediaStorage } from '../media/storage';
import { renderThumbnail } from '../media/thumbnail';
import { type LeaseTimes, leaseEnded, TRANSCODE_LEASE, TranscodeLeases } from './transcode-lease';

/** The upload limits of the configuration, in bytes and seconds. */
export function uploadLimits(
  config: Pick<Config, 'UPLOAD_MAX_VIDEO_MB' | 'UPLOAD_MAX_THUMBNAIL_MB' | 'UPLOAD_MAX_DURATION_SECONDS'>,
): UploadLimits {
  return {
    maxVideoBytes: config.UPLOAD_MAX_VIDEO_MB * MB,
    maxThumbnailBytes: config.UPLOAD_MAX_THUMBNAIL_MB * MB,
    maxDurationSeconds: config.UPLOAD_MAX_DURATION_SECONDS,
  };
}

const MB = 1024 * 1024;

export interface UploadLimits {
  maxVideoBytes: number;
  maxThumbnailBytes: number;
  maxDurationSeconds: number;
}

export interface IncomingUpload {
  customerId: number;
  title: string;
  content: string;
  /** Temp files written by the route; the pipeline removes them whatever happens. */
  videoFile: string;
  thumbnailFile: string | null;
}

/** Backoff of a transcode that met a storage or disk outage: 1 s, doubling, at most a minute. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 60_000;

/**
 * The store or the scratch disk failed, not the video: refused/reset connections, a 5xx from S3, a full
 * disk (also as ffmpeg's own "No space left on device" while writing its output).
 */
function isStorageOutage(error: unknown): boolean {
  if (isDependencyOutage(error)) return true;
  return error instanceof ToolError && /No space left on device/i.test(error.stderr);
}

/** Probed durations are a few ms off; a clip recorded for exactly the limit must still pass. */
const DURATION_TOLERANCE_SECONDS = 0.25;

/** Who this instance is to the other instances (its transcode leases carry it) and its lease timing. */
export interface PipelineInstance {
  /** Unique per process; the default is a fresh random id. */
  instanceId?: string;
  lease?: Partial<LeaseTimes>;
}

/**
 * Upload → validated, stored original + poster + PROCESSING row → background transcode → READY (or FAILED
 * with every stored file removed). Status lives in the database. A transcode runs under a lease the instance
 * renews while it works (transcode-lease.ts): PROCESSING shorts without a live lease, left by a stopped or
 * dead instance, are taken over at start-up and by a periodic look, and never by two instances at once.
 */
export class ShortsPipeline {
  #queue: number[] = [];
  #running: Promise<void> | null = null;
  #abort = new AbortController();
  #closed = false;
  #idleWaiters: Array<() => void> = [];
  #tools: MediaTools | null = null;
  /** Shorts waiting to try again after a storage or disk outage: id → failed tries so far. */
  #retries = new Map<number, number>();
  #retryTimers = new Set<NodeJS.Timeout>();
  readonly #leases: TranscodeLeases;
  readonly #times: LeaseTimes;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
    /** Resolved on first use, so building the app does not spawn ffmpeg. */
    private readonly toolsOf: MediaTools | (() => MediaTools),
    readonly limits: UploadLimits,
    private readonly log: { error(obj: unknown, msg: string): void; warn?(obj: unknown, msg: string): void },
    /**
     * Scratch space: the app passes DATA_DIR/tmp (lib/work-dir.ts); leftovers of killed processes are removed
     * at start. The default (system temp) is for tools and tests that build a pipeline by hand.
     */
    readonly workRoot: string = join(tmpdir(), 'ohgood-work'),
    instance: PipelineInstance = {},
  ) {
    this.#times = { ...TRANSCODE_LEASE, ...instance.lease };
    this.#leases = new TranscodeLeases(db, clock, instance.instanceId ?? randomUUID(), this.#times.leaseMs);
  }

  /** This instance's id in the transcode leases. */
  get instanceId(): string {
    return this.#leases.owner;
  }

  private get tools(): MediaTools {
    this.#tools ??= typeof this.toolsOf === 'function' ? this.toolsOf() : this.toolsOf;
    return this.#tools;
  }

  async accept(upload: IncomingUpload): Promise<{ shortsId: number; thumbnail: string }> {
    // Multipart fields bypass the JSON schemas: the same rule as the contract's plainText().
    if (!isDisplayable(upload.title) || !isDisplayable(upload.content)) {
      await Promise.all([upload.videoFile, upload.thumbnailFile].map((f) => f && rm(f, { force: true })));
      throw badRequest('VALIDATION_ERROR', '입력값이 올바르지 않습니다.');
    }
    const stored: string[] = [];
    // Scratch space only for a given thumbnail's rendering: an upload without one makes no directory.
    let work: string | undefined;
    try {
      // Side by side: each file-system call of the request waits its turn on the event loop under load.
      const [{ size: videoSize }, kind] = await Promise.all([stat(upload.videoFile), detectVideo(upload.videoFile)]);
      if (videoSize > this.limits.maxVideoBytes)
        throw tooLarge(`영상은 ${mb(this.limits.maxVideoBytes)}MB 이하만 올릴 수 있습니다.`);
      if (!kind) {
        throw new AppError(415, 'UNSUPPORTED_VIDEO', '지원하지 않는 영상 형식입니다. (mp4, webm, mov)');
      }
      const id = randomUUID();
      // A given thumbnail is stored now. Without one, the background makes the first frame the poster under
      // the same key (#process): probing and decoding stay out of the request (ADR 0147).
      const thumbnailKey = `shorts/${id}.jpg`;
      if (upload.thumbnailFile) {
        if ((await stat(upload.thumbnailFile)).size > this.limits.maxThumbnailBytes) {
          throw tooLarge(`썸네일은 ${mb(this.limits.maxThumbnailBytes)}MB 이하만 올릴 수 있습니다.`);
        }
        const image = await detectImage(upload.thumbnailFile);
        if (!image) throw new AppError(415, 'UNSUPPORTED_IMAGE', '썸네일은 jpeg, png, webp 이미지만 가능합니다.');
        // Never the uploaded bytes: decoded under a pixel limit and re-encoded (media/thumbnail.ts).
        work = await makeWorkDir(this.workRoot, 'upload-');
        const rendered = join(work, 'thumbnail.jpg');
        await renderThumbnail(upload.thumbnailFile, rendered);
        await this.storage.putFile(thumbnailKey, rendered, 'image/jpeg');
        stored.push(thumbnailKey);
      }
      const sourceKey = `incoming/${id}.${kind}`;
      await this.storage.putFile(sourceKey, upload.videoFile, kind === 'webm' ? 'video/webm' : 'video/mp4');
      stored.push(sourceKey);

      const [row] = await this.db
        .insert(shorts)
        .values({
          customerId: upload.customerId,
          title: upload.title.normalize('NFC'),
          content: upload.content.normalize('NFC'),
          videoKey: `shorts/${id}.mp4`,
          thumbnailKey,
          sourceKey,
          // Probed in the background (#process); the transcode's own probe sets them at READY.
          status: 'PROCESSING',
          // Leased to this instance from the start, so no other takes it before its transcode begins.
          transcodeOwner: this.#leases.owner,
          transcodeLeaseUntil: this.#leases.until(),
          createdAt: this.clock.now(),
        })
        .returning({ id: shorts.id });
      if (!row) throw new Error('insert returned no row');
      this.enqueue(row.id);
      return { shortsId: row.id, thumbnail: thumbnailKey };
    } catch (error) {
      await Promise.all(stored.map((key) => this.storage.delete(key).catch(() => undefined)));
      throw error;
    } finally {
      if (work) await removeWorkDir(work, [join(work, 'thumbnail.jpg')]);
    }
  }

  enqueue(id: number): void {
    if (this.#closed || this.#queue.includes(id)) return;
    this.#queue.push(id);
    if (!this.#running) this.#running = this.#drain();
  }

  /**
   * Start-up recovery: scratch files a killed process left are removed and PROCESSING shorts nobody holds a
   * live lease on go in the queue. The same look then runs every few seconds as the job registry's
   * `transcode-takeover` (jobs/registry.ts), so a short whose instance died (it stopped renewing) is taken
   * over once its lease runs out.
   */
  async recover(): Promise<void> {
    const removed = await cleanWorkRoot(this.workRoot);
    if (removed.length > 0) this.log.warn?.({ removed }, 'removed scratch files left by a stopped process');
    await this.takeOverStranded();
  }

  /** Queues every PROCESSING short whose lease is free or has run out (the claim itself is atomic). */
  async takeOverStranded(): Promise<void> {
    for (const id of await this.#leases.claimable()) this.enqueue(id);
  }

  /** Uploads waiting or being transcoded (the one in hand counts while the queue drains). */
  pending(): number {
    return this.#queue.length + (this.#running ? 1 : 0);
  }

  /** Resolves when the queue is empty and no short waits to try again (tests and graceful shutdown). */
  idle(): Promise<void> {
    if (!this.#running && this.#retryTimers.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * A storage or disk outage is not the video's fault: the short stays PROCESSING (its owner sees '처리 중')
   * and is tried again after 1, 2, 4 … 60 s, for as long as the outage lasts.
   */
  #retryLater(id: number): void {
    const tries = (this.#retries.get(id) ?? 0) + 1;
    this.#retries.set(id, tries);
    const delay = Math.min(RETRY_BASE_MS * 2 ** (tries - 1), RETRY_MAX_MS);
    const timer = setTimeout(() => {
      this.#retryTimers.delete(timer);
      this.enqueue(id);
      this.#wakeIdle();
    }, delay);
    this.#retryTimers.add(timer);
  }

  #wakeIdle(): void {
    if (this.#running || this.#retryTimers.size > 0) return;
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /**
   * Stops the queue and kills a running ffmpeg; the row stays PROCESSING and its lease is handed back, so
   * another instance (or this one restarted) takes it over at once. A process that dies cannot hand it
   * back: its lease runs out instead.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queue = [];
    for (const timer of this.#retryTimers) clearTimeout(timer);
    this.#retryTimers.clear();
    this.#abort.abort();
    await this.#running;
    await this.#leases
      .releaseAll()
      .catch((error: unknown) => this.log.warn?.({ err: error }, 'could not hand back transcode leases'));
  }

  /**
   * Renews the lease while the transcode runs. A lease found taken over (this instance stalled past its
   * expiry) stops this transcode: the new owner does it. A renewal the database could not answer is tried
   * at the next beat; the lease stays ours until it runs out.
   */
  #heartbeat(id: number, lost: AbortController): () => void {
    const timer = setInterval(async () => {
      const held = await this.#leases.renew(id).catch(() => true);
      if (!held) {
        this.log.warn?.({ shortsId: id }, 'transcode lease was taken over; stopping this transcode');
        lost.abort();
      }
    }, this.#times.heartbeatMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0 && !this.#closed) {
      const id = this.#queue.shift() as number;
      await this.#process(id).catch((error: unknown) =>
        this.log.error({ err: error, shortsId: id }, 'transcode crashed'),
      );
    }
    this.#running = null;
    this.#wakeIdle();
  }

  /** Deletes owed files now; what the store refuses stays owed for the media sweep (media/sweep.ts). */
  async #settle(keys: string[]): Promise<void> {
    const { failed } = await settleDeletions(this.db, this.storage, this.clock, keys).catch(() => ({
      failed: keys.length,
    }));
    if (failed > 0) this.log.warn?.({ keys }, 'media store refused deletes; the media sweep retries them');
  }

  async #isReady(id: number): Promise<boolean> {
    const [row] = await this.db.select({ status: shorts.status }).from(shorts).where(eq(shorts.id, id));
    return row?.status === 'READY';
  }

  /**
   * The probe's checks (docs/rules/shorts.md#S6), the first thing a transcode does: a video ffmpeg cannot
   * read, or longer than the limit, fails with the sentence its uploader sees.
   */
  async #check(source: string, signal: AbortSignal): Promise<ProbeResult> {
    // A tool that cannot read the video answers null; a stopped or taken-over transcode still stops.
    const unlessStopped = (error: unknown) => {
      if (signal.aborted) throw error;
      return null;
    };
    const options = { signal, background: true };
    const info = await probe(this.tools, source, options).catch(unlessStopped);
    if (!info?.hasVideo) throw new VideoRefused('영상 파일을 읽을 수 없습니다.');
    const duration = info.durationSeconds ?? (await measureDuration(this.tools, source, options).catch(unlessStopped));
    if (duration === null) throw new VideoRefused('영상 길이를 확인할 수 없습니다.');
    if (duration > this.limits.maxDurationSeconds + DURATION_TOLERANCE_SECONDS) {
      throw new VideoRefused(`영상은 ${this.limits.maxDurationSeconds}초 이하만 올릴 수 있습니다.`);
    }
    return info;
  }

  /** The first frame as the poster of a short uploaded without a thumbnail (not yet made, or lost). */
  async #posterFor(key: string | null, source: string, work: string, signal: AbortSignal): Promise<void> {
    if (!key || (await this.storage.size(key)) !== null) return;
    const poster = join(work, 'poster.jpg');
    await extractPoster(this.tools, source, poster, { signal, background: true }).catch((error: unknown) => {
      // A full disk is not the video's fault: the short waits and tries again (S7).
      if (signal.aborted || isStorageOutage(error)) throw error;
      throw new VideoRefused('영상의 첫 화면을 읽을 수 없습니다.');
    });
    await this.storage.putFile(key, poster, 'image/jpeg');
  }

  async #process(id: number): Promise<void> {
    // Only with the lease: another instance holding a live one is transcoding this short right now.
    const row = await this.#leases.claim(id);
    if (!row?.sourceKey) return;
    const work = await makeWorkDir(this.workRoot, 'transcode-');
    const lost = new AbortController();
    const stopHeartbeat = this.#heartbeat(id, lost);
    const signal = AbortSignal.any([this.#abort.signal, lost.signal]);
    try {
      const source = join(work, `source-${row.sourceKey.split('/').pop()}`);
      const output = join(work, 'out.mp4');
      await this.storage.download(row.sourceKey, source);
      const info = await this.#check(source, signal);
      await this.#posterFor(row.thumbnailKey, source, work, signal);
      // Nobody waits on it: the requests come first (ADR 0146).
      await transcodeToMp4(this.tools, source, output, info.hasAudio, { signal, background: true });
      const result = await probe(this.tools, output, { signal, background: true });
      if (!result.hasVideo || !result.durationSeconds) throw new Error('transcoded file has no video');
      await this.storage.putFile(row.videoKey, output, 'video/mp4');
      const durationMs = Math.round(result.durationSeconds * 1000);
      const updated = await withTx(this.db, async (tx) => {
        const done = await tx
          .update(shorts)
          .set({
            ...leaseEnded,
            status: 'READY',
            sourceKey: null,
            durationMs,
            width: result.width,
            height: result.height,
          })
          .where(and(eq(shorts.id, id), eq(shorts.status, 'PROCESSING')))
          .returning({ id: shorts.id });
        if (done.length > 0) {
          await recordUploadFinished(tx, row, 'READY', this.clock.now());
          await oweDeletion(tx, [row.sourceKey], this.clock.now());
        }
        return done;
      });
      // Not ours any more. An instance that stalled past its lease may finish after the one that took over
      // (or the other way round): the video sits under the same key, so keep it unless the short is gone.
      this.#retries.delete(id);
      if (updated.length === 0 && !(await this.#isReady(id))) await this.storage.delete(row.videoKey);
      await this.#settle([row.sourceKey]);
    } catch (error) {
      if (signal.aborted) return; // shutting down or taken over: leave PROCESSING to the lease's holder
      if (isStorageOutage(error)) {
        this.log.warn?.({ err: error, shortsId: id }, 'transcode waits for the media store or disk');
        this.#retryLater(id);
        return;
      }
      this.#retries.delete(id);
      const files = [row.videoKey, row.thumbnailKey, row.sourceKey].filter((key): key is string => key !== null);
      // Only a short still PROCESSING fails: another instance may have finished it meanwhile (and removed
      // the original this one could then not read), and its files must stay.
      const failed = await withTx(this.db, async (tx) => {
        const done = await tx
          .update(shorts)
          .set({
            ...leaseEnded,
            status: 'FAILED',
            sourceKey: null,
            thumbnailKey: null,
            failureReason: error instanceof VideoRefused ? error.message : '영상 변환에 실패했습니다.',
          })
          .where(and(eq(shorts.id, id), eq(shorts.status, 'PROCESSING')))
          .returning({ id: shorts.id });
        if (done.length > 0) {
          await recordUploadFinished(tx, row, 'FAILED', this.clock.now());
          // A failed short keeps its row as a status record for the uploader, but no files.
          await oweDeletion(tx, files, this.clock.now());
        }
        return done;
      });
      if (failed.length === 0) return;
      this.log.error({ err: error, shortsId: id }, 'transcode failed');
      await this.#settle(files);
    } finally {
      stopHeartbeat();
      await rm(work, { recursive: true, force: true });
    }
  }
}

/** A video the checks refuse: the short fails with this sentence as its reason. */
class VideoRefused extends Error {}

export const mb = (bytes: number) => Math.round(bytes / MB);

export function tooLarge(message: string): AppError {
  return new AppError(413, 'FILE_TOO_LARGE', message);
}

/**
 * A finished upload's events, in the transaction that marks it (docs/rules/notifications.md#N2): the uploader
 * hears READY or FAILED, and a READY short is published to the creator's subscribers.
 */
async function recordUploadFinished(
  tx: Tx,
  row: { id: number; customerId: number; title: string },
  status: 'READY' | 'FAILED',
  at: Date,
): Promise<void> {
  const finished = {
    type: 'shorts.upload_finished' as const,
    customerId: row.customerId,
    shortId: row.id,
    title: row.title,
    status,
  };
  if (status === 'FAILED') return recordEvents(tx, [finished], at);
  const [creator] = await tx
    .select({ nickname: customers.nickname })
    .from(customers)
    .where(eq(customers.id, row.customerId));
  await recordEvents(
    tx,
    [
      finished,
      {
        type: 'shorts.published',
        customerId: row.customerId,
        shortId: row.id,
        title: row.title,
        nickname: creator?.nickname ?? '',
      },
    ],
    at,
  );
}
