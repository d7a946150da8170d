import { type ComponentType, lazy, type ReactNode, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { registerNavigator } from '../shared/navigation';
import { ConfirmHost } from '../shared/ui/confirm-host';
import { LoadingText } from '../shared/ui/page';
import { Toaster } from '../shared/ui/toaster';
import { MainLayout } from './layouts/main-layout';
import { ShortsLayout } from './layouts/shorts-layout';
import { NotFoundPage } from './not-found-page';
import HomeRoute from './pages/home-route';
import { RequireAuth } from './require-auth';

/*
 * Declarative routes with React.lazy pages: each page is its own chunk. (The data-router API would add
 * ~17 KB gzip to the first load, over the 100 KB budget, for loaders we do not use.)
 */
function lazyPage(load: () => Promise<{ default: ComponentType }>): ReactNode {
  const Page = lazy(load);
  return (
    <Suspense fallback={<LoadingText />}>
      <Page />
    </Suspense>
  );
}

// Home is the landing page: bundled with the entry so its first paint needs no second round trip.
const home = <HomeRoute />;
const login = lazyPage(() => import('../features/auth/pages/login-page'));
const register = lazyPage(() => import('../features/auth/pages/register-page'));
const shortsFeed = lazyPage(() => import('../features/shorts/pages/feed-page'));
const shortsUpload = lazyPage(() => import('../features/shorts/pages/upload-page'));
const shortsRecord = lazyPage(() => import('../features/shorts/pages/record-page'));
const shortsSearch = lazyPage(() => import('../features/shorts-discovery/pages/search-page'));
const shortsProfile = lazyPage(() => import('../features/shorts-discovery/pages/profile-page'));
const shortsProfileEdit = lazyPage(() => import('../features/shorts-discovery/pages/profile-edit-page'));
const shortsProfileAll = lazyPage(() => import('../features/shorts-discovery/pages/profile-all-page'));
const shortsMypage = lazyPage(() => import('../features/shorts-discovery/pages/shorts-mypage-page'));
const shortsSubscriptions = lazyPage(() => import('../features/shorts-discovery/pages/subscribe-list-page'));
const shortsLiked = lazyPage(() => import('../features/shorts-discovery/pages/liked-list-page'));
const shortsCommented = lazyPage(() => import('../features/shorts-discovery/pages/commented-list-page'));
const qrpin = lazyPage(() => import('../features/payments/pages/qrpin-page'));
const payment = lazyPage(() => import('../features/bills/pages/payment-page'));
const paymentDetails = lazyPage(() => import('../features/payments/pages/payment-details-page'));
const pointHistory = lazyPage(() => import('../features/payments/pages/point-history-page'));
const mypage = lazyPage(() => import('../features/mypage/mypage-page'));
const merchant = lazyPage(() => import('../features/merchant/merchant-page'));
const chat = lazyPage(() => import('./pages/chat-route'));
const dashboard = lazyPage(() => import('./pages/dashboard-route'));

/** Lets the API client navigate with the router (for 401s) instead of reloading the page. */
function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => registerNavigator((path, options) => void navigate(path, options)), [navigate]);
  return null;
}

export function AppRoutes() {
  return (
    <>
      <NavigatorBridge />
      <Toaster />
      <ConfirmHost />
      <Routes>
        {/* The merchant's checkout screen stands alone: no customer header or footer. */}
        <Route path="/merchant" element={merchant} />
        <Route element={<MainLayout />}>
          <Route path="/" element={home} />
          <Route path="/login" element={login} />
          <Route path="/register" element={register} />
          <Route element={<RequireAuth />}>
            <Route path="/qrpin" element={qrpin} />
            <Route path="/payment" element={payment} />
            <Route path="/payment/details" element={paymentDetails} />
            <Route path="/mypage" element={mypage} />
            <Route path="/point/history" element={pointHistory} />
            <Route path="/chat" element={chat} />
            <Route path="/dashboard" element={dashboard} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
        <Route path="/shorts" element={<ShortsLayout />}>
          <Route index element={<Navigate to="/shorts/feeds" replace />} />
          <Route path="feeds" element={shortsFeed} />
          <Route path="feeds/test" element={shortsRecord} />
          <Route path="search" element={shortsSearch} />
          <Route element={<RequireAuth />}>
            <Route path="upload" element={shortsUpload} />
            <Route path="mypage" element={shortsMypage} />
            <Route path="mypage/subscribe" element={shortsSubscriptions} />
            <Route path="mypage/all" element={shortsLiked} />
            <Route path="mypage/comments" element={shortsCommented} />
            <Route path="profile" element={shortsProfile} />
            <Route path="profile/edit" element={shortsProfileEdit} />
            <Route path="profile/all" element={shortsProfileAll} />
          </Route>
        </Route>
      </Routes>
    </>
  );
}
