import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
let dist: string;
const script = `console.log(${JSON.stringify('오굿'.repeat(400))});`;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'ohgood-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dist, 'ops.html'), '<!doctype html><div id="ops"></div>');
  writeFileSync(join(dist, 'assets/app-abc123.js'), script);
  writeFileSync(join(dist, 'assets/app-abc123.js.br'), brotliCompressSync(script));
  h = await createHarness({ config: { WEB_DIST: dist } });
});
afterAll(() => h.close());

it('sends hashed assets precompressed with a one-year immutable cache', async () => {
  const res = await h.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br' } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-encoding']).toBe('br');
  expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(script));
});

it('serves the files on disk through one route, not one route per file listed at start', async () => {
  // Written after the app was built: a per-file route table (made at start) would not know it.
  writeFileSync(join(dist, 'assets/late-def456.js'), 'console.log(1);');
  const late = await h.app.inject({ method: 'GET', url: '/assets/late-def456.js' });
  expect(late.statusCode).toBe(200);
  expect(late.body).toBe('console.log(1);');
  const missing = await h.app.inject({ method: 'GET', url: '/assets/gone-000000.js' });
  expect(missing.statusCode).toBe(404);
  expect(missing.headers['content-type']).toContain('application/json');
});

it('serves index.html, uncached, for every app route (deep links)', async () => {
  for (const url of ['/', '/payment/details', '/qrpin?code=abc', '/shorts/feeds?shortsId=3']) {
    const res = await h.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
  }
});

it('serves the console its own page (ops.html) on /ops and its deep links, and the app everywhere else', async () => {
  for (const url of ['/ops', '/ops/', '/ops/enrol/abcdefghijklmnopqrstuvwxyz012345', '/ops?x=1']) {
    const res = await h.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    expect(res.body, url).toContain('<div id="ops">');
    expect(res.headers['cache-control']).toBe('no-cache');
  }
  for (const url of ['/', '/opsx', '/payment/ops']) {
    const res = await h.app.inject({ method: 'GET', url });
    expect(res.body, url).not.toContain('<div id="ops">');
  }
});

it('serves the app to a browser opening a page whose path the API shares (GET /chat), not to API calls', async () => {
  const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  for (const url of ['/chat', '/chat?x=1', '/dashboard', '/auth']) {
    const res = await h.app.inject({ method: 'GET', url, headers: { accept: html } });
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  }
  const json = await h.app.inject({ method: 'GET', url: '/chat', headers: { accept: 'application/json' } });
  expect(json.statusCode).toBe(404);
  expect(json.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  const apiPage = await h.app.inject({ method: 'GET', url: '/api/nope', headers: { accept: html } });
  expect(apiPage.statusCode).toBe(404);
  const post = await h.app.inject({ method: 'POST', url: '/dashboard', headers: { accept: html } });
  expect(post.statusCode).toBe(404);
});

it('answers a missing asset and an unknown API path with 404, never the app', async () => {
  const asset = await h.app.inject({ method: 'GET', url: '/assets/gone-000.js' });
  expect(asset.statusCode).toBe(404);
  const api = await h.app.inject({ method: 'GET', url: '/api/nope' });
  expect(api.statusCode).toBe(404);
  expect(api.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
});
