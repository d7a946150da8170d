import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';

/* The API's documentation, built on its first request (http/api-docs.ts), answered through the app. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('the API documentation', () => {
  it('documents the routes registered before and after it, without a token', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    // The first route the app registers and one of its last (the web app's fallback is not a route).
    expect(doc.paths['/auth']?.post).toBeDefined();
    expect(doc.paths['/chat/clear-session']?.post).toBeDefined();
    // The docs' own routes are not in it.
    expect(Object.keys(doc.paths).some((path) => path.startsWith('/api/docs'))).toBe(false);
  });

  it('serves the Swagger UI page and its files with the app’s security headers', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBeDefined();
    expect(page.headers['x-frame-options']).toBe('DENY');
    const script = await h.app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.body.length).toBeGreaterThan(100_000);
    const yaml = await h.app.inject({ method: 'GET', url: '/api/docs/yaml' });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toContain('/api/public/register:');
  });

  it('answers a docs file that is not there with 404', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/static/nothing-here.js' });
    expect(res.statusCode).toBe(404);
  });
});
