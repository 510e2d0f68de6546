// Web Push in the app's service worker (imported by the one Workbox makes, web/vite.config.ts). The service sends
// { title, body, data: { kind, householdId, planId?, count? }, tag? } (adapters/push/webpush.ts, docs/push.md).
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : '' };
  }
  const data = message.data && typeof message.data === 'object' ? message.data : {};
  event.waitUntil(
    self.registration.showNotification(message.title || 'Middag', {
      body: message.body || '',
      data,
      icon: '/icons/icon-192.png',
      // A newer count of ticks replaces the one not yet seen.
      ...(message.tag ? { tag: message.tag, renotify: true } : {}),
    }),
  );
});

// A tap opens the list the push is about (or the app), in a window of the app that is open already if there is one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  const path = typeof data.planId === 'string' && /^[0-9a-f-]{36}$/i.test(data.planId) ? `/list/${data.planId}` : '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if ('focus' in w) return w.navigate(path).then((c) => (c || w).focus());
      }
      return self.clients.openWindow(path);
    }),
  );
});
