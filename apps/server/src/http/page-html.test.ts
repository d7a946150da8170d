import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shorts } from '../db/schema';
import { createHarness, type Harness } from '../test/harness';
import { createPageHtml } from './page-html';

const INDEX = '<!doctype html><html><head><title>오굿페이</title></head><body><div id="root"></div></body></html>';
const HINTS = {
  '/login': { scripts: ['/assets/login-page-a1.js', '/assets/input-b2.js'], styles: ['/assets/text-field-c3.css'] },
  '/shorts/feeds': { scripts: ['/assets/feed-page-d4.js'], styles: [] },
};

function distWithHints(): string {
  const dist = mkdtempSync(join(tmpdir(), 'ohgood-page-html-'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'route-hints.json'), JSON.stringify(HINTS));
  return dist;
}

const head = (html: string) => html.slice(0, html.indexOf('</head>'));

describe('page HTML with route hints', () => {
  it("names a page's stylesheets and chunks in its head, whatever the query or a trailing slash", async () => {
    const pageHtml = createPageHtml(distWithHints());
    for (const url of ['/login', '/login/', '/login?next=%2Fmypage']) {
      const html = await pageHtml(url);
      expect(head(html)).toContain('<link rel="stylesheet" crossorigin href="/assets/text-field-c3.css">');
      expect(head(html)).toContain('<link rel="modulepreload" crossorigin href="/assets/login-page-a1.js">');
      expect(head(html)).toContain('<link rel="modulepreload" crossorigin href="/assets/input-b2.js">');
    }
    // Pages in the entry (home) and unknown paths get the plain index.
    expect(await pageHtml('/')).toBe(INDEX);
    expect(await pageHtml('/nope')).toBe(INDEX);
  });

  it('puts the largest image first, escaped, and survives a failing lookup', async () => {
    const pageHtml = createPageHtml(distWithHints(), async (path, query) =>
      path === '/shorts/feeds' ? `/media/p"${query.get('shortsId') ?? 'top'}<.webp` : null,
    );
    const html = await pageHtml('/shorts/feeds?shortsId=7');
    expect(head(html)).toContain(
      '<link rel="preload" as="image" fetchpriority="high" href="/media/p&quot;7&lt;.webp">',
    );
    expect(html.indexOf('rel="preload"')).toBeLessThan(html.indexOf('rel="modulepreload"'));
    // Shown before any script runs, just ahead of the app's root.
    expect(html).toContain(
      '<div id="lcp-shell" aria-hidden="true"><img src="/media/p&quot;7&lt;.webp" alt="" fetchpriority="high"></div><div id="root">',
    );
    const failing = createPageHtml(distWithHints(), () => Promise.reject(new Error('database down')));
    expect(await failing('/shorts/feeds')).toContain('/assets/feed-page-d4.js');
  });
});

describe('prerendered pages', () => {
  it("fill #root with the page's build-time HTML for its exact URL only, beside the poster", async () => {
    const dist = distWithHints();
    writeFileSync(
      join(dist, 'prerendered.json'),
      JSON.stringify({ '/login': '<form>로그인</form>', '/shorts/feeds': '<p>피드</p>' }),
    );
    const pageHtml = createPageHtml(dist, async (path) => (path === '/shorts/feeds' ? '/media/top.webp' : null));
    for (const url of ['/login', '/login/'])
      expect(await pageHtml(url)).toContain('<div id="root" inert aria-disabled="true"><form>로그인</form></div>');
    // A query can change the first render (a return path, a linked short): the browser renders that itself.
    expect(await pageHtml('/login?next=%2Fmypage')).toContain('<div id="root"></div>');
    expect(await pageHtml('/register')).toContain('<div id="root"></div>');
    expect(await pageHtml('/shorts/feeds')).toContain(
      '<img src="/media/top.webp" alt="" fetchpriority="high"></div><div id="root" inert aria-disabled="true"><p>피드</p></div>',
    );
  });
});

describe("the feed's first poster in /shorts/feeds (real database)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ config: { WEB_DIST: distWithHints() } });
  });
  afterAll(() => h.close());

  it("preloads the top-ranked short's poster, or the linked short's", async () => {
    const { customerId } = await h.signUp();
    const now = h.clock.now();
    const [top, linked] = await h.database.db
      .insert(shorts)
      .values(
        [
          {
            customerId,
            title: '인기',
            content: '#인기',
            videoKey: 'v/top.mp4',
            thumbnailKey: 'p/top.webp',
            likeCount: 500,
          },
          { customerId, title: '링크', content: '', videoKey: 'v/l.mp4', thumbnailKey: 'p/linked.webp', likeCount: 0 },
        ].map((row) => ({ ...row, status: 'READY' as const, createdAt: now })),
      )
      .returning({ id: shorts.id });
    const html = async (url: string) => (await h.app.inject({ method: 'GET', url })).body;
    const preload = (href: string) => `<link rel="preload" as="image" fetchpriority="high" href="${href}">`;

    expect(await html('/shorts/feeds')).toContain(preload('/media/p/top.webp'));
    expect(await html(`/shorts/feeds?shortsId=${linked?.id}`)).toContain(preload('/media/p/linked.webp'));
    // An unknown short still gets the page and its chunks, just no image.
    const unknown = await html('/shorts/feeds?shortsId=99999999');
    expect(unknown).not.toContain('as="image"');
    expect(unknown).not.toContain('lcp-shell');
    expect(unknown).toContain('/assets/feed-page-d4.js');
    expect(top?.id).toBeGreaterThan(0);
  });
});
