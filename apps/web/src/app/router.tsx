import { type ComponentType, lazy, type ReactNode, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { getToken } from '../shared/auth-token';
import { registerNavigator } from '../shared/navigation';
import { ConfirmHost } from '../shared/ui/confirm-host';
import { FailureBoundary } from '../shared/ui/failure-boundary';
import { ListSkeleton, LoadingText, MypageSkeleton, PaymentSkeleton, Page as TitledPage } from '../shared/ui/page';
import { Toaster } from '../shared/ui/toaster';
import { BrandFontAtPageChange } from './brand-font';
import { DataBoundary, preloadDataBoundary } from './data-boundary';
import { MainLayout } from './layouts/main-layout';
import { ShortsLayout } from './layouts/shorts-layout';
import { NotFoundPage } from './not-found-page';
import { type PageModule, type PagePath, pageLoaders } from './page-table';
import HomeRoute from './pages/home-route';
import { RequireAuth } from './require-auth';

/*
 * Declarative routes with React.lazy pages: each page is its own chunk. (The data-router API would add
 * ~17 KB gzip to the first load, over the 100 KB budget, for loaders we do not use.) A page whose chunk does
 * not arrive fails inside the layout, whose header and menu stay usable. Keyed by its path: the router puts
 * the next page's boundary in the same place, and an unkeyed one would keep the failure across pages.
 */
function lazyPage(path: PagePath, fallback: ReactNode = <LoadingText />): ReactNode {
  const Lazy = lazy(pageLoaders[path]);
  const Page = () => {
    const Loaded = preloaded.get(path) ?? Lazy;
    return <Loaded />;
  };
  return (
    <FailureBoundary key={path}>
      <Suspense fallback={fallback}>
        <DataBoundary>
          <Page />
        </DataBoundary>
      </Suspense>
    </FailureBoundary>
  );
}

/** Pages whose chunk was loaded before the first render (`preloadPage`): rendered at once, not suspended. */
const preloaded = new Map<PagePath, ComponentType>();

/**
 * Loads the chunk of the page at `pathname`, if it is a lazily loaded one, so that hydrating a prerendered
 * page (main.tsx) finishes in one pass instead of leaving that page's part to hydrate after its chunk.
 */
export async function preloadPage(pathname: string): Promise<void> {
  const path = (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname) as PagePath;
  const load: (() => Promise<PageModule>) | undefined = pageLoaders[path];
  if (!load) return;
  const [page, client] = await Promise.all([load(), preloadDataBoundary()]);
  // The page's requests go out now, while React hydrates, not after it has rendered the page. Only with a
  // session: without one the guard sends the visitor to log in.
  if (getToken()) page.startFirstScreenRequests?.(client);
  preloaded.set(path, page.default);
}

// Home is the landing page: bundled with the entry so its first paint needs no second round trip.
const home = <HomeRoute />;
const login = lazyPage('/login');
const register = lazyPage('/register');
const shortsFeed = lazyPage('/shorts/feeds');
const shortsUpload = lazyPage('/shorts/upload');
const shortsRecord = lazyPage('/shorts/feeds/test');
const shortsSearch = lazyPage('/shorts/search');
const shortsProfile = lazyPage('/shorts/profile');
const shortsProfileEdit = lazyPage('/shorts/profile/edit');
const shortsProfileAll = lazyPage('/shorts/profile/all');
const shortsMypage = lazyPage('/shorts/mypage');
const shortsSubscriptions = lazyPage('/shorts/mypage/subscribe');
const shortsLiked = lazyPage('/shorts/mypage/all');
const shortsCommented = lazyPage('/shorts/mypage/comments');
const qrpin = lazyPage('/qrpin');
const payment = lazyPage('/payment', <PaymentSkeleton />);
const paymentDetails = lazyPage('/payment/details');
const autopaySetup = lazyPage('/payment/autopay');
const pointHistory = lazyPage('/point/history');
const mypage = lazyPage('/mypage', <MypageSkeleton />);
// While its chunk loads, the notification center already shows its title and the list's shape (the page's
// own skeleton, NOTICES_LOADING, says the same words).
const notices = lazyPage(
  '/notifications',
  <TitledPage title="알림">
    {/* The page's toolbar (모두 읽음, settings) takes this place, so the rows do not move when it comes. */}
    <div style={{ height: 44, marginBottom: 'var(--space-3)' }} aria-hidden />
    <ListSkeleton label="알림을 불러오고 있어요." />
  </TitledPage>,
);
const noticeSettings = lazyPage('/notifications/settings');
const merchant = lazyPage('/merchant');
const merchantPortal = lazyPage('/merchant/portal');
// The chat's own pinned title bar takes the app header's place (main-layout.module.css). Marked from its loading
// text on, so the header is gone from the first frame and the screen does not move up 56 px when the page comes.
const chat = lazyPage(
  '/chat',
  <>
    <span data-own-header hidden />
    <LoadingText />
  </>,
);
const dashboard = lazyPage('/dashboard');

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
      <BrandFontAtPageChange />
      <Toaster />
      <ConfirmHost />
      {/* The last resort, for a layout that fails: its message and a retry instead of a blank page. */}
      <FailureBoundary>
        <Routes>
          {/* The merchant's checkout screen stands alone: no customer header or footer. */}
          <Route path="/merchant" element={merchant} />
          {/* The merchant portal, beside the checkout: its own screens, menu and cache. */}
          <Route path="/merchant/portal/*" element={merchantPortal} />
          <Route element={<MainLayout />}>
            <Route path="/" element={home} />
            <Route path="/login" element={login} />
            <Route path="/register" element={register} />
            <Route element={<RequireAuth />}>
              <Route path="/qrpin" element={qrpin} />
              <Route path="/payment" element={payment} />
              <Route path="/payment/details" element={paymentDetails} />
              <Route path="/payment/autopay" element={autopaySetup} />
              <Route path="/mypage" element={mypage} />
              <Route path="/notifications" element={notices} />
              <Route path="/notifications/settings" element={noticeSettings} />
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
      </FailureBoundary>
    </>
  );
}
