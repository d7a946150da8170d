import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { Config } from '../lib/config';

export interface TestS3Server {
  /** `http://127.0.0.1:<port>`: the store's own endpoint (path-style buckets). */
  endpoint: string;
  bucket: string;
  /** Config that points the app at this store. */
  config: Partial<Config>;
  /** Makes a stored object look last modified at `at` (the store reports its file's mtime). */
  backdate(key: string, at: Date): Promise<void>;
  close(): Promise<void>;
}

/** s3rver's built-in account. */
const ACCESS_KEY = 'S3RVER';

/**
 * A real S3-compatible HTTP server (s3rver from npm) started in this process on a free loopback port, with
 * one empty bucket; its objects live in a temp directory that `close()` removes.
 */
export async function startTestS3Server(bucket = 'ohgood-media'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'ohgood-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    config: {
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      S3_FORCE_PATH_STYLE: true,
    },
    async backdate(key, at) {
      // s3rver keeps an object's bytes in `<dir>/<bucket>/<key>._S3rver_object`.
      await utimes(join(directory, bucket, `${key}._S3rver_object`), at, at);
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
