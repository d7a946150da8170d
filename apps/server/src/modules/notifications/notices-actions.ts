import type { NotificationPreferences, PushSubscriptionBody } from '@ohgood/contract/notifications';
import type { Db } from '../../db/client';
import { lockCustomer } from '../../db/locks';
import { withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { badRequest, notFound } from '../../lib/errors';
import { deleteDevice, markAllNoticesRead, markNoticeRead, saveDevice, unreadCount } from './notices-repository';
import { fromApi, readPreferences, savePreferences, toApi } from './preferences';
import { arePushKeysValid, isAllowedPushEndpoint, type PushEndpointRules } from './push-endpoints';

/** What a customer does in their notification center: read notices, set preferences, add or remove devices. */
export function createNoticeActions(db: Db, clock: Pick<Clock, 'now'>, push: PushEndpointRules) {
  return {
    /** Resolves with the customer's unread count after it. */
    async markRead(customerId: number, id: number): Promise<number> {
      // Someone else's notice looks exactly like a missing one.
      if (!(await markNoticeRead(db, customerId, id, clock.now())))
        throw notFound('NOTICE_NOT_FOUND', '알림을 찾을 수 없습니다.');
      return unreadCount(db, customerId);
    },
    async markAllRead(customerId: number): Promise<number> {
      await markAllNoticesRead(db, customerId, clock.now());
      return 0;
    },
    async savePreferences(customerId: number, prefs: NotificationPreferences): Promise<NotificationPreferences> {
      await savePreferences(db, customerId, fromApi(prefs));
      return toApi(await readPreferences(db, customerId));
    },
    /** Resolves with how many older devices it replaced to keep `NOTIFICATION_RULES.pushDevicesMax`. */
    async subscribe(customerId: number, subscription: PushSubscriptionBody): Promise<number> {
      if (!isAllowedPushEndpoint(subscription.endpoint, push)) {
        throw badRequest('PUSH_ENDPOINT_NOT_ALLOWED', '이 브라우저의 푸시 주소는 사용할 수 없습니다.');
      }
      if (!arePushKeysValid(subscription.keys)) {
        throw badRequest('PUSH_KEYS_INVALID', '이 브라우저의 푸시 키가 올바르지 않습니다. 알림을 다시 켜 주세요.');
      }
      const at = clock.now();
      return withTx(db, async (tx) => {
        // The customer's lock makes two devices subscribing at once count each other.
        await lockCustomer(tx, customerId);
        return saveDevice(tx, customerId, subscription, at);
      });
    },
    unsubscribe: (customerId: number, endpoint: string) => deleteDevice(db, customerId, endpoint),
  };
}
