// The action this page sent and has not heard answered, kept so that it is sent again,
// under the same command id, on the socket that replaces one that went away (a worker
// died, the network dropped). The server remembers each seat's command ids with the
// action log: a resend of a move it applied is answered as a duplicate, never applied
// twice; a move it never got is applied once.
let unanswered = null; // { table, text }: the act message as it was sent

/** Keep the act message ``msg`` sent at table ``table`` until it is answered. */
export function sent(table, msg) {
  unanswered = { table, id: msg.id, text: JSON.stringify(msg) };
  return unanswered.text;
}

/** A message from the server: an ack or an error naming the kept id answers it. */
export function heard(msg) {
  if (unanswered && (msg.type === "ack" || msg.type === "error") && msg.id === unanswered.id) {
    unanswered = null;
  }
}

/** On a new socket to table ``table`` (after its hello): send the unanswered action again;
 * whether there was one. */
export function resend(ws, table) {
  if (!unanswered || unanswered.table !== table) return false;
  ws.send(unanswered.text);
  return true;
}
