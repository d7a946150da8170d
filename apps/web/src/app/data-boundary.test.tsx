import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { clearQueryCache } from '../shared/query-cache';
import { DataBoundary } from './data-boundary';

/** Shows which client it was given, and keeps it for the assertions. */
function ClientProbe({ name, seen }: { name: string; seen: Map<string, QueryClient> }) {
  const client = useQueryClient();
  seen.set(name, client);
  return <p>{name} ready</p>;
}

describe('DataBoundary', () => {
  it('gives every screen the one app cache, loaded when first needed, and logout empties it', async () => {
    const seen = new Map<string, QueryClient>();
    render(
      <Suspense fallback={<p>loading</p>}>
        <DataBoundary>
          <ClientProbe name="home card" seen={seen} />
        </DataBoundary>
        <DataBoundary>
          <ClientProbe name="roulette" seen={seen} />
        </DataBoundary>
      </Suspense>,
    );
    await screen.findByText('home card ready');
    await screen.findByText('roulette ready');
    const client = seen.get('home card');
    expect(client).toBeDefined();
    expect(seen.get('roulette')).toBe(client);

    client?.setQueryData(['bills', 'this-month'], { amount: 1000 });
    clearQueryCache();
    expect(client?.getQueryData(['bills', 'this-month'])).toBeUndefined();
  });

  it('adds nothing inside a provider that is already there', async () => {
    const outer = new QueryClient();
    const seen = new Map<string, QueryClient>();
    render(
      <QueryClientProvider client={outer}>
        <Suspense fallback={<p>loading</p>}>
          <DataBoundary>
            <ClientProbe name="page" seen={seen} />
          </DataBoundary>
        </Suspense>
      </QueryClientProvider>,
    );
    await screen.findByText('page ready');
    expect(seen.get('page')).toBe(outer);
  });
});
