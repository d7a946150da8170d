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
  close(): Promise<void>;
}

/** Where the proxy connects: a TCP address, or a Unix socket (the embedded PostgreSQL listens on one). */
export type ProxyTarget = { host: string; port: number } | { path: string };

export async function startTcpProxy(target: ProxyTarget): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
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
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
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
    for (const socket of sockets) {
      // A TCP peer sees a reset, as from a server that died; a Unix socket has no reset, only a close.
      if (socket.remoteFamily) socket.resetAndDestroy();
      else socket.destroy();
    }
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    cut: stop,
    restore: listen,
    close: stop,
  };
}
