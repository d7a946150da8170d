import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';

/*
 * A refusal sent before the request's body was read (no token, a wrong type, too large, a banned uploader)
 * must reach a client that is still sending that body. Node's fetch (undici) writes its whole body before it
 * reads the answer: a server that closes the socket on the unread rest makes it see EPIPE or a reset instead,
 * and the web app would show a network error where the customer should read the refusal.
 *
 * The client runs in its own process, as a real one does: within this process the server's reads and the
 * client's writes take turns on one event loop and the reset does not show.
 */
const run = promisify(execFile);
let h: Harness;
let base: string;
let token: string;

beforeAll(async () => {
  h = await createHarness({ config: { UPLOAD_MAX_VIDEO_MB: 1 } });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  ({ token } = await h.signUp());
});
afterAll(() => h.close());

interface Answer {
  status?: number;
  body?: { success?: boolean; code?: string; message?: string };
  error?: string;
}

/**
 * POSTs 3 MB to /api/upload with Node's fetch from a child process, `times` times in a row: as a multipart
 * form with a video part, or as one raw body of `contentType`.
 */
async function uploadFromAnotherProcess(
  options: { token?: string; contentType?: string; times?: number } = {},
): Promise<Answer[]> {
  const script = `
    const [url, token, contentType, times] = process.argv.slice(1);
    const answers = [];
    for (let i = 0; i < Number(times); i++) {
      const bytes = new Uint8Array(3 * 1024 * 1024).fill(7);
      let body = bytes;
      const headers = {};
      if (token) headers.authorization = 'Bearer ' + token;
      if (contentType) headers['content-type'] = contentType;
      else {
        body = new FormData();
        body.append('title', '제목');
        body.append('content', '내용');
        body.append('video', new Blob([bytes], { type: 'video/mp4' }), 'clip.mp4');
      }
      try {
        const res = await fetch(url, { method: 'POST', headers, body });
        answers.push({ status: res.status, body: await res.json() });
      } catch (error) {
        answers.push({ error: String(error.cause?.code ?? error.message) });
      }
    }
    console.log(JSON.stringify(answers));
  `;
  const args = [`${base}/api/upload`, options.token ?? '', options.contentType ?? '', String(options.times ?? 1)];
  const { stdout } = await run(process.execPath, ['-e', script, ...args], { timeout: 60_000 });
  return JSON.parse(stdout) as Answer[];
}

describe('an upload refused before its body is read', () => {
  it('answers an anonymous 3 MB upload with 401 and the contract error body, three times in three', async () => {
    const answers = await uploadFromAnotherProcess({ times: 3 });
    expect(answers).toHaveLength(3);
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 401,
        body: { success: false, code: 'UNAUTHORIZED', message: '인증이 필요합니다. 다시 로그인해주세요.' },
      });
    }
  });

  it('answers a 3 MB body of the wrong type with 415', async () => {
    const [answer] = await uploadFromAnotherProcess({ token, contentType: 'application/octet-stream' });
    expect(answer).toMatchObject({ status: 415, body: { success: false, code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('answers a video over the limit with 413 and the limit in its message', async () => {
    const [answer] = await uploadFromAnotherProcess({ token });
    expect(answer).toMatchObject({ status: 413, body: { success: false, code: 'FILE_TOO_LARGE' } });
    expect(answer?.body?.message).toContain('1MB');
  });

  it('answers a creator banned from uploading with 403 and the ban', async () => {
    const banned = await h.signUp();
    const until = new Date(h.clock.now().getTime() + 30 * 86_400_000);
    await h.database.pool.query('update customers set upload_banned_until = $2 where id = $1', [
      banned.customerId,
      until,
    ]);
    const [answer] = await uploadFromAnotherProcess({ token: banned.token });
    expect(answer).toMatchObject({ status: 403, body: { success: false, code: 'UPLOAD_BANNED' } });
  });
});
