// Installing the app: registers the service worker (/sw.js, served by server/web/pwa.py),
// which keeps the app shell for offline use; the manifest is linked from index.html.
// Registering may fail (no service workers in this browser, a page outside a secure
// context, storage refused): the page works the same without it, so failures are ignored.

/** Register /sw.js for the whole site; resolves to the registration, or null when there
 * is none. ``container`` defaults to ``navigator.serviceWorker`` (read inside the try:
 * some browsers throw on reading it when storage is blocked). */
export async function registerWorker(container) {
  try {
    const workers = container ?? navigator.serviceWorker;
    if (!workers) return null;
    // updateViaCache "none": the browser asks the server for /sw.js at every check, so a
    // new version of the client (a new worker with a new cache) is found at the next visit
    return await workers.register("/sw.js", { scope: "/", updateViaCache: "none" });
  } catch {
    return null;
  }
}

registerWorker();
