import type { StaffMe } from '@ohgood/contract/ops';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { REPORT_REASON_LABELS } from '@ohgood/contract/safety-rules';
import { type FormEvent, useEffect, useState } from 'react';
import { confirmSheet } from '../../shared/confirm';
import { won } from '../../shared/format';
import { notify } from '../../shared/notify';
import { callOps, OpsError, opsToken, whenSignedOut } from './ops-client';
import styles from './ops-console.module.css';
import { useOps } from './use-ops';

/**
 * The operator console (`/ops`, desktop-first): sign-in with a password and a TOTP code, then today's
 * figures, customers, the moderation queue and the audit log. A lazy chunk of its own: the customer app's
 * first load carries none of it.
 */
type Section = 'home' | 'customers' | 'moderation' | 'audit';

const SECTIONS: Array<{ id: Section; label: string }> = [
  { id: 'home', label: '홈' },
  { id: 'customers', label: '고객' },
  { id: 'moderation', label: '신고 검토' },
  { id: 'audit', label: '감사 기록' },
];

const failure = (error: unknown) => (error instanceof OpsError ? error.message : '요청에 실패했습니다.');

function Status({ loading, error, retry }: { loading: boolean; error?: string; retry: () => void }) {
  if (loading) return <p role="status">불러오는 중...</p>;
  if (!error) return null;
  return (
    <p className={styles.error} role="alert">
      {error}{' '}
      <button type="button" className={styles.linkButton} onClick={retry}>
        다시 시도
      </button>
    </p>
  );
}

/** Asks for the reason, then confirms; resolves the reason or null when the operator backs out. */
async function reasonFor(title: string, reason: string): Promise<string | null> {
  if (reason.trim().length < 2) {
    notify('사유를 2자 이상 입력해주세요.');
    return null;
  }
  const ok = await confirmSheet({ title, message: `사유: ${reason.trim()}`, confirmLabel: '실행', danger: true });
  return ok ? reason.trim() : null;
}

function SignIn({ onSignedIn }: { onSignedIn: (me: StaffMe) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [stage, setStage] = useState<'password' | 'totp'>('password');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      if (stage === 'password') {
        const { token } = await callOps(api.signIn, { body: { email, password } });
        opsToken.set(token);
        setStage('totp');
      } else {
        onSignedIn(await callOps(api.verifyTotp, { body: { code } }));
      }
    } catch (e) {
      setError(failure(e));
    }
  }

  return (
    <form className={`${styles.card} ${styles.signIn}`} onSubmit={submit}>
      <h1>오굿페이 운영 콘솔</h1>
      {stage === 'password' ? (
        <>
          <label>
            이메일
            <input
              className={styles.input}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="username"
            />
          </label>
          <label>
            비밀번호
            <input
              className={styles.input}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
            />
          </label>
        </>
      ) : (
        <label>
          인증 앱의 6자리 코드
          <input
            className={styles.input}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
        </label>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      <button className={styles.button} type="submit">
        {stage === 'password' ? '다음' : '로그인'}
      </button>
    </form>
  );
}

function Home() {
  const home = useOps(() => callOps(api.home), 'home');
  return (
    <section className={styles.card} aria-labelledby="home-title">
      <h2 id="home-title">오늘 ({home.data?.date ?? ''})</h2>
      <Status {...home} />
      {home.data && (
        <div className={styles.grid}>
          <div>
            결제 {home.data.payments.count}건<p className={styles.figure}>{won(home.data.payments.amount)}</p>
          </div>
          <div>
            환불 {home.data.refunds.count}건<p className={styles.figure}>{won(home.data.refunds.amount)}</p>
          </div>
          <div>
            연체 고객<p className={styles.figure}>{home.data.overdueCustomers}명</p>
          </div>
          <div>
            검토 대기 신고<p className={styles.figure}>{home.data.openReports}건</p>
          </div>
        </div>
      )}
    </section>
  );
}

function CustomerDetail({ customerId }: { customerId: number }) {
  const [version, setVersion] = useState(0);
  const page = useOps(() => callOps(api.customer, { params: { id: customerId } }), `${customerId}:${version}`);
  const audit = useOps(() => callOps(api.customerAudit, { params: { id: customerId } }), `${customerId}:${version}`);
  const [reason, setReason] = useState('');
  const [revealed, setRevealed] = useState<Record<string, string>>({});

  async function act(
    title: string,
    endpoint: typeof api.suspend | typeof api.lift | typeof api.resetLockouts | typeof api.revokeSessions,
  ) {
    const why = await reasonFor(title, reason);
    if (!why) return;
    try {
      await callOps(endpoint, { params: { id: customerId }, body: { reason: why } });
      notify(`${title} 완료`);
      setReason('');
      setVersion((v) => v + 1);
    } catch (e) {
      notify(failure(e));
    }
  }

  async function reveal(field: 'name' | 'email' | 'account') {
    const why = await reasonFor('개인정보 보기', reason);
    if (!why) return;
    try {
      const { value } = await callOps(api.reveal, { params: { id: customerId }, body: { field, reason: why } });
      setRevealed((r) => ({ ...r, [field]: value }));
      setVersion((v) => v + 1);
    } catch (e) {
      notify(failure(e));
    }
  }

  const c = page.data?.customer;
  return (
    <section className={styles.card} aria-labelledby="customer-title">
      <h2 id="customer-title">고객 #{customerId}</h2>
      <Status {...page} />
      {c && (
        <>
          <table className={styles.table}>
            <tbody>
              {(['name', 'email', 'account'] as const).map((field) => (
                <tr key={field}>
                  <th>{{ name: '이름', email: '이메일', account: '계좌' }[field]}</th>
                  <td>
                    {revealed[field] ?? c[field]}{' '}
                    {!revealed[field] && (
                      <button type="button" className={styles.linkButton} onClick={() => void reveal(field)}>
                        보기
                      </button>
                    )}
                  </td>
                </tr>
              ))}
              <tr>
                <th>등급 · 한도</th>
                <td>
                  {c.gradeName} ({c.gradePoint}점) · 한도 {won(c.limit)} · 이번 달 사용 {won(c.usedThisMonth)}
                </td>
              </tr>
              <tr>
                <th>상태</th>
                <td>{c.suspended ? '결제 정지' : '정상'}</td>
              </tr>
            </tbody>
          </table>
          <label>
            사유 (모든 조치에 필요)
            <textarea className={styles.textarea} value={reason} onChange={(e) => setReason(e.target.value)} />
          </label>
          <div className={styles.row}>
            {c.suspended ? (
              <button type="button" className={styles.button} onClick={() => void act('정지 해제', api.lift)}>
                정지 해제
              </button>
            ) : (
              <button type="button" className={styles.danger} onClick={() => void act('결제 정지', api.suspend)}>
                결제 정지
              </button>
            )}
            <button
              type="button"
              className={styles.secondary}
              onClick={() => void act('잠금 초기화', api.resetLockouts)}
            >
              잠금 초기화
            </button>
            <button
              type="button"
              className={styles.secondary}
              onClick={() => void act('세션 끊기', api.revokeSessions)}
            >
              모든 세션 끊기
            </button>
          </div>
          <h3>정지 이력</h3>
          <ul>
            {page.data?.suspensionHistory.map((h) => (
              <li key={`${h.at}-${h.what}`}>
                {h.at.slice(0, 16).replace('T', ' ')} {h.what}
              </li>
            ))}
          </ul>
          <h3>결제</h3>
          <table className={styles.table}>
            <tbody>
              {page.data?.payments.slice(0, 20).map((p) => (
                <tr key={p.paymentId}>
                  <td>{p.date.slice(0, 10)}</td>
                  <td>{p.requestName}</td>
                  <td>{won(p.totalPrice)}</td>
                  <td>{p.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h3>감사 기록</h3>
      <AuditTable items={audit.data?.items ?? []} />
    </section>
  );
}

function Customers() {
  const [q, setQ] = useState('');
  const [submitted, setSubmitted] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const results = useOps(
    () => (submitted ? callOps(api.searchCustomers, { query: { q: submitted } }) : Promise.resolve({ items: [] })),
    submitted,
  );
  return (
    <>
      <form
        className={`${styles.card} ${styles.row}`}
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(q.trim());
        }}
      >
        <label>
          고객 검색 (이름, 이메일, 고객 번호){' '}
          <input className={styles.input} value={q} onChange={(e) => setQ(e.target.value)} />
        </label>
        <button className={styles.button} type="submit">
          검색
        </button>
      </form>
      <section className={styles.card} aria-label="검색 결과">
        <Status {...results} />
        {submitted && results.data?.items.length === 0 && <p>검색 결과가 없습니다.</p>}
        <table className={styles.table}>
          <tbody>
            {results.data?.items.map((c) => (
              <tr key={c.customerId}>
                <td>#{c.customerId}</td>
                <td>{c.name}</td>
                <td>{c.email}</td>
                <td>{c.suspended ? '결제 정지' : '정상'}</td>
                <td>
                  <button type="button" className={styles.linkButton} onClick={() => setSelected(c.customerId)}>
                    열기
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {selected !== null && <CustomerDetail customerId={selected} />}
    </>
  );
}

function Moderation() {
  const [version, setVersion] = useState(0);
  const queue = useOps(() => callOps(api.moderation, { query: { state: 'OPEN' } }), String(version));
  const [reason, setReason] = useState('');

  async function decide(caseId: number, action: 'HIDE' | 'RESTORE' | 'DISMISS', title: string) {
    const why = await reasonFor(title, reason);
    if (!why) return;
    try {
      await callOps(api.decide, { params: { caseId }, body: { action, reason: why } });
      notify(`${title} 완료`);
      setVersion((v) => v + 1);
    } catch (e) {
      notify(failure(e));
    }
  }

  return (
    <section className={styles.card} aria-labelledby="moderation-title">
      <h2 id="moderation-title">신고 검토 대기열</h2>
      <label>
        사유 (모든 조치에 필요)
        <textarea className={styles.textarea} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <Status {...queue} />
      {queue.data?.items.length === 0 && <p>검토할 신고가 없습니다.</p>}
      {queue.data?.items.map((item) => (
        <article key={item.caseId} className={styles.card} aria-label={`신고 ${item.caseId}`}>
          <div className={styles.row}>
            {item.videoPath && (
              // biome-ignore lint/a11y/useMediaCaption: user videos carry no caption track
              <video
                className={styles.video}
                src={`${queue.data?.mediaBaseUrl ?? '/media/'}${item.videoPath}`}
                controls
              />
            )}
            <div>
              <h3>
                {item.targetType === 'SHORT' ? '쇼츠' : '댓글'}: {item.title}
              </h3>
              <p>{item.body}</p>
              <p>
                신고 {item.reportCount}건 ·{' '}
                {item.reasons.map((r) => `${REPORT_REASON_LABELS[r.reason]} ${r.count}`).join(', ')}
                {item.autoHidden ? ' · 자동 숨김됨' : ''}
              </p>
              <p>
                크리에이터 {item.creatorNickname} (경고 {item.creatorStrikes}회)
              </p>
              <div className={styles.row}>
                <button
                  type="button"
                  className={styles.danger}
                  onClick={() => void decide(item.caseId, 'HIDE', '숨김')}
                >
                  숨김
                </button>
                <button
                  type="button"
                  className={styles.secondary}
                  onClick={() => void decide(item.caseId, 'RESTORE', '복구')}
                >
                  복구
                </button>
                <button
                  type="button"
                  className={styles.secondary}
                  onClick={() => void decide(item.caseId, 'DISMISS', '기각')}
                >
                  기각
                </button>
              </div>
            </div>
          </div>
        </article>
      ))}
    </section>
  );
}

type AuditItem = Awaited<ReturnType<typeof callOps<typeof api.audit>>>['items'][number];

function AuditTable({ items }: { items: AuditItem[] }) {
  if (items.length === 0) return <p>기록이 없습니다.</p>;
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th>시각</th>
          <th>운영자</th>
          <th>조치</th>
          <th>대상</th>
          <th>사유</th>
        </tr>
      </thead>
      <tbody>
        {items.map((row) => (
          <tr key={row.auditId}>
            <td>{row.at.slice(0, 19).replace('T', ' ')}</td>
            <td>
              {row.staffName} ({row.role})
            </td>
            <td>{row.action}</td>
            <td>
              {row.targetType} #{row.targetId}
            </td>
            <td>{row.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Audit() {
  const [action, setAction] = useState('');
  const [targetId, setTargetId] = useState('');
  const [filter, setFilter] = useState<{ action?: string; targetId?: string }>({});
  const log = useOps(() => callOps(api.audit, { query: filter }), JSON.stringify(filter));
  return (
    <section className={styles.card} aria-labelledby="audit-title">
      <h2 id="audit-title">감사 기록</h2>
      <form
        className={styles.row}
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ action: action.trim() || undefined, targetId: targetId.trim() || undefined });
        }}
      >
        <label>
          조치{' '}
          <input
            className={styles.input}
            value={action}
            onChange={(e) => setAction(e.target.value)}
            placeholder="customer.lift"
          />
        </label>
        <label>
          대상 번호 <input className={styles.input} value={targetId} onChange={(e) => setTargetId(e.target.value)} />
        </label>
        <button className={styles.button} type="submit">
          적용
        </button>
      </form>
      <Status {...log} />
      <AuditTable items={log.data?.items ?? []} />
    </section>
  );
}

/** `/ops/enrol/<token>`: the one-time link's page — scan the QR, set a password, confirm with a code. */
function Enrol({ token }: { token: string }) {
  const info = useOps(() => callOps(api.enrolment, { params: { token } }), token);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (password.length < 12) return setError('비밀번호는 12자 이상으로 정해주세요.');
    try {
      await callOps(api.enrol, { params: { token }, body: { password, code } });
      setDone(true);
    } catch (e) {
      setError(failure(e));
    }
  }

  if (done) {
    return (
      <div className={`${styles.card} ${styles.signIn}`}>
        <h1>등록이 끝났어요</h1>
        <a href="/ops">운영 콘솔에 로그인하기</a>
      </div>
    );
  }
  return (
    <form className={`${styles.card} ${styles.signIn}`} onSubmit={submit}>
      <h1>운영자 등록</h1>
      <Status {...info} />
      {info.data && (
        <>
          <p>
            {info.data.name} ({info.data.email}, {info.data.role})
          </p>
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(info.data.qrSvg)}`}
            alt="인증 앱으로 스캔할 OTP QR 코드"
            width={200}
            height={200}
          />
          <p>스캔할 수 없으면 이 키를 입력하세요: {info.data.secret}</p>
          <label>
            새 비밀번호 (12자 이상)
            <input
              className={styles.input}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <label>
            인증 앱의 6자리 코드
            <input
              className={styles.input}
              inputMode="numeric"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
          </label>
          {error && (
            <p className={styles.error} role="alert">
              {error}
            </p>
          )}
          <button className={styles.button} type="submit">
            등록하기
          </button>
        </>
      )}
    </form>
  );
}

export default function OpsConsolePage() {
  const enrolment = /^\/ops\/enrol\/([A-Za-z0-9_-]+)$/.exec(window.location.pathname)?.[1];
  return enrolment ? <Enrol token={enrolment} /> : <Console />;
}

function Console() {
  const [me, setMe] = useState<StaffMe | null>(null);
  const [section, setSection] = useState<Section>('home');
  const [checking, setChecking] = useState(() => opsToken.get() !== null);

  useEffect(() => {
    whenSignedOut(() => setMe(null));
    if (!opsToken.get()) return;
    callOps(api.me)
      .then(setMe, () => undefined)
      .finally(() => setChecking(false));
  }, []);

  if (checking) return <p role="status">불러오는 중...</p>;
  if (!me) return <SignIn onSignedIn={setMe} />;
  return (
    <div className={styles.shell}>
      <nav className={styles.nav} aria-label="운영 메뉴">
        <h1>오굿페이 운영</h1>
        {SECTIONS.map((s) => (
          <button
            key={s.id}
            type="button"
            className={styles.navButton}
            aria-current={section === s.id ? 'page' : undefined}
            onClick={() => setSection(s.id)}
          >
            {s.label}
          </button>
        ))}
        <p>
          {me.name} ({me.role})
        </p>
        <button
          type="button"
          className={styles.navButton}
          onClick={() => {
            void callOps(api.signOut).catch(() => undefined);
            opsToken.clear();
            setMe(null);
          }}
        >
          로그아웃
        </button>
      </nav>
      <main className={styles.main}>
        {section === 'home' && <Home />}
        {section === 'customers' && <Customers />}
        {section === 'moderation' && <Moderation />}
        {section === 'audit' && <Audit />}
      </main>
    </div>
  );
}
