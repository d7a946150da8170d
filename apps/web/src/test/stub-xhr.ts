import { vi } from 'vitest';

/** A request the page sent through XMLHttpRequest (an upload that reports its bytes). */
export type XhrCall = { method: string; url: string; headers: Record<string, string>; body: unknown };

/**
 * How the stub browser answers one request: it may report the body's bytes as they "go" (`progress`), then
 * resolves to the server's answer, or to 'network-error' for none at all (the connection dropped).
 */
export type XhrRoute = (
  call: XhrCall,
  progress: (sent: number, total: number) => void,
) => Promise<Response | 'network-error'> | Response | 'network-error';

/**
 * Stubs `XMLHttpRequest` with the part of it the upload transport uses, as a browser would run it: the body's
 * progress events, then one of load, error or abort. Every request is pushed onto `calls` and answered by
 * `route`. Undo with `vi.unstubAllGlobals()`.
 */
export function stubXhr(route: XhrRoute, calls: XhrCall[] = []): XhrCall[] {
  class StubXhr {
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = '';
    #method = '';
    #url = '';
    #sent: Record<string, string> = {};
    #answered = new Headers();
    #done = false;

    open(method: string, url: string) {
      this.#method = method;
      this.#url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.#sent[name.toLowerCase()] = value;
    }
    getAllResponseHeaders(): string {
      return [...this.#answered].map(([name, value]) => `${name}: ${value}\r\n`).join('');
    }
    abort() {
      if (this.#done) return;
      this.#done = true;
      this.onabort?.();
    }
    send(body: unknown) {
      const call = { method: this.#method, url: this.#url, headers: this.#sent, body };
      calls.push(call);
      const progress = (sent: number, total: number) => {
        if (!this.#done)
          this.upload.onprogress?.({ loaded: sent, total, lengthComputable: true } as unknown as ProgressEvent);
      };
      void (async () => {
        const answer = await route(call, progress);
        if (this.#done) return;
        this.#done = true;
        if (answer === 'network-error') {
          this.onerror?.();
          return;
        }
        this.status = answer.status;
        this.responseText = await answer.text();
        this.#answered = answer.headers;
        this.onload?.();
      })();
    }
  }
  vi.stubGlobal('XMLHttpRequest', StubXhr);
  return calls;
}

/** A JSON answer as the server sends it. */
export function jsonAnswer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
