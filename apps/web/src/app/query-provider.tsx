import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useContext } from 'react';
import { registerQueryCache } from '../shared/query-cache';
import { createQueryClient } from './query-client';

/** The one cache of the app's data, made the first time a screen needs data. */
export const appQueryClient = createQueryClient();
registerQueryCache(appQueryClient);

/**
 * TanStack Query's provider, loaded with the first screen that reads or writes data (data-boundary.tsx), so
 * the first load of `/` does without it. Every boundary gives the same client; inside another one (or a
 * test's own provider) it adds nothing.
 */
export default function QueryProvider({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  if (outer) return children;
  return <QueryClientProvider client={appQueryClient}>{children}</QueryClientProvider>;
}
