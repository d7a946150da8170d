import { notificationEndpoints as api } from '@ohgood/contract/notifications';
import { callEndpoint } from './api-client';
import { confirmSheet } from './confirm';
import { notify } from './notify';

const ASKED_KEY = 'ohgood.push-asked';
/** How long the service worker may take to be ready before turning push on counts as failed. */
const READY_MS = 10_000;

/** The VAPID key as the bytes PushManager wants. */
function keyBytes(base64url: string): Uint8Array {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  );
}

/**
 * How turning push on ended: `on`; `denied` (the browser blocks this site's notifications: only the
 * browser's settings can change that); `dismissed` (the prompt was closed without an answer); `failed` (the
 * permission was given but the browser's push service or our server refused the subscription: worth a retry);
 * `unsupported` (no Web Push in this browser).
 */
export type PushOutcome = 'on' | 'denied' | 'dismissed' | 'failed' | 'unsupported';

/** What each outcome but `on` tells the customer (a toast, and the settings page's line). */
export const PUSH_OUTCOME_TEXT: Record<Exclude<PushOutcome, 'on'>, string> = {
  denied: '브라우저에서 알림을 허용해야 받을 수 있어요.',
  dismissed: '알림 권한을 선택하지 않았어요. 다시 눌러 허용해 주세요.',
  failed: '알림을 켜지 못했어요. 잠시 후 다시 시도해 주세요.',
  unsupported: '이 브라우저에서는 푸시 알림을 받을 수 없어요.',
};

/**
 * Subscribes this device to Web Push (docs/rules/notifications.md#N6): asks the browser's permission, then
 * hands the subscription to the server. Never throws: the outcome says why push is not on.
 */
export async function enablePush(): Promise<PushOutcome> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission().catch(() => Notification.permission);
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'dismissed';
  try {
    // Without a service worker (its registration failed) `ready` never settles: that too is a failure.
    const registration = await Promise.race([
      navigator.serviceWorker.ready,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no service worker')), READY_MS)),
    ]);
    const { data } = await callEndpoint(api.pushKey);
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(data.publicKey) as BufferSource,
      }));
    const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
    const answer = await callEndpoint(api.subscribe, { body: { endpoint: json.endpoint, keys: json.keys } });
    // At the device cap the server replaced the device subscribed longest ago, and its words say so.
    if (answer.data.replaced) notify(answer.message);
    return 'on';
  } catch {
    return 'failed';
  }
}

/**
 * After the customer's first payment, once per browser: offers payment and bill alerts in the app's own sheet
 * first, so the browser's prompt only comes when they said yes (never on page load).
 */
export async function offerPushAfterPayment(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'default' || localStorage.getItem(ASKED_KEY)) return;
  localStorage.setItem(ASKED_KEY, '1');
  const ask = (title: string, message: string, confirmLabel: string) =>
    confirmSheet({ title, message, confirmLabel, cancelLabel: '나중에' });
  const yes = await ask(
    '결제·납부 알림을 받을까요?',
    '결제 완료, 납부일, 자동 납부 결과를 앱을 닫아도 알려 드려요.',
    '알림 받기',
  );
  if (!yes) return;
  // A failed subscription is offered again here; a refusal is said once (only the browser can undo it).
  for (;;) {
    const outcome = await enablePush();
    if (outcome === 'on') return notify('이 기기에서 알림을 받아요.');
    if (outcome !== 'failed') return notify(PUSH_OUTCOME_TEXT[outcome]);
    if (!(await ask('알림을 켜지 못했어요', '잠시 후 다시 시도하거나, 알림 설정에서 다시 켤 수 있어요.', '다시 시도')))
      return;
  }
}
