import { notificationEndpoints as api, NOTICE_STREAM_PATH, NOTIFICATION_RULES } from '@ohgood/contract/notifications';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { sseStreams } from '../../http/sse';
import { ok } from '../../lib/envelope';
import type { LiveNotices } from './live';
import type { NotificationService } from './service';

/** `Last-Event-ID` as a notice id, or undefined when absent or not one. */
function lastEventId(header: string | string[] | undefined): number | undefined {
  const value = Number(Array.isArray(header) ? header[0] : header);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

export function notificationRoutes(
  service: NotificationService,
  live: LiveNotices,
  vapidPublicKey: string,
  /** Live notice streams per customer on this instance (`NOTICE_STREAMS_PER_CUSTOMER`). */
  streamsPerCustomer: number,
): FastifyPluginAsync {
  return async (app) => {
    const openStream = sseStreams(app, { ceiling: streamsPerCustomer });

    registerEndpoint(app, api.list, async (request) =>
      ok(await service.list(requireCustomer(request), request.query.before)),
    );
    registerEndpoint(app, api.unread, async (request) =>
      ok({ unread: await service.unread(requireCustomer(request)) }),
    );
    registerEndpoint(app, api.read, async (request) =>
      ok({ unread: await service.markRead(requireCustomer(request), request.params.id) }),
    );
    registerEndpoint(app, api.readAll, async (request) =>
      ok({ unread: await service.markAllRead(requireCustomer(request)) }, '모두 읽음으로 표시했어요.'),
    );
    registerEndpoint(app, api.getPreferences, async (request) =>
      ok(await service.preferences(requireCustomer(request))),
    );
    registerEndpoint(app, api.setPreferences, async (request) =>
      ok(await service.savePreferences(requireCustomer(request), request.body), '알림 설정을 저장했어요.'),
    );
    registerEndpoint(app, api.pushKey, async () => ok({ publicKey: vapidPublicKey }));
    registerEndpoint(app, api.subscribe, async (request) => {
      const replaced = await service.subscribe(requireCustomer(request), request.body);
      return ok(
        { subscribed: true as const, replaced },
        replaced > 0
          ? `이 기기에서 알림을 받아요. 알림은 기기 ${NOTIFICATION_RULES.pushDevicesMax}대까지 받을 수 있어 가장 오래된 기기의 알림을 껐어요.`
          : '이 기기에서 알림을 받아요.',
      );
    });
    registerEndpoint(app, api.unsubscribe, async (request) => {
      await service.unsubscribe(requireCustomer(request), request.body.endpoint);
      return ok({ subscribed: false as const }, '이 기기의 알림을 껐어요.');
    });

    /*
     * The customer's live notices (Server-Sent Events, outside the JSON contract): `event: ready` with the
     * unread count, then `event: notice` per new notice with its id, so a reconnect sends `Last-Event-ID` and
     * gets what it missed. Identity comes from the bearer token like every customer call.
     */
    app.get(
      NOTICE_STREAM_PATH,
      {
        config: { access: 'customer' },
        schema: { tags: ['notifications'], security: [{ bearer: [] }], summary: '알림 스트림 (SSE)' },
      },
      async (request, reply) => {
        const customerId = requireCustomer(request);
        // Notices that arrive before the stream is open wait here, in order.
        const pending: Array<[unknown, number]> = [];
        let stream: ReturnType<typeof openStream> | undefined;
        const resumeFrom = lastEventId(request.headers['last-event-id']);
        const watched = await live.watch(customerId, resumeFrom, (notice, unread) => {
          if (stream) stream.send('notice', { notice, unread }, notice.id);
          else pending.push([{ notice, unread }, notice.id]);
        });
        stream = openStream(request, reply, { onClose: watched.stop, owner: String(customerId) });
        stream.send('ready', { unread: watched.unread });
        for (const [data, id] of pending) stream.send('notice', data, id);
      },
    );
  };
}
