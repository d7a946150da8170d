import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP hop in front of a real server (PostgreSQL, the S3 test server), to take it away and bring it back
 * as a restart or a network cut would: `cut()` resets every open connection and refuses new ones,
 * `restore()` accepts again on the same port.
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /**
   * Cuts every open connection without telling its client, as a restart the client has not heard of yet
   * (a connection idle in a pool): the server's side is closed, and the client meets a reset only when it
   * next writes. A connection with a query in flight is reset at once, as a restart would answer it.
   * New connections pass as before.
   */
  severQuietly(): void;
  close(): Promise<void>;
}

/** Where the proxy connects: a TCP address, or a Unix socket (the embedded PostgreSQL listens on one). */
export type ProxyTarget = { host: string; port: number } | { path: string };

export async function startTcpProxy(target: ProxyTarget): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const severs = new Set<() => void>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = createConnection(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        // A query in flight: the client has written since the server last said it was ready for the next
        // one (PostgreSQL's ReadyForQuery). A restart answers such a query at once, with the connection's end.
        let answerAwaited = false;
        const endsReady = readyForQueryWatcher();
        client.on('data', () => {
          answerAwaited = true;
        });
        upstream.on('data', (chunk: Buffer) => {
          if (endsReady(chunk)) answerAwaited = false;
        });
        let severed = false;
        const sever = () => {
          severed = true;
          client.unpipe(upstream);
          upstream.unpipe(client);
          upstream.destroy();
          // Cut unseen only while idle: an awaited answer that never comes would hang its caller for good.
          if (answerAwaited) return reset(client);
          client.on('data', () => reset(client));
          client.resume();
        };
        severs.add(sever);
        client.on('close', () => {
          severs.delete(sever);
          upstream.destroy();
        });
        upstream.on('close', () => {
          if (!severed) client.destroy();
        });
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        const address = next.address();
        if (typeof address === 'object' && address) port = address.port;
        server = next;
        resolve();
      });
    });

  const stop = async () => {
    const current = server;
    server = undefined;
    for (const socket of sockets) reset(socket);
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    cut: stop,
    restore: listen,
    severQuietly() {
      for (const sever of severs) sever();
      severs.clear();
    },
    close: stop,
  };
}

/**
 * Reads what a PostgreSQL server sends, chunk by chunk, and tells after each whether the server's last
 * message so far is ReadyForQuery ('Z', a length of 5, the transaction status), the end of every answer.
 * It keeps the last six bytes, since a chunk may end partway through that message.
 */
export function readyForQueryWatcher(): (chunk: Buffer) => boolean {
  const size = 6;
  let tail = Buffer.alloc(0);
  return (chunk) => {
    tail = Buffer.concat([tail, chunk.subarray(-size)]).subarray(-size);
    return tail.length === size && tail[0] === 0x5a && tail.readInt32BE(1) === 5;
  };
}

/** A TCP peer sees a reset, as from a server that died; a Unix socket has no reset, only a close. */
function reset(socket: Socket): void {
  if (socket.remoteFamily) socket.resetAndDestroy();
  else socket.destroy();
}

/**
 * A proxy in front of the PostgreSQL server a connection URL names, and `via(url)`: a URL of that server
 * (any role) rewritten to go through the proxy. The embedded PostgreSQL is reached on its Unix socket
 * (`?host=<dir>`), an external one over TCP.
 */
export async function startDatabaseProxy(databaseUrl: string): Promise<{ proxy: TcpProxy; via(url: string): string }> {
  const direct = new URL(databaseUrl);
  const socketDir = direct.searchParams.get('host');
  const proxy = await startTcpProxy(
    socketDir ? { path: `${socketDir}/.s.PGSQL.${direct.port}` } : { host: direct.hostname, port: Number(direct.port) },
  );
  const via = (raw: string) => {
    const url = new URL(raw);
    url.searchParams.delete('host');
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    return url.toString();
  };
  return { proxy, via };
}
