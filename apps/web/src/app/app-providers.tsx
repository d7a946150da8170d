import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode } from 'react';

/**
 * What wraps the routes in the browser (main.tsx) and in the build's prerender (src/build/prerender.tsx):
 * the two trees must be the same for React to hydrate the prerendered HTML instead of replacing it.
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </StrictMode>
  );
}
