import { notificationEndpoints as api } from '@ohgood/contract/notifications';
import { callEndpoint } from './api-client';
import { confirmSheet } from './confirm';

const ASKED_KEY = 'ohgood.push-asked';

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
 * Subscribes this device to Web Push (docs/rules/notifications.md#N6): asks the browser's permission, then
 * hands the subscription to the server. Resolves false when the browser or the customer says no.
 */
export async function enablePush(): Promise<boolean> {
  if (!pushSupported()) return false;
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return false;
  const registration = await navigator.serviceWorker.ready;
  const { data } = await callEndpoint(api.pushKey);
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(data.publicKey) as BufferSource,
    }));
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await callEndpoint(api.subscribe, { body: { endpoint: json.endpoint, keys: json.keys } });
  return true;
}

/**
 * After the customer's first payment, once per browser: offers payment and bill alerts in the app's own sheet
 * first, so the browser's prompt only comes when they said yes (never on page load).
 */
export async function offerPushAfterPayment(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'default' || localStorage.getItem(ASKED_KEY)) return;
  localStorage.setItem(ASKED_KEY, '1');
  const yes = await confirmSheet({
    title: '결제·납부 알림을 받을까요?',
    message: '결제 완료, 납부일, 자동 납부 결과를 앱을 닫아도 알려 드려요.',
    confirmLabel: '알림 받기',
    cancelLabel: '나중에',
  });
  if (yes) await enablePush().catch(() => false);
}
