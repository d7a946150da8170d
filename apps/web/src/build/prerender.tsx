/**
 * Build step (bundled by `vite build --ssr`, run by scripts/prerender.mjs in Node): the HTML of the public
 * pages as they first render for a visitor nobody knows yet, so the server can send them filled in and the
 * first paint does not wait for the scripts (ADR 0117). The browser hydrates them (main.tsx) with the same
 * tree: `AppProviders` and `AppRoutes`, with React Router's static router standing in for the browser's.
 */
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppProviders } from '../app/app-providers';
import { AppRoutes } from '../app/router';

/**
 * The pages sent prerendered: the public ones, and the signed-in ones people open most, whose header, footer
 * and skeleton (src/shared/ui/page-skeletons.tsx, where a page has one) paint at once while the session is
 * read (their content renders after hydration).
 */
export const PRERENDERED_PATHS = [
  '/',
  '/login',
  '/register',
  '/shorts/feeds',
  '/shorts/search',
  '/payment',
  '/dashboard',
  '/mypage',
] as const;

/** The inner HTML of `#root` for a path, once every lazily loaded page on it has loaded. */
export async function prerenderPath(path: string): Promise<string> {
  const { prelude } = await prerender(
    <AppProviders>
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>
    </AppProviders>,
  );
  return new Response(prelude).text();
}
