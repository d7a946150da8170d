/**
 * The moment a short-video feed is judged on, as performance entries any tool can read (DevTools, the swipe
 * e2e, the bench): a mark when the viewer moves to another short, a measure from it to that short's first
 * rendered frame, and a mark each time a playing short stops to wait for data (a stall).
 */
export const SWIPE_MARK = 'shorts:swipe';
export const SWIPE_TO_FRAME = 'shorts:swipe-to-frame';
export const STALL_MARK = 'shorts:stall';

let pendingSwipe: PerformanceMark | null = null;

/** The viewer asked for another short; the next short that shows a frame closes the measure. */
export function markSwipe(): void {
  pendingSwipe = performance.mark(SWIPE_MARK);
}

type FrameVideo = HTMLVideoElement & {
  requestVideoFrameCallback?(callback: (now: number, metadata: { presentationTime: number }) => void): number;
  cancelVideoFrameCallback?(handle: number): void;
};

/**
 * Calls `shown` once with the time the video's next frame was presented (`requestVideoFrameCallback`), or when
 * it starts playing where that is missing. Returns a function that stops waiting.
 */
export function onNextFrame(video: HTMLVideoElement, shown: (at: number) => void): () => void {
  const el = video as FrameVideo;
  if (el.requestVideoFrameCallback && el.cancelVideoFrameCallback) {
    const handle = el.requestVideoFrameCallback((_now, metadata) => shown(metadata.presentationTime));
    return () => el.cancelVideoFrameCallback?.(handle);
  }
  const playing = () => shown(performance.now());
  el.addEventListener('playing', playing, { once: true });
  return () => el.removeEventListener('playing', playing);
}

/**
 * Watches the short that just became visible: its first frame closes the pending swipe's measure (and is told to
 * `onFirstFrame`), and every wait for data after it is marked as a stall. Returns the cleanup for when the short
 * is left.
 */
export function watchActiveShort(video: HTMLVideoElement, shortsId: number, onFirstFrame?: () => void): () => void {
  let framed = false;
  const stopFrame = onNextFrame(video, (at) => {
    framed = true;
    const swipe = pendingSwipe;
    pendingSwipe = null;
    if (swipe) performance.measure(SWIPE_TO_FRAME, { start: swipe.startTime, end: at, detail: { shortsId } });
    onFirstFrame?.();
  });
  const waiting = () => {
    if (framed) performance.mark(STALL_MARK, { detail: { shortsId } });
  };
  video.addEventListener('waiting', waiting);
  return () => {
    stopFrame();
    video.removeEventListener('waiting', waiting);
  };
}
