// Talking to the server's JSON API: one fetch helper whose errors carry the server's code.
// A request refused "not-owner" or "table-moved" (in a cluster, the table's worker died or
// handed it on, and nothing was written) is tried again a few times while another worker
// takes the table over, which takes a few seconds.

/** The codes of refusals that wrote nothing and pass once a table has its new owner. */
export const TRY_AGAIN = new Set(["not-owner", "table-moved"]);

/** The waits, in ms, before each new try of such a request. */
export const NOT_OWNER_WAITS = [250, 500, 1000, 1500, 2000];

const sleep = (ms) => new Promise((done) => { setTimeout(done, ms); });

/** GET ``path``, or POST ``body`` to it (an object is sent as JSON, a string as it is);
 * the reply's JSON. A failure throws an Error with the server's ``code`` and message. */
export async function api(path, body) {
  for (const wait of NOT_OWNER_WAITS) {
    try {
      return await once(path, body);
    } catch (err) {
      if (!TRY_AGAIN.has(err.code)) throw err;
      await sleep(wait);
    }
  }
  return once(path, body);
}

async function once(path, body) {
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
