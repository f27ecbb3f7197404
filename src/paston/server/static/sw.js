// Paston's service worker: the app shell offline. Served at /sw.js (scope "/") by
// server/web/pwa.py, which fills in BUILD: the client files' version (a digest of
// static/, as in /static/<version>/) and the shell's addresses. Not a module, no imports.
//
// - install: every shell address is fetched (past the HTTP cache) into the cache
//   "paston-shell-<version>"; the new worker takes over at once (skipWaiting).
// - activate: every other "paston-shell-*" cache is deleted; open pages are claimed.
// - fetch: pages (navigations) network first, the cache when the network fails, and
//   offline.html for a page that was never cached; /static/<version>/… (immutable)
//   cache first. Anything else (plain /static/…, other versions, the API, the sockets,
//   the health checks, the metrics) is never touched: the browser fetches it as if
//   there were no worker.
const BUILD = /*BUILD*/ { version: "unversioned", shell: [] } /*END*/;
const PREFIX = "paston-shell-";
const CACHE = PREFIX + BUILD.version;
const OFFLINE = "/offline.html";
const BYPASS = /^\/(?:api|ws)(?:\/|$)|^\/(?:healthz|readyz|metrics|sw\.js)$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(BUILD.shell.map((path) => new Request(path, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || BYPASS.test(url.pathname)) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith(`/static/${BUILD.version}/`)) {
    event.respondWith(cacheFirst(request));
  }
});

/** A page: the network's answer, else the cached copy (the shell pages: each is the same
 * for a version, so the copy cached at install never goes stale), else the offline page. */
async function page(request) {
  try {
    return await fetch(request);
  } catch (err) {
    const cache = await caches.open(CACHE);
    const cached = (await cache.match(request, { ignoreSearch: true })) || (await cache.match(OFFLINE));
    if (cached) return cached;
    throw err;
  }
}

/** A file of this version: never changes, so the cached copy when there is one. */
async function cacheFirst(request) {
  const cached = await (await caches.open(CACHE)).match(request);
  return cached || fetch(request);
}
