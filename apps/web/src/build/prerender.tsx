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
import { PRERENDERED_PATHS } from './prerendered-paths';

/** The inner HTML of `#root` for a path, once every lazily loaded page on it has loaded. */
async function prerenderPath(path: string): Promise<string> {
  const { prelude } = await prerender(
    <AppProviders>
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>
    </AppProviders>,
  );
  return new Response(prelude).text();
}

/** Every prerendered path (the list lives apart, so e2e reads it too) → the inner HTML of its `#root`. */
export async function prerenderAll(): Promise<Record<string, string>> {
  const shells: Record<string, string> = {};
  for (const path of PRERENDERED_PATHS) shells[path] = await prerenderPath(path);
  return shells;
}
