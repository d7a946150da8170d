/**
 * What the feed lets the browser fetch for each short around the visible one. The visible short comes first:
 * until it shows a frame, nothing else starts; after that the next two shorts load (a viewer who swipes after
 * a second finds the one after next already buffered), and their posters and the third one's. A slower or
 * data-saving connection loads only the first bytes (the header and the first frame) of the next short and
 * nothing beyond. Once a video has a source it keeps it: taking the source away and giving it back would
 * start that video's download over; until the new visible short shows a frame it only stops fetching.
 */

export type VideoPreload = 'auto' | 'metadata' | 'none';

/** What the browser says of its connection (`navigator.connection`, Chromium only). */
export interface ConnectionHint {
  saveData?: boolean;
  effectiveType?: string;
}

export interface SlideMedia {
  /** The video element carries its source. */
  source: boolean;
  preload: VideoPreload;
  /** The poster is shown (and so fetched). */
  poster: boolean;
}

/** Shorts after the visible one whose video may load. */
export const VIDEO_AHEAD = 2;
/** Posters fetched ahead of their slide (one more than the videos: the slide a swipe brings into the window). */
export const POSTER_AHEAD = 3;

export function slowConnection(connection: ConnectionHint | undefined): boolean {
  return connection?.saveData === true || ['slow-2g', '2g', '3g'].includes(connection?.effectiveType ?? '');
}

/** How far ahead videos may load on this connection. */
function videoReach(connection: ConnectionHint | undefined): { full: number; firstBytes: number } {
  return slowConnection(connection) ? { full: 0, firstBytes: 1 } : { full: VIDEO_AHEAD, firstBytes: VIDEO_AHEAD };
}

/**
 * The media of the slide `offset` places from the visible one (negative: behind it). `activeReady`: the
 * visible short shows frames. `sourced`/`postered`: the element already has its source/poster, which it keeps.
 */
export function slideMedia(
  offset: number,
  activeReady: boolean,
  had: { sourced: boolean; postered: boolean },
  connection?: ConnectionHint,
): SlideMedia {
  if (offset === 0) return { source: true, preload: 'auto', poster: true };
  const reach = videoReach(connection);
  const wanted: VideoPreload =
    !activeReady || offset < 0
      ? 'none'
      : offset <= reach.full
        ? 'auto'
        : offset <= reach.firstBytes
          ? 'metadata'
          : 'none';
  // A loaded element only ever steps down to metadata: it stops fetching but keeps what it has.
  const preload = had.sourced && wanted === 'none' ? 'metadata' : wanted;
  return {
    source: had.sourced || wanted !== 'none',
    preload,
    poster: had.postered || (activeReady && offset > 0 && offset <= POSTER_AHEAD),
  };
}

/** Offsets whose posters are warmed in the cache before their slide is in the window. */
export function posterWarmOffsets(activeReady: boolean, window: number): number[] {
  if (!activeReady) return [];
  return Array.from({ length: POSTER_AHEAD - window }, (_, i) => window + 1 + i);
}

/** The browser's connection hint, when it gives one. */
export function currentConnection(): ConnectionHint | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return (navigator as Navigator & { connection?: ConnectionHint }).connection;
}
