import { createServer } from 'node:http';
import { MSG } from '@ohgood/contract/messages';
import type { ReadinessResponse } from '@ohgood/contract/system';
import { errorBodyOf } from './errors';
import { RETRY_AFTER_SECONDS } from './unavailable';

export interface HoldingServer {
  close(): Promise<void>;
}

/**
 * What the instance answers while start-up waits for its database: liveness 200 (the process is fine, a
 * supervisor must not restart it), readiness 503 (no traffic yet) and 503 with `Retry-After` and the
 * contract's error body for everything else. Closed just before the app itself listens on the same port.
 */
export function startHoldingServer(host: string, port: number, database: string): Promise<HoldingServer> {
  const notReady: ReadinessResponse = {
    status: 'not-ready',
    draining: false,
    // Nothing is checked before the database is there: the instance cannot serve either way.
    checks: { database: 'error', storage: 'error', dataDir: 'error' },
  };
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const [status, body] =
      path === '/health'
        ? [200, { status: 'ok', database }]
        : path === '/health/ready'
          ? [503, notReady]
          : [503, errorBodyOf('SERVICE_UNAVAILABLE', MSG.serviceUnavailable)];
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (status === 503) headers['retry-after'] = String(RETRY_AFTER_SECONDS);
    // Each answer closes its connection, so no keep-alive socket is left open when the app takes the port.
    headers.connection = 'close';
    response.writeHead(status, headers).end(JSON.stringify(body));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.on('error', () => undefined);
      resolve({
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
