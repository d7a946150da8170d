import { constants, createReadStream } from 'node:fs';
import { access, copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { MSG } from '@ohgood/contract/messages';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import { isDependencyOutage } from '../../lib/unavailable';

/** One stored object as a listing sees it. */
export interface StoredObject {
  key: string;
  lastModified: Date;
}

/** Where media bytes live. Keys are relative paths such as `shorts/3f…a1.mp4`; API responses carry keys. */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Stores a local file under `key` (the file is moved or copied; the caller removes its temp file). */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** Size in bytes, or null when the key does not exist. */
  size(key: string): Promise<number | null>;
  /** Bytes `start..end` inclusive (the whole object without a range). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Copies the object to a local file (for ffmpeg). */
  download(key: string, file: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (e.g. `shorts/`), page by page, in no promised order. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Throws when the store cannot be used right now (readiness probe). */
  check(): Promise<void>;
}

/**
 * Storing while the store or its disk is down (refused, reset, 5xx, ENOSPC): a 503 with a message that says
 * only media waits, keeping the original as its cause so the transcode queue knows to try again later.
 */
async function storing(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (isDependencyOutage(error))
      throw new AppError(503, 'SERVICE_UNAVAILABLE', MSG.mediaUnavailable, { cause: error });
    throw error;
  }
}

/** Moves `file` to `target`, making the target's folder if it is missing; false when a rename cannot do it. */
async function renameInto(file: string, target: string): Promise<boolean> {
  try {
    await rename(file, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
  }
  await mkdir(dirname(target), { recursive: true });
  return rename(file, target).then(
    () => true,
    () => false,
  );
}

/** Refuses keys that could escape the media root. */
export function safeKey(key: string): string | null {
  if (!/^[a-z0-9][a-z0-9/_.-]*$/i.test(key) || key.includes('..') || key.includes('//')) return null;
  return key;
}

export class LocalStorage implements MediaStorage {
  readonly kind = 'local' as const;
  readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }
  pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`bad media key ${key}`);
    return path;
  }
  async putFile(key: string, file: string): Promise<void> {
    const target = this.pathOf(key);
    await storing(async () => {
      // The key's folder is made only when missing: an upload waits on each file-system call, and under load
      // each one waits its turn on the event loop.
      const moved = await renameInto(file, target);
      if (moved) return;
      // Different file systems (temp dir vs data dir): copy instead; a half-written copy is removed.
      await copyFile(file, target).catch(async (error: unknown) => {
        await rm(target, { force: true });
        throw error;
      });
    });
  }
  async size(key: string): Promise<number | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? info.size : null;
    } catch {
      return null;
    }
  }
  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
  }
  async download(key: string, file: string): Promise<void> {
    await copyFile(this.pathOf(key), file);
  }
  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
  async *list(prefix: string): AsyncIterable<StoredObject> {
    // Prefixes name directories here (`shorts/`); a missing one holds nothing.
    yield* this.#walk(this.pathOf(prefix.replace(/\/+$/, '')));
  }
  async *#walk(dir: string): AsyncIterable<StoredObject> {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) yield* this.#walk(path);
      else if (entry.isFile()) {
        const info = await stat(path).catch(() => null);
        if (info) yield { key: relative(this.root, path).split(sep).join('/'), lastModified: info.mtime };
      }
    }
  }
  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK);
  }
}

/** Any S3-compatible store (AWS S3, MinIO, R2). The SDK is loaded only when selected. */
export class S3Storage implements MediaStorage {
  readonly kind = 's3' as const;
  #client: Promise<import('@aws-sdk/client-s3').S3Client>;
  #sdk = import('@aws-sdk/client-s3');
  constructor(
    private readonly bucket: string,
    options: {
      region: string;
      endpoint?: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle: boolean;
    },
  ) {
    this.#client = this.#sdk.then(
      ({ S3Client }) =>
        new S3Client({
          region: options.region,
          endpoint: options.endpoint,
          forcePathStyle: options.forcePathStyle,
          // The SDK's default flexible checksums send streamed bodies as `aws-chunked` with a trailing CRC;
          // many S3-compatible stores (s3rver, older MinIO, Ceph) store that framing verbatim. Checksums
          // only where an operation requires one; the store still verifies the signed Content-Length.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
          credentials:
            options.accessKeyId && options.secretAccessKey
              ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
              : undefined,
        }),
    );
  }
  async putFile(key: string, file: string, contentType: string): Promise<void> {
    const [{ PutObjectCommand }, client, info] = await Promise.all([this.#sdk, this.#client, stat(file)]);
    await storing(async () => {
      await client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: createReadStream(file),
          ContentLength: info.size,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    });
  }
  async size(key: string): Promise<number | null> {
    const [{ HeadObjectCommand }, client] = await Promise.all([this.#sdk, this.#client]);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? null;
    } catch {
      return null;
    }
  }
  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const [{ GetObjectCommand }, client] = await Promise.all([this.#sdk, this.#client]);
    const out = await client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return out.Body as Readable;
  }
  async download(key: string, file: string): Promise<void> {
    const { createWriteStream } = await import('node:fs');
    const { pipeline } = await import('node:stream/promises');
    await mkdir(dirname(file), { recursive: true });
    await pipeline(await this.read(key), createWriteStream(file));
  }
  async delete(key: string): Promise<void> {
    const [{ DeleteObjectCommand }, client] = await Promise.all([this.#sdk, this.#client]);
    await client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
  async *list(prefix: string): AsyncIterable<StoredObject> {
    const [{ ListObjectsV2Command }, client] = await Promise.all([this.#sdk, this.#client]);
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, lastModified: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
  async check(): Promise<void> {
    const [{ HeadBucketCommand }, client] = await Promise.all([this.#sdk, this.#client]);
    await client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }
}

export function mediaDir(config: Pick<Config, 'MEDIA_DIR' | 'DATA_DIR'>): string {
  return resolve(config.MEDIA_DIR ?? join(config.DATA_DIR, 'media'));
}

export function createStorage(config: Config): MediaStorage {
  if (config.STORAGE === 's3') {
    if (!config.S3_BUCKET) throw new Error('STORAGE=s3 needs S3_BUCKET');
    return new S3Storage(config.S3_BUCKET, {
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalStorage(mediaDir(config));
}

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

export function contentTypeOf(key: string): string {
  const ext = key.split('.').pop()?.toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}
