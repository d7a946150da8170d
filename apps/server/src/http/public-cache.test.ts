import Fastify from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { CacheHome } from '../lib/cache-home';
import { type PublicAnswer, type PublicRoute, registerPublicCache } from './public-cache';

const apps: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** An app with one cached route and one other route; counts the handler's runs and the cache's key reads. */
async function appWithCachedRoute() {
  const cache = new CacheHome().define<string, PublicAnswer>({ name: 'kept', max: 10, ttlMs: 60_000, droppedBy: {} });
  const counts = { handled: 0, keyed: 0 };
  const kept: PublicRoute = {
    cache,
    keyOf: (request) => {
      counts.keyed += 1;
      return request.url;
    },
  };
  const app = Fastify();
  apps.push(app);
  registerPublicCache(app, 60_000, { '/kept': kept });
  app.get('/kept', async () => {
    counts.handled += 1;
    return { n: counts.handled };
  });
  app.get('/other', async () => ({ other: true }));
  await app.ready();
  return { app, counts };
}

it('serves an anonymous GET of a cached route from the cache, with its ETag and a 304 when it matches', async () => {
  const { app, counts } = await appWithCachedRoute();
  const first = await app.inject({ method: 'GET', url: '/kept' });
  const second = await app.inject({ method: 'GET', url: '/kept' });
  expect(second.body).toBe(first.body);
  expect(counts.handled).toBe(1);
  expect(second.headers.etag).toBe(first.headers.etag);
  expect(second.headers['cache-control']).toBe('public, max-age=60');
  expect(second.headers.vary).toBe('authorization');
  const unchanged = await app.inject({ method: 'GET', url: '/kept', headers: { 'if-none-match': first.headers.etag } });
  expect(unchanged.statusCode).toBe(304);
});

it('never serves or keeps a request with a token: it is personalised', async () => {
  const { app, counts } = await appWithCachedRoute();
  await app.inject({ method: 'GET', url: '/kept', headers: { authorization: 'Bearer a' } });
  const again = await app.inject({ method: 'GET', url: '/kept', headers: { authorization: 'Bearer b' } });
  expect(counts.handled).toBe(2);
  expect(again.headers.etag).toBeUndefined();
  expect(counts.keyed).toBe(0);
});

it('runs its hooks on the cached routes only: another route never reads a key or gets cache headers', async () => {
  const { app, counts } = await appWithCachedRoute();
  const other = await app.inject({ method: 'GET', url: '/other' });
  expect(other.json()).toEqual({ other: true });
  expect(counts.keyed).toBe(0);
  expect(other.headers.etag).toBeUndefined();
  expect(other.headers['cache-control']).toBeUndefined();
  // Each hook is on one route (the cached GET; not its HEAD, not the other route).
  const routes = app.printRoutes({ includeHooks: true, commonPrefix: false });
  expect(routes.match(/servePublicAnswer/g)).toHaveLength(1);
  expect(routes.match(/keepPublicAnswer/g)).toHaveLength(1);
  expect(routes.split('/other')[1]).not.toMatch(/PublicAnswer/);
});
