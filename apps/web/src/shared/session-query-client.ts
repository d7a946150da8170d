import { QueryClient } from '@tanstack/react-query';

/**
 * The cache of a screen with a session of its own (the operator console, the merchant portal), apart from the
 * customer app's. Every screen reads afresh when it opens (no stale time: people act on what is true now) and
 * a failed read shows its error with a retry at once (the caller already repeats a read through a brief 503).
 * Signing out empties it.
 */
export function createSessionQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 0, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
