/*
 * Web Push in the service worker (docs/rules/notifications.md#N6), imported by the generated worker: shows
 * each notice the server pushes while the app is closed, and a tap opens the notice's page in the app.
 */
self.addEventListener('push', (event) => {
  let notice = { title: '오굿페이', body: '', link: '/notifications' };
  try {
    notice = { ...notice, ...event.data.json() };
  } catch {
    // A push without a readable payload still shows the app's name.
  }
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      tag: notice.id ? `notice-${notice.id}` : undefined,
      lang: 'ko',
      data: { link: notice.link },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const link = new URL(event.notification.data?.link ?? '/notifications', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url.startsWith(self.location.origin));
      if (open) return open.navigate(link).then((client) => client?.focus());
      return self.clients.openWindow(link);
    }),
  );
});
