// The action this page sent and has not heard answered, kept so that it is sent again,
// under the same command id, on the socket that replaces one that went away (a worker
// died, the network dropped) or after the page is loaded again (reloaded, or the browser
// restored the tab): it is kept in the tab's sessionStorage too. The server remembers each
// seat's command ids with the action log: a resend of a move it applied is answered as a
// duplicate, never applied twice; a move it never got is applied once.
const KEY = "paston.unanswered";
let unanswered = null; // { table, token, id, text }: the act message as it was sent

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
  store(unanswered);
  return unanswered.text;
}

/** A message from the server: an ack or an error naming the kept id answers it. */
export function heard(msg) {
  const waiting = kept();
  if (waiting && (msg.type === "ack" || msg.type === "error") && msg.id === waiting.id) {
    unanswered = null;
    store(null);
  }
}

/** On a new socket to table ``table`` (after its hello with the seat's ``token``): send
 * the unanswered action again; whether there was one. An action kept for another table
 * or seat is left for that one. */
export function resend(ws, table, token) {
  const waiting = kept();
  if (!waiting || waiting.table !== table || waiting.token !== token) return false;
  ws.send(waiting.text);
  return true;
}
