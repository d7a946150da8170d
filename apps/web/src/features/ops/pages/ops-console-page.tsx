import type { StaffMe } from '@ohgood/contract/ops';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FailureBoundary } from '../../../shared/ui/failure-boundary';
import { createConsoleQueryClient } from '../api/query-client';
import { callOps, opsToken, whenSignedOut } from '../api/staff-api';
import styles from '../components/ops-console.module.css';
import { ROLE_LABELS, type Section, sectionsFor } from '../console-access';
import { AuditLog } from './audit-log';
import { Collections } from './collections';
import { Customers } from './customers';
import { Enrol } from './enrol';
import { Home } from './home';
import { Jobs } from './jobs';
import { Merchants } from './merchants';
import { Moderation } from './moderation';
import { MonthEnd } from './month-end';
import { Reconciliation } from './reconciliation';
import { SignIn } from './sign-in';
import { Staff } from './staff';
import { type WorkList, WorkLists } from './work-lists';

/** The console's one cache (its own, apart from the customer app's). */
const consoleQueryClient = createConsoleQueryClient();

/**
 * The operator console (`/ops`, desktop-first): sign-in with a password and a TOTP code, then the screens the
 * operator's role may use — today's figures and alerts, the work lists behind them, customers, the daily reconciliation, the moderation
 * queue, merchants, operators and the audit log. Screens a role may not use are not shown (the server refuses them anyway).
 */
export default function OpsConsolePage() {
  const enrolment = /^\/ops\/enrol\/([A-Za-z0-9_-]+)$/.exec(window.location.pathname)?.[1];
  return (
    <QueryClientProvider client={consoleQueryClient}>
      {enrolment ? <Enrol token={enrolment} /> : <Console />}
    </QueryClientProvider>
  );
}

function Console() {
  const client = useQueryClient();
  const [me, setMe] = useState<StaffMe | null>(null);
  const [section, setSection] = useState<Section>('home');
  /** The list a home count opened; the lists screen starts on it. */
  const [list, setList] = useState<WorkList | undefined>();
  const [checking, setChecking] = useState(() => opsToken.get() !== null);

  useEffect(() => {
    // A session that ends takes what it read with it: the next operator's role may not see it.
    whenSignedOut(() => {
      client.clear();
      setMe(null);
    });
    if (!opsToken.get()) return;
    callOps(api.me)
      .then(setMe, () => undefined)
      .finally(() => setChecking(false));
  }, [client]);

  if (checking) return <p role="status">불러오는 중...</p>;
  if (!me) return <SignIn onSignedIn={setMe} />;
  const sections = sectionsFor(me.role);
  const shown = sections.some((s) => s.id === section) ? section : 'home';
  return (
    <div className={styles.shell}>
      <nav className={styles.nav} aria-label="운영 메뉴">
        <h1>오굿페이 운영</h1>
        {sections.map((s) => (
          <button
            key={s.id}
            type="button"
            className={styles.navButton}
            aria-current={shown === s.id ? 'page' : undefined}
            onClick={() => setSection(s.id)}
          >
            {s.label}
          </button>
        ))}
        <p className={styles.me}>
          {me.name}
          <br />
          {ROLE_LABELS[me.role]}
        </p>
        <button
          type="button"
          className={styles.navButton}
          onClick={() => {
            void callOps(api.signOut).catch(() => undefined);
            opsToken.clear();
            client.clear();
            setMe(null);
          }}
        >
          로그아웃
        </button>
      </nav>
      <main className={styles.main}>
        {/* A screen that throws (an answer it cannot read) fails in its own place, in Korean, with a retry: the
            menu stays, and another screen opens afresh (the key). Without it the whole console went blank. */}
        <FailureBoundary key={shown}>
          {shown === 'home' && (
            <Home
              staffRole={me.role}
              onOpen={(target, workList) => {
                setList(workList);
                setSection(target);
              }}
            />
          )}
          {shown === 'lists' && <WorkLists key={list} staffRole={me.role} initial={list} />}
          {shown === 'customers' && <Customers staffRole={me.role} />}
          {shown === 'collections' && <Collections staffRole={me.role} initial="overdue" />}
          {shown === 'reconciliation' && <Reconciliation />}
          {shown === 'month-end' && <MonthEnd staffRole={me.role} />}
          {shown === 'jobs' && <Jobs staffRole={me.role} />}
          {shown === 'moderation' && <Moderation />}
          {shown === 'merchants' && <Merchants staffRole={me.role} />}
          {shown === 'staff' && <Staff myStaffId={me.staffId} />}
          {shown === 'audit' && <AuditLog />}
        </FailureBoundary>
      </main>
    </div>
  );
}
