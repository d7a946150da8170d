import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const PING_MS = 15_000;
const MAX_MS = 10 * 60 * 1000;

export interface SseStream {
  /** Writes one event; `id` lets the browser resume after it (`Last-Event-ID`). */
  send(event: string, data: unknown, id?: number | string): void;
  /** Ends the stream (idempotent). */
  close(): void;
  readonly closed: boolean;
}

export interface SseOptions {
  /** Runs on every keep-alive ping (e.g. to notice an expiry under a test clock). */
  onPing?: () => void;
  /** Runs once when the stream ends, however it ends. */
  onClose?: () => void;
  /** The data of the last event a shutdown sends (`event: reconnect`); `{}` when absent. */
  shutdownData?: () => object;
  maxMs?: number;
  /**
   * Whose stream this is (a customer, a payment request): with `ceiling`, that many of one owner's streams
   * stay open on this instance, and opening one more ends the oldest with `event: reconnect`.
   */
  owner?: string;
}

/** Why a stream ended with `event: reconnect`, in its data: a newer stream of the same owner took its place. */
export const REPLACED = 'replaced';

/**
 * The one Server-Sent Events helper (merchant live status, the notification stream): headers that keep
 * proxies from buffering, a comment ping every 15 s that keeps idle connections open, an upper bound on a
 * stream's life (the client reconnects), and on shutdown a last `reconnect` event to every open stream, so
 * clients move to another instance at once. Register it once per plugin; `open` hijacks the reply.
 *
 * `ceiling` bounds the live streams of one owner (docs/security.md, "stream flooding"): each costs a socket, a
 * listener and memory until it ends, so a script opening hundreds must not hold them. The oldest of an owner's
 * streams gives way to the newest, with the same `reconnect` event a shutdown sends and `reason: 'replaced'`
 * in its data, so a client can tell the two apart.
 */
export function sseStreams(app: FastifyInstance, { ceiling = Number.POSITIVE_INFINITY }: { ceiling?: number } = {}) {
  const open = new Set<() => void>();
  /** Each owner's streams, oldest first, as the function that makes one give way. */
  const owners = new Map<string, Array<() => void>>();
  // preClose, not onClose: the server waits for open connections before onClose, and a stream never ends
  // by itself.
  app.addHook('preClose', async () => {
    for (const shutdown of [...open]) shutdown();
  });

  return function openStream(request: FastifyRequest, reply: FastifyReply, options: SseOptions = {}): SseStream {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    let closed = false;
    const end = (last?: string) => {
      if (closed) return;
      closed = true;
      clearInterval(ping);
      clearTimeout(limit);
      open.delete(shutdown);
      leaveOwner();
      res.end(last);
      options.onClose?.();
    };
    const reconnect = (extra: object) =>
      end(
        `event: reconnect\nretry: 1000\ndata: ${JSON.stringify({ ...(options.shutdownData?.() ?? {}), ...extra })}\n\n`,
      );
    const shutdown = () => reconnect({});
    const replaced = () => reconnect({ reason: REPLACED });
    const leaveOwner = () => {
      if (options.owner === undefined) return;
      const streams = owners.get(options.owner);
      if (!streams) return;
      const at = streams.indexOf(replaced);
      if (at >= 0) streams.splice(at, 1);
      if (streams.length === 0) owners.delete(options.owner);
    };
    const ping = setInterval(() => {
      res.write(': ping\n\n');
      options.onPing?.();
    }, PING_MS);
    const limit = setTimeout(() => end(), options.maxMs ?? MAX_MS);
    open.add(shutdown);
    if (options.owner !== undefined) {
      const streams = owners.get(options.owner) ?? [];
      owners.set(options.owner, streams);
      streams.push(replaced);
      while (streams.length > ceiling) streams[0]?.();
    }
    request.raw.on('close', () => end());
    return {
      send(event, data, id) {
        if (closed) return;
        res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
      close: () => end(),
      get closed() {
        return closed;
      },
    };
  };
}
