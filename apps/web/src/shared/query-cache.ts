/**
 * The data cache as the parts of the app that load before it see it: logging out empties it if a screen
 * has made it, and there is nothing to empty otherwise. Kept free of TanStack Query, which loads later.
 */
let cache: { clear(): void } | null = null;

export function registerQueryCache(client: { clear(): void }): void {
  cache = client;
}

export function clearQueryCache(): void {
  cache?.clear();
}
