/*
 * The service worker of Dashain's web app (served at /sw.js by tables/pages/views_push.py,
 * so its scope is the whole site). It does two things: show a push (a turn reminder, a
 * request to the host: tables/push.py writes {title, body, url, tag}) as a notification,
 * and open or focus the table when the notification is tapped. It caches nothing and
 * answers no fetch: every page comes from the server, as without it.
 */
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/tables/";
  event.waitUntil(self.registration.showNotification(data.title || "Dashain", {
    body: data.body || "",
    tag: data.tag || "dashain",
    renotify: true,
    icon: "/static/img/favicon.svg",
    data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/tables/", self.location.origin);
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (new URL(client.url).pathname === url.pathname && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url.href);
  })());
});
