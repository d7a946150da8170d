import { portalEndpoints as api, type PortalMe } from '@ohgood/contract/merchant-portal';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, NavLink, Route, Routes, useParams } from 'react-router';
import { callPortal, createPortalQueryClient, portalToken, whenPortalSignedOut } from './api/portal-api';
import styles from './components/portal.module.css';
import { Enrol } from './pages/enrol';
import { ApiKeys } from './pages/keys';
import { Payments } from './pages/payments';
import { Settlements } from './pages/settlements';
import { SignIn } from './pages/sign-in';
import { Webhooks } from './pages/webhooks';

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
  return <Enrol token={token} />;
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

  if (checking) {
    return (
      <p className={styles.muted} role="status">
        불러오는 중...
      </p>
    );
  }
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
        <Routes>
          <Route index element={<Navigate to={`${BASE}/payments`} replace />} />
          <Route path="payments" element={<Payments />} />
          <Route path="keys" element={<ApiKeys />} />
          <Route path="settlements" element={<Settlements />} />
          <Route path="webhooks" element={<Webhooks />} />
          <Route path="*" element={<Navigate to={`${BASE}/payments`} replace />} />
        </Routes>
      </main>
    </div>
  );
}
