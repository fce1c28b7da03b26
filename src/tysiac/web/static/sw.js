// The service worker: keeps the app shell, the fonts and the icons for offline use.
// Play always needs the network: pages and static files are fetched from the network
// first, /api and /ws never go through the cache, and a page that cannot be loaded
// offline is answered with offline.html, which says so.

const CACHE = "tysiac-v1";
const SHELL = [
  "/offline.html",
  "/manifest.webmanifest",
  "/static/css/app.css",
  "/static/js/a11y.js",
  "/static/js/api.js",
  "/static/js/boot.js",
  "/static/js/cards.js",
  "/static/js/dom.js",
  "/static/js/home.js",
  "/static/js/input.js",
  "/static/js/main.js",
  "/static/js/page.js",
  "/static/js/pwa.js",
  "/static/js/render.js",
  "/static/js/settings.js",
  "/static/js/socket.js",
  "/static/js/state.js",
  "/static/js/store.js",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  "/static/icons/icon-maskable-512.png",
];
const FONTS = ["latin", "latin-ext"].flatMap((subset) => [400, 700].map((weight) =>
  `/static/vendor/atkinson/atkinson-hyperlegible-next-${subset}-${weight}-normal.woff2`));

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL);
    // The fonts are installed separately (make assets): a missing one is no failure.
    await Promise.all(FONTS.map((font) => cache.add(font).catch(() => {})));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

const neverCached = (path) => path.startsWith("/api/") || path.startsWith("/ws/") || path === "/health";
const cacheFirst = (path) => path.startsWith("/static/vendor/") || path.startsWith("/static/icons/");

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request);
    if (cached) return cached;
    throw error;
  }
}

async function fromCache(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

async function page(request) {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match("/offline.html")) || new Response("Brak połączenia z internetem. Do gry potrzebny jest internet.", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || neverCached(url.pathname)) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (cacheFirst(url.pathname)) event.respondWith(fromCache(request));
  else if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") event.respondWith(networkFirst(request));
});
