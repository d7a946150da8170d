import './shared/styles/global.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { loadBrandFontAfterFirstPaint } from './app/brand-font';
import { releaseLcpShell } from './app/lcp-shell';
import { createQueryClient } from './app/query-client';
import { AppRoutes } from './app/router';
import { registerServiceWorkerWhenSettled } from './app/service-worker';

const queryClient = createQueryClient();
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
releaseLcpShell();
loadBrandFontAfterFirstPaint();
registerServiceWorkerWhenSettled();
