import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, createSseParser, followEventStream, type StreamEvent, StreamRefused } from './event-stream';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Parses `chunks` fed one by one; returns the events and the retry times. */
function parse(chunks: Uint8Array[]) {
  const events: StreamEvent[] = [];
  const retries: number[] = [];
  const parser = createSseParser(
    (event) => events.push(event),
    (ms) => retries.push(ms),
  );
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries, lastEventId: parser.lastEventId };
}

/** The same bytes cut at every position into two chunks, and into one chunk per byte. */
function everySplit(all: Uint8Array): Uint8Array[][] {
  const splits = [[all], [...all].map((b) => Uint8Array.of(b))];
  for (let at = 1; at < all.length; at += 1) splits.push([all.slice(0, at), all.slice(at)]);
  return splits;
}

describe('the event stream parser', () => {
  const stream =
    ': ping\n\n' +
    'id: 41\nevent: notice\ndata: {"title":"결제가 완료되었어요",\ndata: "unread":2}\n\n' +
    'retry: 2500\n' +
    'data:no space after the colon\r\n\r\n' +
    'event: status\rdata: {"status":"PAID"}\r\r';

  it('reads multi-line data, comments, ids, retry and every line ending, however the bytes are cut', () => {
    const all = bytes(stream);
    for (const chunks of everySplit(all)) {
      const { events, retries, lastEventId } = parse(chunks);
      expect(events).toEqual([
        { type: 'notice', data: '{"title":"결제가 완료되었어요",\n"unread":2}', lastEventId: '41' },
        { type: 'message', data: 'no space after the colon', lastEventId: '41' },
        { type: 'status', data: '{"status":"PAID"}', lastEventId: '41' },
      ]);
      expect(retries).toEqual([2500]);
      expect(lastEventId).toBe('41');
    }
  });

  it('keeps a Hangul character whole when a chunk ends inside its three bytes', () => {
    const all = bytes('data: 오굿페이\n\n');
    // '오' starts at byte 6: cut after its first and after its second byte.
    for (const at of [7, 8, 10, 11]) {
      const { events } = parse([all.slice(0, at), all.slice(at)]);
      expect(events.map((e) => e.data)).toEqual(['오굿페이']);
    }
  });

  it('drops an event without data, ignores unknown fields and a retry that is not digits, skips a BOM', () => {
    const { events, retries } = parse([bytes('\uFEFFevent: ready\n\nfoo: bar\nretry: 1e3\ndata\n\n')]);
    // `data` with no colon is a data field with an empty value: the event is dispatched with empty data.
    expect(events).toEqual([{ type: 'message', data: '', lastEventId: '' }]);
    expect(retries).toEqual([]);
  });

  it('an id holding NUL is ignored; an empty id resets the last event id', () => {
    expect(parse([bytes('id: 5\ndata: a\n\nid: 6\0x\ndata: b\n\n')]).lastEventId).toBe('5');
    expect(parse([bytes('id: 5\ndata: a\n\nid\ndata: b\n\n')]).lastEventId).toBe('');
  });

  it('does not dispatch an event whose blank line has not arrived yet', () => {
    expect(parse([bytes('data: half\n')]).events).toEqual([]);
  });
});

describe('following an event stream', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  /**
   * Lets the stream's reading run (I/O callbacks, not the faked timers) until `condition` holds: fake time
   * stands still meanwhile, so the waits measured after it are exact.
   */
  async function until(condition: () => boolean) {
    for (let turn = 0; !condition(); turn += 1) {
      if (turn > 1_000) throw new Error('condition never held');
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Answers each connection in turn with the next of `answers` (a body that ends, or a status). */
  function serve(answers: Array<string | number | Error>) {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => {
      const next = answers.shift() ?? 'data: idle\n\n';
      if (next instanceof Error) throw next;
      return typeof next === 'number' ? new Response(null, { status: next }) : new Response(next, { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }
  const sentIds = (fetchMock: ReturnType<typeof serve>) =>
    fetchMock.mock.calls.map(([, init]) => (init.headers as Record<string, string>)['last-event-id'] ?? null);

  it('reconnects with Last-Event-ID after a stream ends, from the last id seen, after the server’s retry time', async () => {
    const fetchMock = serve(['id: 7\ndata: a\n\nid: 8\ndata: b\n\nretry: 2000\n\n', 'id: 9\ndata: c\n\n']);
    const abort = new AbortController();
    const seen: string[] = [];
    const following = followEventStream({
      url: '/stream',
      headers: () => ({ authorization: 'Bearer t' }),
      onEvent: (event) => seen.push(event.data),
      signal: abort.signal,
    });
    await until(() => seen.length === 2 && vi.getTimerCount() === 1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => seen.length === 3 && vi.getTimerCount() === 1);
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(sentIds(fetchMock)).toEqual([null, '8']);
    const [, reconnect] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect((reconnect.headers as Record<string, string>).authorization).toBe('Bearer t');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sentIds(fetchMock)).toEqual([null, '8', '9']);
    abort.abort();
    await following;
  });

  it('backs off after failures in a row, up to a cap, and starts over once a stream answers', async () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffMs(1_000, n))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    const fetchMock = serve([new TypeError('offline'), 503, new TypeError('offline'), 'data: back\n\n']);
    const abort = new AbortController();
    const seen: string[] = [];
    const following = followEventStream({
      url: '/stream',
      headers: () => ({}),
      onEvent: (event) => seen.push(event.data),
      signal: abort.signal,
    });
    await until(() => vi.getTimerCount() === 1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000); // after the first failure
    await until(() => fetchMock.mock.calls.length === 2 && vi.getTimerCount() === 1);
    await vi.advanceTimersByTimeAsync(3_999); // after the second: 4 s
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await until(() => vi.getTimerCount() === 1);
    await vi.advanceTimersByTimeAsync(8_000); // after the third: 8 s
    await until(() => seen.length === 1 && vi.getTimerCount() === 1);
    expect(seen).toEqual(['back']);
    // That stream answered: the next wait is the plain retry time again.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(5);
    abort.abort();
    await following;
  });

  it('stops when the page aborts, even in the middle of a back-off, and when the caller says so', async () => {
    const fetchMock = serve([new TypeError('offline')]);
    const abort = new AbortController();
    const following = followEventStream({ url: '/s', headers: () => ({}), onEvent: () => {}, signal: abort.signal });
    await until(() => vi.getTimerCount() === 1);
    abort.abort();
    await following; // resolves without waiting out the back-off
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    const final = serve(['event: status\ndata: {"status":"PAID"}\n\n']);
    let last = '';
    await followEventStream({
      url: '/s',
      headers: () => ({}),
      onEvent: (event) => {
        last = event.data;
      },
      signal: new AbortController().signal,
      keepFollowing: () => !last.includes('PAID'),
    });
    expect(final).toHaveBeenCalledTimes(1);
  });

  it('rejects at a refusal asking again would not change, and stops when the credentials are gone', async () => {
    serve([401]);
    const signal = new AbortController().signal;
    await expect(followEventStream({ url: '/s', headers: () => ({}), onEvent: () => {}, signal })).rejects.toEqual(
      new StreamRefused(401),
    );
    const none = serve([]);
    await followEventStream({ url: '/s', headers: () => null, onEvent: () => {}, signal });
    expect(none).not.toHaveBeenCalled();
  });
});
