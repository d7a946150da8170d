import type { Advice } from '@ohgood/contract/report';
import type { AdviceLevel } from '@ohgood/contract/report-rules';
import { type KeyboardEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useIdleReveal } from '../../../shared/use-idle-reveal';
import { useAdvice } from '../api/report-api';
import styles from '../report.module.css';
import { CardError, Skeleton } from './card-state';

const LEVEL_TEXT: Record<AdviceLevel, string> = { HIGH: '중요', MEDIUM: '주의', LOW: '참고' };
const LEVEL_CLASS: Record<AdviceLevel, string | undefined> = {
  HIGH: styles.levelHigh,
  MEDIUM: styles.levelMedium,
  LOW: styles.levelLow,
};

function AdviceSlide({ advice, index, count }: { advice: Advice; index: number; count: number }) {
  return (
    <article
      className={styles.slide}
      aria-roledescription="slide"
      aria-label={`${index + 1} / ${count}: ${advice.title}`}
      data-testid="advice-slide"
    >
      <span className={LEVEL_CLASS[advice.level]}>{LEVEL_TEXT[advice.level]}</span>
      <h3 className={styles.slideTitle}>{advice.title}</h3>
      <p className={styles.slideBody}>{advice.body}</p>
      {advice.tags.length > 0 ? (
        <ul className={styles.tags} aria-label="태그">
          {advice.tags.map((tag) => (
            <li key={tag}>#{tag}</li>
          ))}
        </ul>
      ) : null}
      <div className={styles.refs}>
        {advice.refs.map((ref) => (
          <Link key={ref.path} to={ref.path} className={styles.refButton}>
            {ref.label}
          </Link>
        ))}
      </div>
    </article>
  );
}

/** Advice cards side by side: swipe (scroll snap), dots, or the arrow keys move between them. */
function Carousel({ advices }: { advices: Advice[] }) {
  const track = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);

  const goTo = (index: number) => {
    const el = track.current;
    if (!el) return;
    const target = Math.min(advices.length - 1, Math.max(0, index));
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    el.scrollTo({ left: target * el.clientWidth, behavior: reduce ? 'auto' : 'smooth' });
    setActive(target);
  };

  const onScroll = () => {
    const el = track.current;
    if (el && el.clientWidth > 0) setActive(Math.round(el.scrollLeft / el.clientWidth));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') goTo(active + 1);
    else if (event.key === 'ArrowLeft') goTo(active - 1);
    else return;
    event.preventDefault();
  };

  return (
    <section aria-roledescription="carousel" aria-label="맞춤 조언 목록" onKeyDown={onKeyDown}>
      <div className={styles.track} ref={track} onScroll={onScroll} data-testid="advice-track">
        {advices.map((advice, index) => (
          <AdviceSlide key={advice.id} advice={advice} index={index} count={advices.length} />
        ))}
      </div>
      {advices.length > 1 ? (
        <fieldset className={styles.dots}>
          <legend className="visually-hidden">조언 넘기기</legend>
          {advices.map((advice, index) => (
            <button
              key={advice.id}
              type="button"
              className={styles.dotButton}
              aria-label={`${index + 1}번째 조언 보기`}
              aria-current={index === active ? 'true' : undefined}
              onClick={() => goTo(index)}
            >
              <span className={index === active ? styles.dotActive : styles.dotMark} />
            </button>
          ))}
        </fieldset>
      ) : null}
    </section>
  );
}

/** 'AI 조언': the rule engine's advice on the customer's own numbers (report.md#D4). */
export function AdviceCarousel() {
  const advice = useAdvice();
  // Below the fold: its slides come in an idle moment after the answer (see useIdleReveal).
  const revealed = useIdleReveal(!advice.isPending);
  const loading = advice.isPending || !revealed;
  return (
    <section className={styles.card} aria-labelledby="advice-title" aria-busy={loading}>
      <h2 id="advice-title" className={styles.cardTitle}>
        AI 조언
      </h2>
      {loading ? (
        <>
          <span className="visually-hidden" role="status">
            조언을 불러오는 중...
          </span>
          <Skeleton lines={3} height={299} />
        </>
      ) : advice.isError ? (
        <div className={styles.slidePlaceholder}>
          <h3 className={styles.slideTitle}>조언을 준비하지 못했어요</h3>
          <CardError onRetry={() => void advice.refetch()} retrying={advice.isFetching} />
        </div>
      ) : (
        <Carousel advices={advice.data.advices} />
      )}
    </section>
  );
}
