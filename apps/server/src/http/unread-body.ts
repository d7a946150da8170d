import type { FastifyInstance } from 'fastify';

/**
 * A response sent before its request body was read to the end (an upload refused or failed mid-stream, e.g.
 * on a full disk) closes its connection. The unread rest stays paused in the socket otherwise: the client
 * keeps the kept-alive connection busy sending, it never becomes idle, and a graceful shutdown waits for it
 * until its timeout.
 */
export function registerUnreadBodyClose(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (request.raw.complete === false) reply.header('connection', 'close');
  });
}
