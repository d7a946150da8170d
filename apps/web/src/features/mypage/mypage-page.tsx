import { bankName, maskAccount } from '@ohgood/contract/bank';
import { GRADES, gradeByName, nextGrade, pointsToNextGrade, TOP_GRADE_MESSAGE } from '@ohgood/contract/grades';
import { ChevronDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { points } from '../../shared/format';
import { BelowFold } from '../../shared/ui/below-fold';
import { ErrorText, MypageLowerSkeleton, MypageSkeleton, Page } from '../../shared/ui/page';
import { useIdleReveal } from '../../shared/use-idle-reveal';
import { useMypage } from './api/mypage-api';
import { BankMark } from './bank-mark';
import { FAQ } from './faq';
import styles from './mypage-page.module.css';

/** Share of the way from this grade's floor to the next grade's (100 at the top). */
export function gradeProgress(gradePoint: number): number {
  const next = nextGrade(gradePoint);
  if (!next) return 100;
  const current = GRADES[GRADES.indexOf(next) - 1] ?? next;
  return Math.round(((gradePoint - current.min) / (next.min - current.min)) * 100);
}

/** The FAQ's height (px, at 390 px wide, answers closed), held until it renders. */
const FAQ_HEIGHT = 428;

/**
 * `autopay`: the autopay card, and `notice`: why payments are suspended, if they are; both composed in by the
 * app (they belong to the bills feature). `composing`: what the app composes in is still loading; the skeleton
 * (which holds the autopay card's place) stays until then, so nothing lands between the cards afterwards.
 */
export default function MypagePage({
  autopay,
  notice,
  composing = false,
}: {
  autopay?: ReactNode;
  notice?: ReactNode;
  composing?: boolean;
} = {}) {
  const me = useMypage();
  // The page comes in two steps, each laid out in a task of its own: the greeting, grade and account with the
  // answer, the autopay and points cards (and the FAQ's place) in the next idle moment. Laying out the whole
  // page's text at once, in sizes and weights the skeleton had not used, was the longest task after the first
  // paint. Nothing on screen moves: the second step replaces its own skeleton, and nothing sits under it yet.
  const lowerShown = useIdleReveal(me.isSuccess && !composing);
  if (me.isPending || composing) return <MypageSkeleton />;
  if (me.isError) return <ErrorText error={me.error} onRetry={() => void me.refetch()} />;
  const data = me.data;
  const grade = gradeByName(data.gradeName);
  const toNext = pointsToNextGrade(data.gradePoint);
  const progress = gradeProgress(data.gradePoint);

  return (
    <Page title="마이페이지" hideTitle>
      <p className={styles.greeting}>
        <span className={styles.hello}>
          <strong>{data.name}</strong>님, 안녕하세요!
        </span>
        <span className={styles.email}>{data.emailId}</span>
      </p>
      {notice}

      <section
        className={`${styles.card} ${styles.grade}`}
        aria-labelledby="grade-title"
        data-grade={grade.name}
        data-testid="grade-card"
      >
        <h2 id="grade-title" className={styles.cardTitle}>
          나의 등급
        </h2>
        <p className={styles.gradeName}>
          {grade.label} <small>{grade.name.toUpperCase()}</small>
        </p>
        <p className={styles.rate}>결제 적립률 {data.pointPercent}%</p>
        <div
          className={styles.bar}
          role="progressbar"
          aria-label="다음 등급까지 진행률"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
        >
          <span style={{ width: `${progress}%` }} />
        </div>
        <p className={styles.next}>
          {toNext === null ? TOP_GRADE_MESSAGE : `${nextGrade(data.gradePoint)?.label}까지 ${toNext}점 남았어요`}
          <span>등급 점수 {data.gradePoint}점</span>
        </p>
      </section>

      <section className={styles.card} aria-labelledby="account-title">
        <h2 id="account-title" className={styles.cardTitle}>
          연결 계좌
        </h2>
        <div className={styles.account}>
          <BankMark bank={data.accountName} />
          <div>
            <p className={styles.bank}>{bankName(data.accountName)}</p>
            <p className={styles.accountNo}>{maskAccount(data.account)}</p>
          </div>
        </div>
      </section>
      {lowerShown ? <LowerCards autopay={autopay} point={data.point} /> : <MypageLowerSkeleton />}
    </Page>
  );
}

/** The autopay card, the points card and the FAQ under them. */
function LowerCards({ autopay, point }: { autopay: ReactNode; point: number }) {
  return (
    <>
      {autopay}

      <section className={styles.card} aria-labelledby="point-title">
        <h2 id="point-title" className={styles.cardTitle}>
          보유 포인트
        </h2>
        <div className={styles.pointRow}>
          <p className={styles.point} data-testid="point-balance">
            {points(point)}
          </p>
          <Link to="/point/history">내역 보기</Link>
        </div>
      </section>

      {/* Under the points card, below the fold on a phone: rendered in an idle moment after the first screen. */}
      <BelowFold height={FAQ_HEIGHT} className={styles.faq}>
        <section className={styles.faq} aria-labelledby="faq-title">
          <h2 id="faq-title" className={styles.cardTitle}>
            자주 묻는 질문
          </h2>
          {FAQ.map((item) => (
            <details key={item.q} className={styles.faqItem}>
              <summary>
                {item.q}
                <ChevronDown size={18} aria-hidden />
              </summary>
              <p>{item.a}</p>
            </details>
          ))}
        </section>
      </BelowFold>
    </>
  );
}
