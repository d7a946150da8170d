import type { QueryClient } from '@tanstack/react-query';
import { createSessionQueryClient } from '../../../shared/session-query-client';

/** The console's own cache, apart from the customer app's; signing out empties it (pages/ops-console-page.tsx). */
export function createConsoleQueryClient(): QueryClient {
  return createSessionQueryClient();
}
