import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';

/**
 * Every lazily loaded page by its URL path, each its own chunk. Two readers: the router renders them, and
 * the build (vite.config.ts, `routeHints`) reads this file to write route-hints.json, with which the server
 * names a page's chunks in the HTML itself so the browser fetches them alongside the entry, not after it.
 * Keep one `'path': () => import('module'),` per line: the build reads it as text.
 */
export const pageLoaders = {
  '/login': () => import('../features/auth/pages/login-page'),
  '/register': () => import('../features/auth/pages/register-page'),
  '/shorts/feeds': () => import('../features/shorts/pages/feed-page'),
  '/shorts/upload': () => import('../features/shorts/pages/upload-page'),
  '/shorts/feeds/test': () => import('../features/shorts/pages/record-page'),
  '/shorts/search': () => import('../features/shorts-discovery/pages/search-page'),
  '/shorts/profile': () => import('../features/shorts-discovery/pages/profile-page'),
  '/shorts/profile/edit': () => import('../features/shorts-discovery/pages/profile-edit-page'),
  '/shorts/profile/all': () => import('../features/shorts-discovery/pages/profile-all-page'),
  '/shorts/mypage': () => import('../features/shorts-discovery/pages/shorts-mypage-page'),
  '/shorts/mypage/subscribe': () => import('../features/shorts-discovery/pages/subscribe-list-page'),
  '/shorts/mypage/all': () => import('../features/shorts-discovery/pages/liked-list-page'),
  '/shorts/mypage/comments': () => import('../features/shorts-discovery/pages/commented-list-page'),
  '/qrpin': () => import('../features/payments/pages/qrpin-page'),
  '/payment': () => import('../features/bills/pages/payment-page'),
  '/payment/details': () => import('../features/payments/pages/payment-details-page'),
  '/payment/autopay': () => import('../features/bills/pages/autopay-setup-page'),
  '/point/history': () => import('../features/payments/pages/point-history-page'),
  '/mypage': () => import('./pages/mypage-route'),
  '/notifications': () => import('../features/notifications/pages/notifications-page'),
  '/notifications/settings': () => import('../features/notifications/pages/notification-settings-page'),
  '/merchant': () => import('../features/merchant/merchant-page'),
  '/merchant/portal': () => import('../features/merchant-portal/portal-page'),
  '/chat': () => import('./pages/chat-route'),
  '/dashboard': () => import('./pages/dashboard-route'),
} satisfies Record<string, () => Promise<PageModule>>;

export type PagePath = keyof typeof pageLoaders;

/**
 * A page's module: the page, and for a signed-in page, the requests its first screen waits for. A page the app
 * opens on starts those as soon as its chunk is in, before React has hydrated it (router.tsx, `preloadPage`).
 */
export interface PageModule {
  default: ComponentType;
  startFirstScreenRequests?: (client: QueryClient) => void;
}
