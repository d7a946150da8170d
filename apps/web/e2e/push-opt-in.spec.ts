import { createECDH, randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { test } from './fixtures';
import { apiCustomer, confirmReceipt, enterPin, merchantRequest, openAsCustomer, recordAlerts } from './helpers';

/** What the browser answers in this test: the permission prompt, and how many subscriptions its push service refuses. */
interface Browser {
  answer: NotificationPermission;
  refusals: number;
}

/** The keys a browser's subscription carries: a P-256 point and 16 random bytes, as the server checks them. */
const KEYS = {
  p256dh: createECDH('prime256v1').generateKeys('base64url'),
  auth: randomBytes(16).toString('base64url'),
};

/**
 * Stands in for the browser's side of Web Push, which a headless browser has no push service for: the
 * permission prompt answers `answer`, and the push service refuses the first `refusals` subscriptions (as
 * Chromium does with 'Registration failed - push service error'). Our server is the real one.
 */
async function browserPush(page: Page, browser: Browser): Promise<void> {
  await page.addInitScript(
    (init: Browser & { keys: typeof KEYS }) => {
      // The answer is kept for the site, as a browser keeps it, across reloads.
      const kept = () => (sessionStorage.getItem('e2e-permission') ?? 'default') as NotificationPermission;
      let refusals = init.refusals;
      Object.defineProperty(Notification, 'permission', { configurable: true, get: kept });
      Notification.requestPermission = async () => {
        sessionStorage.setItem('e2e-permission', init.answer);
        return init.answer;
      };
      const endpoint = `https://fcm.googleapis.com/fcm/send/e2e-${Date.now()}`;
      const subscription = {
        endpoint,
        toJSON: () => ({ endpoint, keys: init.keys }),
      };
      const registration = {
        pushManager: {
          getSubscription: async () => null,
          subscribe: async () => {
            if (refusals > 0) {
              refusals -= 1;
              throw new DOMException('Registration failed - push service error', 'AbortError');
            }
            return subscription;
          },
        },
      };
      Object.defineProperty(navigator.serviceWorker, 'ready', {
        configurable: true,
        get: () => Promise.resolve(registration),
      });
    },
    { ...browser, keys: KEYS },
  );
}

/** Notification settings as a new customer in such a browser, after a tap on '이 기기에서 푸시 받기'. */
async function turnOnInSettings(page: Page, request: APIRequestContext, browser: Browser): Promise<void> {
  await browserPush(page, browser);
  await openAsCustomer(page, await apiCustomer(request));
  await page.goto('/notifications/settings');
  await page.getByRole('button', { name: '이 기기에서 푸시 받기' }).click();
}

const DENIED = '브라우저에서 알림을 허용해야 받을 수 있어요.';
const FAILED = '알림을 켜지 못했어요. 잠시 후 다시 시도해 주세요.';

test('push opt-in: a blocked permission points at the browser, and only a blocked one', async ({ page, request }) => {
  const alerts = recordAlerts(page);
  await turnOnInSettings(page, request, { answer: 'denied', refusals: 0 });
  await expect.poll(() => alerts).toContain(DENIED);
  // The line stays under the button after the toast is gone, and on the next visit.
  await expect(page.getByTestId('push-hint')).toHaveText(DENIED);
  await expect(page.getByText(FAILED)).toHaveCount(0);
  await expect(page.getByRole('button', { name: '다시 시도' })).toHaveCount(0);
  await page.screenshot({ path: 'e2e/.tmp/push-denied.png' });
  await page.reload();
  await expect(page.getByTestId('push-hint')).toHaveText(DENIED);
});

test('push opt-in: a failed subscription says so and offers a retry that turns push on', async ({ page, request }) => {
  const alerts = recordAlerts(page);
  await turnOnInSettings(page, request, { answer: 'granted', refusals: 1 });
  const failure = page.getByRole('alert').filter({ hasText: FAILED });
  await expect(failure).toBeVisible();
  await expect(page.getByTestId('push-hint')).toHaveCount(0);
  expect(alerts).not.toContain(DENIED);
  await page.screenshot({ path: 'e2e/.tmp/push-failed.png' });

  const retry = failure.getByRole('button', { name: '다시 시도' });
  const box = await retry.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(44);
  // The retry hands the subscription to our server, which keeps it.
  const subscribed = page.waitForResponse((res) => res.url().endsWith('/api/notifications/push/subscriptions'));
  await retry.click();
  expect((await subscribed).ok()).toBe(true);
  await expect.poll(() => alerts).toContain('이 기기에서 알림을 받아요.');
  await expect(failure).toHaveCount(0);
  await expect(page.getByRole('button', { name: '이 기기에서 알림을 받고 있어요' })).toBeDisabled();
});

test('push after the first payment: a failed subscription is offered again, then push is on', async ({
  page,
  request,
}) => {
  const alerts = recordAlerts(page);
  await browserPush(page, { answer: 'granted', refusals: 1 });
  await openAsCustomer(page, await apiCustomer(request));
  const shop = await merchantRequest(request, '아이스 라떼', 5_500);
  await enterPin(page, shop.pinCode);
  await page.getByRole('dialog', { name: '결제하기' }).getByRole('button', { name: '5,500원 결제하기' }).click();
  await confirmReceipt(page);

  await page
    .getByRole('dialog', { name: '결제·납부 알림을 받을까요?' })
    .getByRole('button', { name: '알림 받기' })
    .click();
  const again = page.getByRole('dialog', { name: '알림을 켜지 못했어요' });
  await expect(again).toBeVisible();
  expect(alerts).not.toContain(DENIED);
  await again.getByRole('button', { name: '다시 시도' }).click();
  await expect.poll(() => alerts).toContain('이 기기에서 알림을 받아요.');
  await expect(again).toBeHidden();
});
