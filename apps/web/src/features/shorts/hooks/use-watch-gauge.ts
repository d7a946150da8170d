import { requiredWatchSeconds, SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api-client';
import { useEarn, useOpenView } from '../api/shorts-api';

export const GAUGE_TICK_MS = 100;
export const MESSAGE_MS = 3000;

export interface WatchGauge {
  watched: number;
  required: number;
  message: string | null;
  disabled: boolean;
  /** This video already paid its points (until the slide changes): the ring stays full. */
  earned: boolean;
  showMessage(text: string): void;
}

/**
 * docs/rules/points.md#R5, #R6: while the active video plays, 0.1 s per 100 ms tick up to duration − 1; a view is
 * opened on the server first (its clock is what pays), one earn request on reaching the goal, a message for
 * 3 s, then the ring stays full and says '이 영상은 적립 완료'; disabled when logged out or at the daily limit; reset on slide change.
 */
export function useWatchGauge(options: {
  shortsId: number;
  durationSeconds: number;
  active: boolean;
  playing: boolean;
  loggedIn: boolean;
  limitReached: boolean;
  onLimit(): void;
}): WatchGauge {
  const { shortsId, durationSeconds, active, playing, loggedIn, limitReached, onLimit } = options;
  const required = requiredWatchSeconds(durationSeconds);
  const [watched, setWatched] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const [viewOpen, setViewOpen] = useState(false);
  const [done, setDone] = useState(false);
  const [earned, setEarned] = useState(false);
  const requested = useRef(false);
  const viewRequested = useRef(false);
  const messageTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const disabled = !loggedIn || limitReached;
  const { mutateAsync: openView } = useOpenView();
  const { mutateAsync: earn } = useEarn();

  const showMessage = (text: string) => {
    setMessage(text);
    if (messageTimer.current) clearTimeout(messageTimer.current);
    messageTimer.current = setTimeout(() => setMessage(null), MESSAGE_MS);
  };

  useEffect(
    () => () => {
      if (messageTimer.current) clearTimeout(messageTimer.current);
    },
    [],
  );

  // Slide change resets everything for this video.
  useEffect(() => {
    if (active) return;
    setWatched(0);
    setViewOpen(false);
    setDone(false);
    setEarned(false);
    requested.current = false;
    viewRequested.current = false;
  }, [active]);

  useEffect(() => {
    if (!active || !playing || disabled || done || viewRequested.current) return;
    viewRequested.current = true;
    openView(shortsId).then(
      () => setViewOpen(true),
      (error: unknown) => {
        viewRequested.current = false;
        console.warn('view could not be opened', error);
      },
    );
  }, [active, playing, disabled, done, shortsId, openView]);

  useEffect(() => {
    if (!active || !playing || disabled || done || !viewOpen) return;
    const timer = setInterval(() => {
      setWatched((w) => Math.min(required, Math.round((w + 0.1) * 10) / 10));
    }, GAUGE_TICK_MS);
    return () => clearInterval(timer);
  }, [active, playing, disabled, done, viewOpen, required]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: fires once when the goal is reached
  useEffect(() => {
    if (watched < required || requested.current || disabled) return;
    requested.current = true;
    earn({ shortsId, watchedSeconds: required }).then(
      (result) => {
        setDone(true);
        setEarned(true);
        showMessage(SHORTS_MSG.earned(result.earnedPoints));
      },
      (error: unknown) => {
        setDone(true);
        setWatched(0);
        if (error instanceof ApiError && error.code === 'DAILY_LIMIT_REACHED') {
          onLimit();
          showMessage(SHORTS_MSG.dailyLimit);
          return;
        }
        // Other earn failures are only logged.
        console.warn('point earn failed', error);
      },
    );
  }, [watched, required, disabled, shortsId]);

  return { watched, required, message, disabled, earned, showMessage };
}
