// The action this page sent and has not heard answered, kept so that it is sent again,
// under the same command id, on the socket that replaces one that went away (a worker
// died, the network dropped) or after the page is loaded again (reloaded, or the browser
// restored the tab): it is kept in the tab's sessionStorage too. The server remembers each
// seat's command ids with the action log: a resend of a move it applied is answered as a
// duplicate, never applied twice; a move it never got is applied once. While a move is
// unanswered the page sends no other (``holdLeft``), also when a state arrives first (the
// answer to the new socket's hello comes before the answer to the move sent after it).
const KEY = "paston.unanswered";
// After this long without an answer a move no longer holds the page (an answer that
// never comes, e.g. refused before it was read): the server's command ids still make a
// second move safe (refused "stale" when the first was applied).
const HOLD_MS = 15000;
let unanswered = null; // { table, token, id, text }: the act message as it was sent
let sentAt = null; // when it was last sent on a socket of this page (performance.now(), monotonic)

function store(value) {
  try {
    if (value) sessionStorage.setItem(KEY, JSON.stringify(value));
    else sessionStorage.removeItem(KEY);
  } catch { /* no storage (a private mode): kept in this page only */ }
}

function kept() {
  if (unanswered) return unanswered;
  try {
    const found = JSON.parse(sessionStorage.getItem(KEY) || "null");
    if (found && typeof found.text === "string" && typeof found.table === "string") unanswered = found;
  } catch { /* unreadable: nothing kept */ }
  return unanswered;
}

/** Keep the act message ``msg`` sent at table ``table`` from the seat of ``token`` until
 * it is answered; returns the text to send. */
export function sent(table, token, msg) {
  unanswered = { table, token, id: msg.id, text: JSON.stringify(msg) };
  sentAt = performance.now();
  store(unanswered);
  return unanswered.text;
}

/** A message from the server: an ack or an error naming the kept id answers it;
 * whether it did (a late answer to a move sent before the kept one does not). */
export function heard(msg) {
  const waiting = kept();
  if (waiting && (msg.type === "ack" || msg.type === "error") && msg.id === waiting.id) {
    unanswered = null;
    store(null);
    return true;
  }
  return false;
}

/** On a new socket to table ``table`` (after its hello with the seat's ``token``): send
 * the unanswered action again; whether there was one. An action kept for another table
 * or seat is left for that one. */
export function resend(ws, table, token) {
  const waiting = kept();
  if (!waiting || waiting.table !== table || waiting.token !== token) return false;
  ws.send(waiting.text);
  sentAt = performance.now();
  return true;
}

/** How many more milliseconds a move this page sent at table ``table`` from the seat of
 * ``token`` holds the page while it waits for its answer (0: none waits): no other move
 * may be sent meanwhile. */
export function holdLeft(table, token) {
  const waiting = kept();
  if (!waiting || waiting.table !== table || waiting.token !== token || sentAt === null) return 0;
  return Math.max(0, HOLD_MS - (performance.now() - sentAt));
}
