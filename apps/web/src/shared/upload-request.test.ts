import { shortsEndpoints } from '@ohgood/contract/shorts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonAnswer, stubXhr } from '../test/stub-xhr';
import { ApiError, callEndpoint } from './api-client';
import { getToken, setToken } from './auth-token';
import { registerNavigator } from './navigation';
import { currentToast, dismissToast } from './toast';
import { type UploadProgress, withUploadProgress } from './upload-request';

/*
 * An upload sent through the progress transport is still the caller's call: the same token, the same refused
 * session, the same error envelope and parsing as a fetch (docs/rules/api.md#A4–A5, A9). XMLHttpRequest is
 * stubbed: it stands for the browser, not our server.
 */

const navigate = vi.fn();

beforeEach(() => {
  registerNavigator(navigate);
  navigate.mockReset();
  dismissToast();
  setToken('tok');
});
afterEach(() => vi.unstubAllGlobals());

function form(): FormData {
  const body = new FormData();
  body.append('title', '제목');
  body.append('video', new File(['video'], 'clip.mp4', { type: 'video/mp4' }));
  return body;
}

/** Uploads `body` through the progress transport, collecting what it reports. */
function upload(body: FormData, seen: UploadProgress[] = [], signal?: AbortSignal) {
  return callEndpoint(shortsEndpoints.upload, {
    body,
    transport: withUploadProgress((progress) => seen.push(progress)),
    signal,
  });
}

const stored = { success: true, message: 'OK', data: { shortsId: 7, status: 'PROCESSING', thumbnail: '/t.jpg' } };

describe('the upload transport', () => {
  it('sends the form with the bearer token, reports each step of its bytes, and resolves to the body', async () => {
    const calls = stubXhr((_call, progress) => {
      progress(0, 1000);
      progress(400, 1000);
      progress(1000, 1000);
      return jsonAnswer(200, stored);
    });
    const seen: UploadProgress[] = [];
    const body = form();
    await expect(upload(body, seen)).resolves.toEqual(stored);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/upload', body });
    expect(calls[0]?.headers.authorization).toBe('Bearer tok');
    // The browser writes the multipart boundary; a content type of ours would break it.
    expect(calls[0]?.headers['content-type']).toBeUndefined();
    expect(seen).toEqual([
      { sent: 0, total: 1000 },
      { sent: 400, total: 1000 },
      { sent: 1000, total: 1000 },
    ]);
  });

  it('sets no timeout: an upload takes as long as its bytes do', async () => {
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    stubXhr(() => jsonAnswer(200, stored));
    await upload(form());
    expect(timeout).not.toHaveBeenCalled();
    timeout.mockRestore();
  });

  it('on a 401 ends the session as a fetch call does: the token is gone, a toast, /login', async () => {
    stubXhr(() => jsonAnswer(401, { success: false, code: 'UNAUTHORIZED', message: '인증이 필요합니다.' }));
    await expect(upload(form())).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(getToken()).toBeNull();
    expect(currentToast()?.message).toBe('로그인이 만료되었어요. 다시 로그인해 주세요.');
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('rejects a server refusal with its code, message and Retry-After, keeping the session', async () => {
    stubXhr(() =>
      jsonAnswer(413, { success: false, code: 'FILE_TOO_LARGE', message: '파일은 100MB 이하만 올릴 수 있습니다.' }),
    );
    const tooLarge = await upload(form()).catch((error: unknown) => error);
    expect(tooLarge).toBeInstanceOf(ApiError);
    expect(tooLarge).toMatchObject({
      status: 413,
      code: 'FILE_TOO_LARGE',
      message: '파일은 100MB 이하만 올릴 수 있습니다.',
    });

    stubXhr(
      () =>
        new Response(JSON.stringify({ success: false, code: 'SERVICE_UNAVAILABLE', message: '잠시 후 다시' }), {
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '3' },
        }),
    );
    await expect(upload(form())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterMs: 3000 });
    // A body not in our envelope (a proxy's page) is the generic failure.
    stubXhr(() => new Response('<html>Bad Gateway</html>', { status: 502 }));
    await expect(upload(form())).rejects.toMatchObject({ status: 502, code: 'REQUEST_FAILED' });
    expect(getToken()).toBe('tok');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('reads no answer at all as the Korean network error, and an abort as the abort', async () => {
    stubXhr(() => 'network-error');
    await expect(upload(form())).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
      message: '네트워크 오류가 발생했습니다. 다시 시도해주세요.',
    });

    const leaving = new AbortController();
    let answer: (response: Response) => void = () => undefined;
    stubXhr(() => new Promise<Response>((resolve) => (answer = resolve)));
    const pending = upload(form(), [], leaving.signal);
    leaving.abort(new DOMException('page left', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', message: 'page left' });
    // An answer that comes after the abort changes nothing.
    answer(jsonAnswer(200, stored));
    expect(getToken()).toBe('tok');
  });
});
