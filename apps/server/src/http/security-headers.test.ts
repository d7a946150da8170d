import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';
import { createMerchant } from '../test/merchant-fixture';
import { createRequest } from '../test/payment-helpers';

/** The built app's one inline script (index.html marks a signed-in tab before the first paint). */
const INLINE_SCRIPT = "document.documentElement.setAttribute('data-signed-in','')";
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

let h: Harness;
let cdn: Harness;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'ohgood-dist-'));
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><head><script>${INLINE_SCRIPT}</script><script type="module" src="/assets/x.js"></script></head><div id="root"></div>`,
  );
  const media = mkdtempSync(join(tmpdir(), 'ohgood-media-'));
  mkdirSync(join(media, 'posters'));
  writeFileSync(join(media, 'posters/p1.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  h = await createHarness({ config: { WEB_DIST: dist, MEDIA_DIR: media, TRUST_PROXY: true } });
  cdn = await createHarness({ config: { MEDIA_BASE_URL: 'https://cdn.example.com/media/' } });
});
afterAll(async () => {
  await h.close();
  await cdn.close();
});

function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy']).toContain('camera=(self)');
}

describe('security headers', () => {
  it('on the HTML of the web app (deep links too)', async () => {
    for (const url of ['/', '/qrpin?code=abc']) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toContain('text/html');
      expectSecurityHeaders(res.headers);
    }
  });

  it('on API answers: success, errors and the merchant event stream', async () => {
    const health = await h.app.inject({ method: 'GET', url: '/health' });
    expectSecurityHeaders(health.headers);
    const denied = await h.app.inject({ method: 'GET', url: '/api/mypage' });
    expect(denied.statusCode).toBe(401);
    expectSecurityHeaders(denied.headers);
    const missing = await h.app.inject({ method: 'GET', url: '/api/nothing' });
    expectSecurityHeaders(missing.headers);
    const merchant = await createMerchant(h.database.db);
    const request = await createRequest(h, merchant.headers, 1_000);
    await h.app.inject({
      method: 'POST',
      url: `/api/merchant/payment-requests/${request.requestId}/cancel`,
      headers: merchant.headers,
    });
    const stream = await h.app.inject({
      method: 'GET',
      url: `/api/merchant/payment-requests/${request.requestId}/events`,
      headers: merchant.headers,
    });
    expect(stream.headers['content-type']).toContain('text/event-stream');
    expectSecurityHeaders(stream.headers);
  });

  it('on /media files', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/media/posters/p1.jpg' });
    expect(res.statusCode).toBe(200);
    expectSecurityHeaders(res.headers);
  });

  it("runs the web app's own inline script, allowed by its hash, and no other inline script", async () => {
    const res = await h.app.inject({ method: 'GET', url: '/' });
    const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
    // The browser hashes the element's text as served: the HTML carries it byte for byte.
    expect(res.body).toContain(`<script>${INLINE_SCRIPT}</script>`);
    expect(scriptSrc).toBe(`'self' 'sha256-${sha256(INLINE_SCRIPT)}'`);
    // An API-only server (no web build) allows no inline script at all.
    const apiOnly = await cdn.app.inject({ method: 'GET', url: '/health' });
    expect(String(apiOnly.headers['content-security-policy'])).toContain("script-src 'self';");
  });

  it('HSTS only over HTTPS (here via a trusted proxy), never over plain HTTP', async () => {
    const plain = await h.app.inject({ method: 'GET', url: '/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const https = await h.app.inject({ method: 'GET', url: '/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('lets videos and images load from the configured media base, and nothing else from elsewhere', async () => {
    const res = await cdn.app.inject({ method: 'GET', url: '/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/media-src 'self' blob: https:\/\/cdn\.example\.com(;|$)/);
    expect(csp).toMatch(/img-src [^;]*https:\/\/cdn\.example\.com/);
    expect(csp).not.toMatch(/script-src[^;]*cdn\.example\.com/);
    // Without a CDN, media stays same-origin.
    const local = await h.app.inject({ method: 'GET', url: '/health' });
    expect(String(local.headers['content-security-policy'])).toContain("media-src 'self' blob:;");
    // The upload page reads a picked or recorded clip back from its object URL.
    expect(String(local.headers['content-security-policy'])).toContain("connect-src 'self' blob:;");
  });
});
