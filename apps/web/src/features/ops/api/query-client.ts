import { QueryClient } from '@tanstack/react-query';

/**
 * The console's own cache, apart from the customer app's. Every screen reads afresh when it opens (no stale
 * time: operators act on what is true now) and a failed read shows its error with a retry at once (the caller
 * already repeats a read through a brief 503). Signing out empties it (pages/ops-console-page.tsx).
 */
export function createConsoleQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 0, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
