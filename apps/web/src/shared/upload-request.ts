import type { Transport } from './caller';

/*
 * The caller's transport for a body whose sending a screen follows (an upload's own card). `fetch` reports
 * nothing while a request body goes out, so this request is made with XMLHttpRequest and its
 * `upload.onprogress`, and its answer handed back as a `Response`: the caller (`caller.ts`) reads it exactly
 * as it reads fetch's, so the token, a refused session, the error envelope and the parsing stay its own.
 * It is imported by the upload's code only, so no other page's chunk carries it.
 */

/** How much of a request body has gone: bytes sent of `total` (null when the browser cannot tell). */
export interface UploadProgress {
  sent: number;
  total: number | null;
}

/** Statuses whose response cannot carry a body (the `Response` constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** The raw `name: value` lines of `getAllResponseHeaders()` as Headers. */
function headersOf(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * A transport telling `onProgress` how much of the body has gone. Like `fetch` it resolves to the answer
 * whatever its status, rejects with a TypeError when none came (the network) and with the signal's reason
 * when the signal aborts it. No timeout of its own: an upload has none (docs/rules/api.md#A5).
 */
export const withUploadProgress =
  (onProgress: (progress: UploadProgress) => void): Transport =>
  (url, request) => {
    const { signal } = request;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const xhr = new XMLHttpRequest();
      const abort = () => xhr.abort();
      const settle = () => signal?.removeEventListener('abort', abort);
      xhr.open(request.method, url);
      for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) =>
        onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : null });
      xhr.onload = () => {
        settle();
        const body = NULL_BODY_STATUSES.has(xhr.status) ? null : xhr.responseText;
        resolve(new Response(body, { status: xhr.status, headers: headersOf(xhr.getAllResponseHeaders()) }));
      };
      xhr.onerror = () => {
        settle();
        reject(new TypeError('Failed to fetch'));
      };
      xhr.onabort = () => {
        settle();
        reject(signal?.reason ?? new DOMException('The request was aborted.', 'AbortError'));
      };
      signal?.addEventListener('abort', abort, { once: true });
      xhr.send(request.body ?? null);
    });
  };
