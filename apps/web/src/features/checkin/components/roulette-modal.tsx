import { CHECKIN_MSG } from '@ohgood/contract/bill-messages';
import type { RouletteResult } from '@ohgood/contract/checkin';
import { LIMITS } from '@ohgood/contract/limits';
import { MSG } from '@ohgood/contract/messages';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api-client';
import { useIsLoggedIn } from '../../../shared/auth-token';
import { points } from '../../../shared/format';
import { navigateTo } from '../../../shared/navigation';
import { notify } from '../../../shared/notify';
import { loginPath } from '../../../shared/return-to';
import buttons from '../../../shared/ui/button.module.css';
import { Modal } from '../../../shared/ui/modal';
import { useCheckedInToday, useSpin } from '../api/checkin-api';
import { landingRotation, PRIZES, SEGMENT_DEG } from '../roulette';
import styles from './roulette-modal.module.css';

export interface RouletteModalProps {
  open: boolean;
  onClose: () => void;
  /** Called once the prize is credited (the app refreshes what shows points). */
  onAwarded?: (result: RouletteResult) => void;
}

const COLORS = ['#ff6b3d', '#ffd9c9', '#ff8f5e', '#fff0ea', '#e8542a', '#ffc2a8'];
const R = 110;

function wedge(index: number): string {
  const start = ((index * SEGMENT_DEG - SEGMENT_DEG / 2 - 90) * Math.PI) / 180;
  const end = ((index * SEGMENT_DEG + SEGMENT_DEG / 2 - 90) * Math.PI) / 180;
  const [x1, y1, x2, y2] = [R * Math.cos(start), R * Math.sin(start), R * Math.cos(end), R * Math.sin(end)];
  return `M0 0 L${x1.toFixed(2)} ${y1.toFixed(2)} A${R} ${R} 0 0 1 ${x2.toFixed(2)} ${y2.toFixed(2)} Z`;
}

function Wheel({ rotation, spinning }: { rotation: number; spinning: boolean }) {
  return (
    <div className={styles.wheelBox}>
      <span className={styles.pointer} aria-hidden />
      <svg
        viewBox="-120 -120 240 240"
        className={styles.wheel}
        style={{
          transform: `rotate(${rotation}deg)`,
          transitionDuration: spinning ? `${LIMITS.rouletteSpinMs}ms` : '0ms',
        }}
        role="img"
        aria-label={`룰렛: ${PRIZES.map((p) => `${p}P`).join(', ')}`}
      >
        {PRIZES.map((prize, index) => {
          const angle = index * SEGMENT_DEG;
          return (
            <g key={prize}>
              <path d={wedge(index)} fill={COLORS[index]} stroke="#fff" strokeWidth="2" />
              <text
                x="0"
                y={-R * 0.68}
                transform={`rotate(${angle})`}
                textAnchor="middle"
                dominantBaseline="middle"
                className={index % 2 === 0 ? styles.labelLight : styles.labelDark}
              >
                {prize}P
              </text>
            </g>
          );
        })}
        <circle r="22" fill="#fff" stroke="#ffd9c9" strokeWidth="4" />
      </svg>
    </div>
  );
}

/** Home with the roulette open: where a login for attendance returns to. */
export const ATTENDANCE_PATH = '/?attendance=1';

/**
 * The attendance roulette: the server draws the prize, the wheel spins 3.5 s and lands on it (docs/rules/points.md#R4).
 */
export default function RouletteModal({ open, onClose, onAwarded }: RouletteModalProps) {
  const loggedIn = useIsLoggedIn();
  useEffect(() => {
    // Attendance needs a login: the login alert, then the login page, which comes back and opens it.
    if (!loggedIn) {
      notify(MSG.loginRequired);
      onClose();
      navigateTo(loginPath(ATTENDANCE_PATH));
    }
  }, [loggedIn, onClose]);
  const today = useCheckedInToday(loggedIn);
  const spin = useSpin();
  const [rotation, setRotation] = useState(0);
  const [phase, setPhase] = useState<'ready' | 'spinning' | 'result' | 'already'>('ready');
  const [result, setResult] = useState<RouletteResult | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const reducedMotion =
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  const alreadyDone = phase === 'already' || (phase === 'ready' && today.data === true);

  const start = () =>
    spin.mutate(undefined, {
      onSuccess: (won) => {
        setResult(won);
        // The prize is revealed (and the rest of the app refreshed) only when the wheel stops.
        const reveal = () => {
          setPhase('result');
          onAwarded?.(won);
        };
        if (reducedMotion) {
          setRotation(landingRotation(won.point, 0));
          reveal();
          return;
        }
        setPhase('spinning');
        setRotation(landingRotation(won.point));
        timer.current = window.setTimeout(reveal, LIMITS.rouletteSpinMs);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) setPhase('already');
        else notify(CHECKIN_MSG.failed);
      },
    });

  return (
    <Modal open={open} title="출석체크 룰렛" onClose={onClose}>
      <div className={styles.body}>
        {today.isPending ? (
          <p className={styles.message} role="status">
            출석 여부를 확인하는 중...
          </p>
        ) : alreadyDone ? (
          <>
            <p className={styles.message} role="status" data-testid="attendance-done">
              {CHECKIN_MSG.alreadyDone}
            </p>
            <button type="button" className={`${buttons.primary} ${buttons.block}`} onClick={onClose}>
              확인
            </button>
          </>
        ) : (
          <>
            <p className={styles.message}>하루 한 번, 룰렛을 돌려 최대 50P를 받아가세요!</p>
            <Wheel rotation={rotation} spinning={phase === 'spinning'} />
            {phase === 'result' && result ? (
              <div className={styles.result} role="status" data-testid="roulette-result">
                <strong>{result.point}P 당첨!</strong>
                <span>출석체크 완료 · 보유 포인트 {points(result.pointBalance)}</span>
              </div>
            ) : null}
            {phase === 'result' ? (
              <button type="button" className={`${buttons.primary} ${buttons.block}`} onClick={onClose}>
                확인
              </button>
            ) : (
              <button
                type="button"
                className={`${buttons.primary} ${buttons.block}`}
                onClick={start}
                disabled={phase === 'spinning' || spin.isPending}
              >
                {phase === 'spinning' || spin.isPending ? '돌리는 중...' : '룰렛 돌리기'}
              </button>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
