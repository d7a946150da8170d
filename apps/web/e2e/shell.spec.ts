import { expect } from '@playwright/test';
import { test } from './fixtures';
import { holdRequests, recordAlerts, signUpAndLogIn } from './helpers';

test('footer: highlighted item, dark on shorts paths, hidden on /qrpin, /register, /shorts/upload', async ({
  page,
}) => {
  recordAlerts(page);
  await page.goto('/');
  const footer = page.getByTestId('footer');
  await expect(footer).toBeVisible();
  await expect(footer).toHaveAttribute('data-theme', 'light');
  await expect(footer.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');

  await footer.getByRole('link', { name: 'Shorts' }).click();
  await expect(page).toHaveURL(/\/shorts\/feeds$/);
  await expect(footer).toHaveAttribute('data-theme', 'dark');
  await expect(footer).toHaveCSS('background-color', 'rgb(0, 0, 0)');
  await expect(footer.getByRole('link', { name: 'Shorts' })).toHaveAttribute('aria-current', 'page');

  await page.goto('/shorts');
  await expect(page).toHaveURL(/\/shorts\/feeds$/);

  await page.goto('/register');
  await expect(page.getByTestId('footer')).toHaveCount(0);
  await page.goto('/shorts/search');
  await expect(page.getByTestId('footer')).toBeVisible();
});

test('footer is hidden on /qrpin and /shorts/upload for a logged-in user', async ({ page }) => {
  recordAlerts(page);
  const login = await page.request.post('/auth', { data: { emailId: 'demo@ohgood.kr', pwd: 'ohgood123!' } });
  const { accessToken } = await login.json();
  await page.goto('/');
  await page.evaluate((token) => sessionStorage.setItem('accessToken', token), accessToken);
  await page.goto('/qrpin');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('footer')).toHaveCount(0);
  await page.goto('/shorts/upload');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('footer')).toHaveCount(0);
  await page.goto('/mypage');
  await expect(page.getByTestId('footer').getByRole('link', { name: 'Mypage' })).toHaveAttribute(
    'aria-current',
    'page',
  );
});

test('shorts search: trimmed query, empty goes without q; profile button needs login', async ({ page }) => {
  const alerts = recordAlerts(page);
  await page.goto('/shorts/feeds');
  const search = page.getByRole('searchbox');
  await expect(search).toHaveAttribute('placeholder', '검색어를 입력해주세요.');
  await search.fill('  커피  ');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/shorts\/search\?q=%EC%BB%A4%ED%94%BC$/);
  // The search page shows its query in the box once it has rendered (the URL changes first).
  await expect(search).toHaveValue('커피');
  await search.fill('   ');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/shorts\/search$/);

  await page.getByRole('button', { name: '내 쇼츠' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fshorts%2Fmypage$/);
  await expect.poll(() => alerts).toContain('로그인 후 이용 가능합니다.');
});

test('deep links are served by the SPA and unknown API paths are JSON 404s', async ({ request }) => {
  // HTTP only: no page is opened.
  const deep = await request.get('/shorts/profile/all');
  expect(deep.status()).toBe(200);
  expect(await deep.text()).toContain('<div id="root">');
  const api = await request.get('/api/public/nothing');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
});

test("Hangul renders with real glyphs in the browser's own fonts, not only the app's web font", async ({ page }) => {
  await page.goto('/login');
  // Drawn with the generic family, i.e. the browser's fallback fonts (fontconfig), not Pretendard the web
  // font: two different syllables must give different pixels. Missing fonts draw the same box (or nothing).
  const pixels = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 40;
    canvas.height = 40;
    const context = canvas.getContext('2d');
    if (!context) return [];
    context.font = '32px sans-serif';
    return ['가', '힣', 'A'].map((text) => {
      context.clearRect(0, 0, 40, 40);
      context.fillText(text, 2, 34);
      const data = context.getImageData(0, 0, 40, 40).data;
      return { text, ink: data.filter((v, i) => i % 4 === 3 && v > 0).length, data: Array.from(data).join() };
    });
  });
  expect(pixels.every((p) => p.ink > 20)).toBe(true);
  expect(new Set(pixels.map((p) => p.data)).size).toBe(3);
});

test('the brand font loads after the first contentful paint and takes over at the next page, not under the reader (ADR 0110, 0257)', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page.getByText('체험용 계정', { exact: false })).toBeVisible();
  // The faces were not in the first paint's CSS: they load once it is on screen and are laid out off screen.
  await page.waitForFunction(() => document.documentElement.dataset.brandFont === 'ready');
  const loaded = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.POSITIVE_INFINITY;
    const faces = performance
      .getEntriesByType('resource')
      .filter((entry) => /PretendardVariable.*\.woff2$/.test(entry.name));
    return {
      afterFirstPaint: faces.length > 0 && faces.every((entry) => entry.startTime >= fcp),
      inUse: [...document.fonts].some(
        (face) => face.family.includes('Pretendard Variable') && face.status === 'loaded',
      ),
    };
  });
  expect(loaded).toEqual({ afterFirstPaint: true, inUse: true });
  // The page being read keeps the phone's font: nothing on it moves when the faces come.
  const main = page.locator('main');
  expect(await main.evaluate((element) => getComputedStyle(element).fontFamily)).not.toContain('Pretendard');
  await page.getByRole('link', { name: '회원가입' }).click();
  // The address changes first; the new page (its chunk, then its commit) and the font come together after.
  await expect(main).toHaveCSS('font-family', /Pretendard Variable/);
  await expect(page).toHaveURL(/\/register$/);
});

/** A page of each layout whose chunk loads after the first render (not prerendered), and its heading. */
const LATE_PAGES = [
  { path: '/qrpin', chunk: /\/assets\/qrpin-page-[^/]*\.js$/, heading: 'QR·PIN 결제' },
  { path: '/shorts/mypage', chunk: /\/assets\/shorts-mypage-page-[^/]*\.js$/, heading: '내 쇼츠' },
  // Its own title bar in place of the app's header, from the loading text on.
  { path: '/chat', chunk: /\/assets\/chat-route-[^/]*\.js$/, heading: '오굿이와 대화하기' },
];

for (const late of LATE_PAGES) {
  test(`${late.path}: the page arriving after its loading text leaves the main box where it was (no layout shift)`, async ({
    page,
  }) => {
    recordAlerts(page);
    await signUpAndLogIn(page);
    // The chunk is held until the loading text has been measured.
    const release = await holdRequests(page, late.chunk);
    await page.goto(late.path);
    const main = page.locator('main');
    await expect(main.getByRole('status')).toHaveText('불러오는 중...');
    const top = () => main.evaluate((element) => element.getBoundingClientRect().top);
    const whileLoading = await top();
    release();
    await expect(page.getByRole('heading', { name: late.heading, level: 1 })).toBeAttached();
    await expect(main.getByText('불러오는 중...')).toHaveCount(0);
    // Before: the loading text's paragraph margin collapsed through <main>, 16 px lower until the page came.
    expect(await top()).toBe(whileLoading);
  });
}

test("the shorts header's search field keeps its width when the bell's chunk arrives (no layout shift)", async ({
  page,
}) => {
  recordAlerts(page);
  await signUpAndLogIn(page);
  const release = await holdRequests(page, /\/assets\/notification-bell-[^/]*\.js$/);
  await page.goto('/shorts/feeds');
  const searchButton = page.getByRole('button', { name: '검색', exact: true });
  await expect(searchButton).toBeVisible();
  const left = () => searchButton.evaluate((element) => element.getBoundingClientRect().left);
  const whileLoading = await left();
  release();
  await expect(page.getByTestId('bell')).toBeVisible();
  // Before: the bell arrived into no place and the field lost 52 px, its search button moving left.
  expect(await left()).toBe(whileLoading);
});
