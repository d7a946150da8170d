import { createServer } from 'node:net';

/**
 * A port on 127.0.0.1 that nothing listens on right now (two benches at once no longer collide). The server's
 * own is `apps/server/src/lib/free-port.ts`; the scripts run on plain Node and cannot import TypeScript.
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
