import { type ReactNode, StrictMode } from 'react';

/**
 * What wraps the routes in the browser (main.tsx) and in the build's prerender (src/build/prerender.tsx):
 * the two trees must be the same for React to hydrate the prerendered HTML instead of replacing it.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  // TanStack Query's provider is not here: it comes with the first screen that needs data (data-boundary.tsx).
  return <StrictMode>{children}</StrictMode>;
}
