/*
 * The one reader of Server-Sent Events in the web app (the customer's notice stream, the merchant's payment
 * status stream). It reads with fetch, not EventSource, because both streams authenticate by a header
 * (a bearer token, a merchant key) that EventSource cannot send.
 */

/** One dispatched event: its type (`message` unless named), its data lines joined by '\n', and its id. */
export interface StreamEvent {
  type: string;
  data: string;
  /** The stream's last event id when this event was dispatched ('' before any). */
  lastEventId: string;
}

/** An event stream's parser; the server's reconnection time (`retry:`, in ms) goes to its `onRetry`. */
export interface SseParser {
  /** Feeds the next bytes of the stream; they may split a line, a field or a UTF-8 character anywhere. */
  push(chunk: Uint8Array): void;
  /** The id the next connection sends as `Last-Event-ID` ('' for none). */
  readonly lastEventId: string;
}

/**
 * Parses an event stream as the HTML standard defines it: lines end in CRLF, LF or CR; a line starting with
 * ':' is a comment (the server's keep-alive ping); `field: value` with one optional space after the colon;
 * `data` lines accumulate; `id` sets the last event id (unless it holds a NUL); `retry` takes digits only; an
 * empty line dispatches the event, and an event without data is dropped. A leading BOM is skipped.
 */
export function createSseParser(
  onEvent: (event: StreamEvent) => void,
  onRetry: (ms: number) => void,
  /** The id a previous connection reached: a new connection starts afresh but keeps it. */
  resumedId = '',
): SseParser {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let started = false;
  /** A chunk ended in CR: a LF at the start of the next one belongs to the same line end. */
  let afterCr = false;
  let type = '';
  let data: string[] = [];
  let lastEventId = resumedId;

  const dispatch = () => {
    if (data.length > 0) onEvent({ type: type || 'message', data: data.join('\n'), lastEventId });
    type = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') type = value;
    else if (field === 'id') {
      if (!value.includes('\0')) lastEventId = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
  };

  return {
    push(chunk) {
      let text = decoder.decode(chunk, { stream: true });
      if (!started && text.length > 0) {
        started = true;
        if (text.startsWith('\uFEFF')) text = text.slice(1);
      }
      if (afterCr && text.startsWith('\n')) text = text.slice(1);
      afterCr = false;
      buffer += text;
      for (let end = buffer.search(/[\r\n]/); end >= 0; end = buffer.search(/[\r\n]/)) {
        const crlf = buffer[end] === '\r' && buffer[end + 1] === '\n';
        if (buffer[end] === '\r' && end === buffer.length - 1) afterCr = true;
        line(buffer.slice(0, end));
        buffer = buffer.slice(end + (crlf ? 2 : 1));
      }
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}

/** After a stream ends or fails, the wait before the next connection: the server's `retry:` (or this) … */
const DEFAULT_RETRY_MS = 1_000;
/** … doubled for each failure in a row, up to this. */
const MAX_RETRY_MS = 30_000;

/** The wait before the next connection after `failures` failed attempts in a row. */
export function backoffMs(retryMs: number, failures: number): number {
  return Math.min(MAX_RETRY_MS, retryMs * 2 ** failures);
}

/** A stream answer that will not change by asking again (a refused key, a request that does not exist). */
export class StreamRefused extends Error {
  constructor(readonly status: number) {
    super(`event stream refused: ${status}`);
    this.name = 'StreamRefused';
  }
}

export interface FollowOptions {
  url: string;
  /** The headers of each connection (its credentials); null stops following (e.g. no longer signed in). */
  headers: () => Record<string, string> | null;
  onEvent: (event: StreamEvent) => void;
  /** Ends the following, at once and between connections (a page left). */
  signal: AbortSignal;
  /** Asked after each end of a stream; false stops following (e.g. a final status arrived). Default: go on. */
  keepFollowing?: () => boolean;
  /**
   * A wait of the caller's own before the next connection, instead of the back-off (e.g. until the tab is shown
   * again), or null for the back-off.
   */
  waitBeforeReconnect?: (signal: AbortSignal) => Promise<void> | null;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/** Reads one connection to its end; `onOpen` runs once the server has answered with the stream. */
async function readOnce(
  options: FollowOptions,
  parser: SseParser,
  headers: Record<string, string>,
  onOpen: () => void,
): Promise<void> {
  const lastId = parser.lastEventId;
  const response = await fetch(options.url, {
    headers: { accept: 'text/event-stream', ...headers, ...(lastId ? { 'last-event-id': lastId } : {}) },
    signal: options.signal,
  });
  if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
    throw new StreamRefused(response.status);
  }
  if (!response.ok || !response.body) throw new Error(`event stream ${response.status}`);
  onOpen();
  const reader = response.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.push(value);
  }
}

/**
 * Follows an event stream until `signal` aborts, `headers` gives null or `keepFollowing` says no: each time a
 * stream ends it connects again, sending `Last-Event-ID` so the server resumes after the last event seen,
 * after the server's `retry:` time, doubled for each failed attempt in a row up to 30 s. A 4xx answer (other
 * than 408 and 429) rejects with StreamRefused: asking again would get the same.
 */
export async function followEventStream(options: FollowOptions): Promise<void> {
  const { signal } = options;
  let retryMs = DEFAULT_RETRY_MS;
  const setRetry = (ms: number) => {
    retryMs = ms;
  };
  /** Attempts in a row that got no stream (reset by every answered one). */
  let failures = 0;
  let lastEventId = '';
  while (!signal.aborted) {
    const headers = options.headers();
    if (!headers) return;
    // Each connection parses afresh (one cut mid-line leaves nothing half-read) from the id the last one reached.
    const parser = createSseParser(options.onEvent, setRetry, lastEventId);
    try {
      await readOnce(options, parser, headers, () => {
        failures = 0;
      });
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof StreamRefused) throw error;
      failures += 1;
    } finally {
      lastEventId = parser.lastEventId;
    }
    if (signal.aborted || !(options.keepFollowing?.() ?? true)) return;
    await (options.waitBeforeReconnect?.(signal) ?? sleep(backoffMs(retryMs, failures), signal));
  }
}
