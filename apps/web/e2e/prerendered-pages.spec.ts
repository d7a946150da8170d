import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { PRERENDERED_PATHS } from '../src/build/prerendered-paths';
import { entryImportFiles, type Manifest } from '../src/build/route-hints';
import { test } from './fixtures';
import { apiCustomer, holdRequests, openAsCustomer, recordAlerts, signUpAndLogIn } from './helpers';

/** Console errors and uncaught errors of the page: a hydration mismatch is reported as one of them. */
function recordErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /hydrat/i.test(message.text())) errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

/**
 * In the page, before any script: keeps the first element of the server's HTML, so the test can tell a
 * hydrated page (the same element, now React's) from one React threw away and rendered again.
 */
function keepServerElement() {
  document.addEventListener('DOMContentLoaded', () => {
    (window as unknown as { __serverShell?: Element | null }).__serverShell =
      document.querySelector('#root header') ?? document.querySelector('#root > div:last-child');
  });
}

/** Opens a prerendered page and waits until React has hydrated it (its root is no longer inert). */
async function openHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  const kept = await page.evaluate(() => {
    const shell = (window as unknown as { __serverShell?: Element | null }).__serverShell;
    return Boolean(shell?.isConnected);
  });
  expect(kept, `${path}: the server's HTML was replaced instead of hydrated`).toBe(true);
}

test('public pages arrive rendered, and React hydrates them without a mismatch', async ({ page }) => {
  const errors = recordErrors(page);
  await page.addInitScript(keepServerElement);
  for (const path of PRERENDERED_PATHS) {
    const html = await (await page.request.get(path, { headers: { accept: 'text/html' } })).text();
    expect(html, path).toMatch(/<div id="root" inert aria-disabled="true"><div popover="manual"/);
    await openHydrated(page, path);
  }
  // Rendered already: the login page's text is in the HTML, before any script.
  const login = await (await page.request.get('/login', { headers: { accept: 'text/html' } })).text();
  expect(login).toContain('체험용 계정: demo@ohgood.kr / ohgood123!');
  // The signed-in pages people open most arrive with their skeleton: the first paint has the page's shape.
  for (const path of ['/payment', '/mypage']) {
    const html = await (await page.request.get(path, { headers: { accept: 'text/html' } })).text();
    expect(html, path).toContain('data-testid="page-skeleton"');
  }
  expect(errors).toEqual([]);
});

test("every page's HTML names the entry's imports, so they load beside it and not a round trip later", async ({
  request,
}) => {
  const manifest = JSON.parse(readFileSync(new URL('../dist/.vite/manifest.json', import.meta.url), 'utf8'));
  const imports = entryImportFiles(manifest as Manifest);
  // React and the router at least: a build that no longer splits them out would make this test say nothing.
  expect(imports.length).toBeGreaterThanOrEqual(2);
  for (const path of [...PRERENDERED_PATHS, '/qrpin']) {
    const html = await (await request.get(path, { headers: { accept: 'text/html' } })).text();
    for (const file of imports) {
      expect(html, `${path} does not preload ${file}`).toContain(
        `<link rel="modulepreload" crossorigin href="/${file}">`,
      );
    }
  }
});

/**
 * In the page, before any script: when each API path was first asked for, and when React took the prerendered
 * page over (#root stops being inert), both in ms after navigation.
 */
function watchRequestsAndHydration() {
  const seen = window as unknown as { __asked: Record<string, number>; __hydratedAt?: number };
  seen.__asked = {};
  const send = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, location.href).pathname;
    seen.__asked[path] ??= performance.now();
    return send(input, init);
  };
  new MutationObserver((changes) => {
    for (const change of changes) {
      const root = change.target as Element;
      if (root.id === 'root' && !root.hasAttribute('inert')) seen.__hydratedAt ??= performance.now();
    }
  }).observe(document, { subtree: true, attributeFilter: ['inert'] });
}

test("a signed-in page opened cold asks for its first screen's data while React hydrates it, not after", async ({
  page,
  request,
}) => {
  await openAsCustomer(page, await apiCustomer(request));
  await page.addInitScript(watchRequestsAndHydration);
  for (const [path, asked, content] of [
    ['/payment', '/api/payment/info', 'available-amount'],
    ['/mypage', '/api/mypage', 'grade-card'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByTestId(content)).toBeVisible();
    const { askedAt, hydratedAt } = await page.evaluate((api) => {
      const seen = window as unknown as { __asked: Record<string, number>; __hydratedAt?: number };
      return { askedAt: seen.__asked[api], hydratedAt: seen.__hydratedAt };
    }, asked);
    expect(hydratedAt, path).toBeDefined();
    expect(askedAt, `${path}: ${asked} was not asked for before hydrating ended`).toBeLessThan(hydratedAt ?? 0);
  }
});

test('a signed-in customer gets the same prerendered pages, hydrated into their own session', async ({ page }) => {
  const alerts = recordAlerts(page);
  const errors = recordErrors(page);
  await page.addInitScript(keepServerElement);
  // Typing into the prerendered login form works: the form is inert until React owns it.
  await signUpAndLogIn(page);
  for (const path of ['/', '/payment', '/dashboard', '/mypage']) await openHydrated(page, path);
  await expect(page.getByTestId('logout')).toBeVisible();
  await page.goto('/');
  await expect(page.getByTestId('logout')).toBeVisible();
  expect(errors).toEqual([]);
  expect(alerts.filter((text) => text.startsWith('native:'))).toEqual([]);
});

/** What a signed-in customer's page adds after hydrating a prerendered one, and what must not move for it. */
const SIGNED_IN_ADDITIONS = [
  { path: '/', added: 'this-month-card', still: 'section[aria-labelledby="chat-box-title"]' },
  { path: '/shorts/feeds', added: 'bell', still: 'header button[aria-label="검색"]' },
];

for (const { path, added, still } of SIGNED_IN_ADDITIONS) {
  test(`${path} opened cold signed in: its prerendered HTML holds the place of what the session adds (no layout shift)`, async ({
    page,
    request,
  }) => {
    const errors = recordErrors(page);
    await openAsCustomer(page, await apiCustomer(request));
    // The app's entry is held: the screen is the server's HTML (rendered for nobody) as first painted.
    const release = await holdRequests(page, /\/assets\/index-[^/]*\.js$/);
    await page.goto(path, { waitUntil: 'commit' });
    const target = page.locator(still);
    await expect(target).toBeVisible();
    const place = () =>
      target.evaluate((element) => [element.getBoundingClientRect().top, element.getBoundingClientRect().left]);
    const firstPaint = await place();
    // Nor does the prerendered header offer a login to someone signed in.
    await expect(page.getByTestId('login-link')).toBeHidden();
    release();
    await expect(page.getByTestId(added)).toBeVisible();
    // Before: this month's card came above the chat box and moved it 249 px down (CLS 0.20); the bell took 52 px
    // of the shorts header's search field.
    expect(await place()).toEqual(firstPaint);
    // The mark comes from index.html's inline script: a Content-Security-Policy refusing it is a console error.
    expect(errors).toEqual([]);
  });
}
