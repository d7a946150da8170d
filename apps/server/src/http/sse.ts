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
  shutdownData?: () => unknown;
  maxMs?: number;
}

/**
 * The one Server-Sent Events helper (merchant live status, the notification stream): headers that keep
 * proxies from buffering, a comment ping every 15 s that keeps idle connections open, an upper bound on a
 * stream's life (the client reconnects), and on shutdown a last `reconnect` event to every open stream, so
 * clients move to another instance at once. Register it once per plugin; `open` hijacks the reply.
 */
export function sseStreams(app: FastifyInstance) {
  const open = new Set<() => void>();
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
      res.end(last);
      options.onClose?.();
    };
    const shutdown = () =>
      end(`event: reconnect\nretry: 1000\ndata: ${JSON.stringify(options.shutdownData?.() ?? {})}\n\n`);
    const ping = setInterval(() => {
      res.write(': ping\n\n');
      options.onPing?.();
    }, PING_MS);
    const limit = setTimeout(() => end(), options.maxMs ?? MAX_MS);
    open.add(shutdown);
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
