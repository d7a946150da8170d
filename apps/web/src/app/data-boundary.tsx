import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, type ReactNode } from 'react';

type Provider = ComponentType<{ children: ReactNode }>;

const load = () => import('./query-provider');
let loaded: Provider | null = null;
const LazyProvider = lazy(load);

/**
 * Loads the data provider's chunk ahead of hydrating a page that sits inside a boundary (router.tsx), and
 * answers the app's data cache, for the page to start its requests in.
 */
export async function preloadDataBoundary(): Promise<QueryClient> {
  const provider = await load();
  loaded = provider.default;
  return provider.appQueryClient;
}

/**
 * Where a screen that reads or writes data begins: TanStack Query and its provider come with the first such
 * screen instead of with the first load of `/`. Suspends (place it inside a Suspense) until they have loaded.
 */
export function DataBoundary({ children }: { children: ReactNode }) {
  const Provider = loaded ?? LazyProvider;
  return <Provider>{children}</Provider>;
}
