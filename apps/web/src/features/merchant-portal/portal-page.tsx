import { portalEndpoints as api, type PortalMe } from '@ohgood/contract/merchant-portal';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { Navigate, NavLink, Route, Routes, useParams } from 'react-router';
import { lazyPart } from '../../shared/ui/page';
import { callPortal, createPortalQueryClient, portalToken, whenPortalSignedOut } from './api/portal-api';
import styles from './components/portal.module.css';
import { Loading } from './components/portal-ui';
import { Payments } from './pages/payments';
import { SignIn } from './pages/sign-in';

/*
 * Screens loaded when first opened, each its own chunk. The route chunk carries only what the first screen needs
 * (sign-in and payments, where a signed-in person lands), so the portal's other sections do not weigh on it.
 * A screen whose code does not arrive fails in the screen's place: the portal's menu stays.
 */
const Enrol = lazyPart(() => import('./pages/enrol').then((m) => m.Enrol));
const ApiKeys = lazyPart(() => import('./pages/keys').then((m) => m.ApiKeys));
const Settlements = lazyPart(() => import('./pages/settlements').then((m) => m.Settlements));
const Webhooks = lazyPart(() => import('./pages/webhooks').then((m) => m.Webhooks));

/** The portal's one cache (its own, apart from the customer app's). */
const portalQueryClient = createPortalQueryClient();

/**
 * The merchant portal (`/merchant/portal`, desktop first, usable at 390 px): a shop's own people sign in with a
 * password and a TOTP code, then read payments and refund them, read settlements and download their CSV, and manage the shop's API
 * keys and webhooks. `/merchant`
 * stays the checkout screen.
 */
export default function MerchantPortalPage() {
  return (
    <QueryClientProvider client={portalQueryClient}>
      <Routes>
        <Route path="enrol/:token" element={<EnrolRoute />} />
        <Route path="*" element={<Portal />} />
      </Routes>
    </QueryClientProvider>
  );
}

function EnrolRoute() {
  const { token = '' } = useParams();
  return (
    <Suspense fallback={<Loading />}>
      <Enrol token={token} />
    </Suspense>
  );
}

/** Links are absolute: the portal's screens sit under a splat route, where relative ones would nest. */
const BASE = '/merchant/portal';

const SECTIONS = [
  { path: 'payments', label: '결제 내역' },
  { path: 'settlements', label: '정산' },
  { path: 'keys', label: 'API 키' },
  { path: 'webhooks', label: '웹훅' },
] as const;

function Portal() {
  const client = useQueryClient();
  const [me, setMe] = useState<PortalMe | null>(null);
  const [checking, setChecking] = useState(() => portalToken.get() !== null);

  useEffect(() => {
    // A session that ends takes what it read with it.
    whenPortalSignedOut(() => {
      client.clear();
      setMe(null);
    });
    if (!portalToken.get()) return;
    callPortal(api.me)
      .then(setMe, () => undefined)
      .finally(() => setChecking(false));
  }, [client]);

  useEffect(() => {
    document.title = '가맹점 포털 · 오굿페이';
  }, []);

  if (checking) return <Loading />;
  if (!me) return <SignIn onSignedIn={setMe} />;
  const signOut = () => {
    void callPortal(api.signOut).catch(() => undefined);
    portalToken.clear();
    client.clear();
    setMe(null);
  };
  return (
    <div className={styles.shell}>
      <nav className={styles.nav} aria-label="가맹점 메뉴">
        <h1 className={styles.brand}>오굿페이 가맹점</h1>
        <p className={styles.shop}>
          {me.merchantName} · {me.name}
        </p>
        {SECTIONS.map((section) => (
          <NavLink key={section.path} to={`${BASE}/${section.path}`} className={styles.navLink}>
            {section.label}
          </NavLink>
        ))}
        <button type="button" className={`${styles.navLink} ${styles.signOut}`} onClick={signOut}>
          로그아웃
        </button>
      </nav>
      <main className={styles.main}>
        <Suspense fallback={<Loading />}>
          <Routes>
            <Route index element={<Navigate to={`${BASE}/payments`} replace />} />
            <Route path="payments" element={<Payments />} />
            <Route path="keys" element={<ApiKeys />} />
            <Route path="settlements" element={<Settlements />} />
            <Route path="webhooks" element={<Webhooks />} />
            <Route path="*" element={<Navigate to={`${BASE}/payments`} replace />} />
          </Routes>
        </Suspense>
      </main>
    </div>
  );
}
