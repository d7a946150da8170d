import './shared/styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import OpsConsolePage from './features/ops/pages/ops-console-page';
import { Toaster } from './shared/ui/toaster';

/*
 * The operator console's own page (ops.html, ADR 0138): built apart from the customer app, so the customer's
 * first load carries nothing of it. It needs no router and no service worker; its query cache is its own
 * (features/ops/api/query-client.ts).
 */
const root = document.getElementById('ops');
if (!root) throw new Error('#ops is missing from ops.html');
createRoot(root).render(
  <StrictMode>
    <Toaster />
    <OpsConsolePage />
  </StrictMode>,
);
