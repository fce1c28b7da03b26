// The service worker: keeps the app shell, the fonts and the icons for offline use.
// Play always needs the network: pages and static files are fetched from the network
// first, /api and /ws never go through the cache, and a page that cannot be loaded
// offline is answered with offline.html, which says so.
//
// The cache is named after the static files: the server (api.py) replaces "dev" below
// with a hash of them, vendor files included. So a release that changes any of them (a
// new OpenPGP.js, whose chunks have unversioned names, or new fonts) is a new worker
// with a cache of its own, filled afresh, and the old cache is deleted whole: nobody
// keeps an old library, or a mix of two.

const ASSETS = "dev";
const CACHE = `tysiac-${ASSETS}`;
// Every module the pages import, and their imports (tests/web/test_service_worker.py).
// Not the sounds (/static/sounds/): they are fetched only once a player turns sounds on
// (sound.js), and cached then like any other static file (networkFirst).
const SHELL = [
  "/offline.html",
  "/manifest.webmanifest",
  "/static/css/app.css",
  "/static/css/review.css",
  "/static/js/a11y.js",
  "/static/js/api.js",
  "/static/js/boot.js",
  "/static/js/cards.js",
  "/static/js/contact.js",
  "/static/js/dom.js",
  "/static/js/home.js",
  "/static/js/input.js",
  "/static/js/lang.js",
  "/static/js/main.js",
  "/static/js/options.js",
  "/static/js/page.js",
  "/static/js/pwa.js",
  "/static/js/render.js",
  "/static/js/review/board.js",
  "/static/js/review/main.js",
  "/static/js/review/model.js",
  "/static/js/settings.js",
  "/static/js/site.js",
  "/static/js/socket.js",
  "/static/js/sound.js",
  "/static/js/state.js",
  "/static/js/store.js",
  "/static/js/table/chat.js",
  "/static/js/table/clock.js",
  "/static/js/table/controls.js",
  "/static/js/table/drawer.js",
  "/static/js/table/end.js",
  "/static/js/table/hand.js",
  "/static/js/table/head.js",
  "/static/js/table/lobby.js",
  "/static/js/table/log.js",
  "/static/js/table/parts.js",
  "/static/js/table/scores.js",
  "/static/js/table/seats.js",
  "/static/js/table/summary.js",
  "/static/js/table/surrender.js",
  "/static/js/table/trick.js",
  "/static/js/words.js",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  "/static/icons/icon-maskable-512.png",
];
const FONTS = ["latin", "latin-ext"].flatMap((subset) =>
  [400, 700].map(
    (weight) =>
      `/static/vendor/atkinson/atkinson-hyperlegible-next-${subset}-${weight}-normal.woff2`,
  ),
);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Past the browser's HTTP cache, which may still hold the files of the last release.
      const fresh = (path) => new Request(path, { cache: "no-cache" });
      await cache.addAll(SHELL.map(fresh));
      // The fonts are installed separately (make assets): a missing one is no failure.
      await Promise.all(FONTS.map((font) => cache.add(fresh(font)).catch(() => {})));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

const neverCached = (path) =>
  path.startsWith("/api/") || path.startsWith("/ws/") || path === "/health";
const cacheFirst = (path) =>
  path.startsWith("/static/vendor/") || path.startsWith("/static/icons/");

// Only this worker's own cache: never a file of another release.
const cached = async (request) => (await caches.open(CACHE)).match(request);

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (error) {
    const hit = await cached(request);
    if (hit) return hit;
    throw error;
  }
}

async function fromCache(request) {
  const hit = await cached(request);
  if (hit) return hit;
  const response = await fetch(new Request(request, { cache: "no-cache" }));
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
    // The last resort, offline with offline.html not cached: no /api/site to ask for
    // the words, so this one sentence stays here (tests/web/test_words.py ALLOWED).
    return (
      (await cached("/offline.html")) ||
      new Response("Brak połączenia z internetem. Do gry potrzebny jest internet.", {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      })
    );
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || neverCached(url.pathname))
    return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (cacheFirst(url.pathname)) event.respondWith(fromCache(request));
  else if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest")
    event.respondWith(networkFirst(request));
});
