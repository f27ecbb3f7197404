// Talking to the server's JSON API: one fetch helper whose errors carry the server's code.

/** GET ``path``, or POST ``body`` to it (an object is sent as JSON, a string as it is);
 * the reply's JSON. A failure throws an Error with the server's ``code`` and message. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
  let res;
  try {
    res = await fetch(path, init);
  } catch (cause) {
    throw Object.assign(new Error(String(cause)), { code: "network" });
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    // every error of the server is {"error": {"code", "message"}}; anything else came
    // from between (a proxy, say)
    const known = data && data.error && typeof data.error.message === "string";
    const err = new Error(known ? data.error.message : `HTTP ${res.status} ${res.statusText}`.trim());
    err.code = known ? data.error.code : "http";
    err.retryAfter = Number(res.headers.get("retry-after")) || null;
    throw err;
  }
  return data;
}
