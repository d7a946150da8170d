import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { createPortalQueryClient, portalToken } from '../features/merchant-portal/api/portal-api';
import { ConfirmHost } from '../shared/ui/confirm-host';
import { type Call, type Routes, stubFetch } from './stub-fetch';
import { resetToastLog } from './toast-log';

/**
 * What the merchant portal's screen tests share, registered for the calling test file: before each test a
 * signed-in portal, no calls and no toasts; after it, the real `fetch` back. `calls` is the one array every
 * stubbed answer records into (emptied, never replaced, so a test file may hold it).
 */
export function portalHarness() {
  const calls: Call[] = [];
  beforeEach(() => {
    calls.length = 0;
    resetToastLog();
    portalToken.set('portal-token');
  });
  afterEach(() => vi.unstubAllGlobals());
  return {
    calls,
    serve: (routes: Routes) => stubFetch(routes, calls),
    /** A screen as the portal shows it: its own query client and the confirm sheet's host. */
    render: (element: ReactElement) =>
      render(
        <QueryClientProvider client={createPortalQueryClient()}>
          <ConfirmHost />
          {element}
        </QueryClientProvider>,
      ),
  };
}

/** The server's answer to a call that failed on its side, as the portal's screens meet it. */
export const serverFailure = () =>
  new Response(JSON.stringify({ success: false, code: 'INTERNAL_ERROR', message: '서버에 문제가 발생했습니다.' }), {
    status: 500,
  });
