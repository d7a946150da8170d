import { vi } from 'vitest';

export type Call = { method: string; path: string; body: unknown };
export type Routes = Record<string, (body: unknown) => unknown>;

/**
 * Stubs `fetch` to answer each request by `METHOD /path` from `routes` (a 404 body otherwise): a route's value
 * is sent as JSON with 200, or as it is when it is a `Response` (an error, a failure to retry); a promise (an
 * answer the test holds back) is awaited first. Every call is pushed onto `calls`. Undo with
 * `vi.unstubAllGlobals()`.
 */
export function stubFetch(routes: Routes, calls: Call[] = []): Call[] {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.split('?')[0] as string;
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path, body });
      const route = routes[`${method} ${path}`];
      if (!route)
        return new Response(JSON.stringify({ success: false, code: 'NOT_FOUND', message: '없음' }), { status: 404 });
      const answer = await route(body);
      if (answer instanceof Response) return answer;
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}
