import './shared/styles/global.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app/app-providers';
import { loadBrandFontAfterFirstPaint } from './app/brand-font';
import { releaseLcpShell } from './app/lcp-shell';
import { WhenHydrated } from './app/prerendered-root';
import { AppRoutes, preloadPage } from './app/router';
import { registerServiceWorkerWhenSettled } from './app/service-worker';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const app = (
  <AppProviders>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
    <WhenHydrated root={root} />
  </AppProviders>
);
// The server sends public pages already rendered (ADR 0117): those are hydrated, with their page's chunk in
// hand first; any other page is rendered. Either way inside a transition, so React yields to the browser
// between components instead of holding the main thread for the whole first render.
if (root.hasChildNodes()) {
  void preloadPage(location.pathname).then(() =>
    startTransition(() => {
      hydrateRoot(root, app);
    }),
  );
} else {
  startTransition(() => createRoot(root).render(app));
}
releaseLcpShell();
loadBrandFontAfterFirstPaint();
registerServiceWorkerWhenSettled();
