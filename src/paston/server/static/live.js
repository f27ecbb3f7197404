// A live table: the WebSocket to the server, the state it keeps (full states and the
// updates merged into them), and what a seated person does (act, take a seat, rematch).
import { api } from "./api.js";
import { rerender, say, saying, showError } from "./chrome.js";
import { logState } from "./livelog.js";
import { heard, holdLeft, resend, sent } from "./resend.js";
import { keepSeed, keptSeed } from "./seedstore.js";

const NAME_KEY = "paston-name";

/** The table this page shows, as last heard, and what the person has chosen on it. */
export const live = {
  tableId: null,
  state: null, // the last full state (after merging updates)
  socket: null,
  selected: [], // cards chosen for the discard
  pending: false, // an action was sent and is not answered yet
  showLast: false, // the last trick is shown
  seatNames: ["", "", ""], // typed in the seat forms, kept across re-renders
  copied: false, // the invite link was just copied
  retry: 0,
  connected: false, // the socket is open and has brought a state: moves can be sent
  seatLost: false, // the seat key kept for this table was refused: the page watches
  onMyTurn: () => {}, // called with the view when the turn comes to this page's seat
  onHint: () => {}, // called with a "hint" message (hint.js)
};

function tokenKey(id) {
  return `paston-token-${id}`;
}

/** Keep the seat ``token`` of table ``id`` for this browser (a seat taken elsewhere, as
 * the Learn page's practice table is). */
export function rememberSeat(id, token) {
  localStorage.setItem(tokenKey(id), token);
}

/** The seat token this browser keeps for table ``id`` (null when none). */
export function seatToken(id) {
  return localStorage.getItem(tokenKey(id));
}

/** The name this browser last sat down with ("" when none). */
export function savedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

/** Keep the seat token of table ``id`` (and the name it was taken with) in this browser. */
export function keepSeat(id, token, name) {
  localStorage.setItem(tokenKey(id), token);
  localStorage.setItem(NAME_KEY, name);
}

/** The heartbeat (docs/guide/protocol.md): a ping after ``ping`` ms in which the page sent
 * nothing, and a socket that brought no message at all for ``silent`` ms is given up
 * (closed and connected again: a server that froze, or a worker of a cluster that stopped
 * answering, leaves the page for a live one). A page setting in localStorage
 * ("paston-heartbeat": {"ping": ms, "silent": ms}) changes them (the tests make them short). */
export function heartbeatTimes() {
  const times = { ping: 10_000, silent: 25_000 };
  try {
    const set = JSON.parse(localStorage.getItem("paston-heartbeat") || "null");
    for (const k of ["ping", "silent"]) if (set && Number(set[k]) >= 100) times[k] = Number(set[k]);
  } catch { /* the defaults */ }
  return times;
}

/** Keep ``ws`` alive and watched: a ping once the page has sent nothing for ``ping`` ms;
 * the socket is given up when nothing at all has come for ``silent`` ms although the page
 * sent something (a ping at least) ``silent - ping`` ms ago or more and heard nothing
 * since (so a background tab, whose timers the browser slows down, does not give up a
 * quiet but live socket), or when it has not opened within ``silent`` ms. */
function heartbeat(ws, id) {
  const { ping, silent } = heartbeatTimes();
  let sentAt = Date.now(), heardAt = Date.now(), probeAt = null; // probeAt: the first send not answered yet
  const send = ws.send.bind(ws);
  ws.send = (data) => {
    sentAt = Date.now();
    if (probeAt === null) probeAt = sentAt;
    send(data);
  };
  ws.addEventListener("message", () => { heardAt = Date.now(); probeAt = null; });
  const timer = setInterval(() => {
    if (live.socket !== ws || ws.readyState > WebSocket.OPEN) { clearInterval(timer); return; }
    const now = Date.now();
    const opening = ws.readyState === WebSocket.CONNECTING;
    const unanswered = probeAt !== null && now - probeAt >= Math.max(silent - ping, 0);
    if (now - heardAt >= silent && (opening || unanswered)) { // nothing at all, not even a pong
      clearInterval(timer);
      ws.onmessage = null;
      ws.onclose = null; // a frozen server never completes the closing handshake: do not wait for it
      try { ws.close(4000, "no answer"); } catch { /* already closing */ }
      lost(ws, id);
    } else if (!opening && now - sentAt >= ping) {
      ws.send(JSON.stringify({ type: "ping" }));
    }
  }, Math.min(1000, Math.max(100, Math.floor(Math.min(ping, silent) / 4))));
}

/** The socket ``ws`` of table ``id`` is gone: say so and connect again, a little later
 * each time. */
function lost(ws, id) {
  if (live.socket !== ws) return;
  live.connected = false;
  live.pending = false;
  say("reconnecting", {}, true);
  rerender(); // the cards and buttons show that nothing can be sent now
  live.retry = live.retry >= 25 ? live.retry : Math.min(live.retry + 1, 5);
  setTimeout(() => { if (live.socket === ws) connect(id); }, 400 * live.retry);
}

/** Connect to table ``id`` and keep connected; ``onMyTurn(view)`` is called when the turn
 * comes to this page's seat. */
export function connect(id, onMyTurn = null) {
  live.tableId = id;
  if (onMyTurn) live.onMyTurn = onMyTurn;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${id}`);
  live.socket = ws;
  heartbeat(ws, id);
  ws.onopen = () => {
    live.retry = 0;
    const token = localStorage.getItem(tokenKey(id));
    // seeds: sendSeed; next: the end of each deal is shown (enddeal.js) and answered with "next"
    ws.send(JSON.stringify({ type: "hello", token, updates: true, seeds: true, next: true }));
    if (resend(ws, id, token)) holdWhileUnanswered(); // sent before the last socket went, never answered
  };
  ws.onmessage = (ev) => {
    let msg = JSON.parse(ev.data);
    const answered = heard(msg); // the kept move's answer (not a late one to an earlier move)
    if (msg.type === "seed-request") { sendSeed(ws, msg); return; }
    if (msg.type === "update") {
      msg = mergeUpdate(live.state, msg);
      if (!msg) { ws.send(JSON.stringify({ type: "sync" })); return; } // missed something: resync
    }
    if (msg.type === "state") {
      const previous = live.state;
      live.state = msg;
      holdWhileUnanswered();
      live.connected = true;
      if (msg.you !== null) live.seatLost = false;
      logState(msg);
      live.selected = msg.view.phase === "discard" ? live.selected.filter((c) => msg.view.hand.includes(c)) : [];
      if (!previous || msg.version !== previous.version || ["connecting", "reconnecting"].includes(saying())) {
        say(null);
      }
      rerender();
      const mine = (s) => s && s.you !== null && s.view.to_move === s.you && !s.shuffling && !s.sealed;
      const mineNow = mine(msg);
      const mineBefore = mine(previous);
      // also when the turn stays here after this seat's own move (trump right after the
      // discard, leading again after winning a trick): a screen reader hears it each time
      const movedSince = mineBefore && previous.version !== msg.version && previous.view.phase !== undefined
        && (msg.view.history.length !== previous.view.history.length || msg.view.phase !== previous.view.phase
          || msg.view.hand.length !== previous.view.hand.length);
      if (mineNow && (!mineBefore || movedSince)) live.onMyTurn(msg.view);
    } else if (msg.type === "hint") {
      live.onHint(msg);
    } else if (msg.type === "ack") {
      // a duplicate's ack ("duplicate": true) comes with no new state: the move is not pending;
      // the late ack of a move the page stopped waiting for (held past 15 s) frees nothing
      if (live.pending && answered) { live.pending = false; rerender(); }
    } else if (msg.type === "error") {
      // an error to the kept move, or to no move, frees the page; a late one to a move the
      // page stopped waiting for (held past 15 s) does not
      if (answered || msg.id === undefined) live.pending = false;
      if (msg.code === "too-many-watchers") {
        live.retry = 25; // the table is full of watchers: try again in ten seconds, not at once
      } else if (msg.code === "bad-token") {
        localStorage.removeItem(tokenKey(id)); // a stale seat key: watch instead, and say so
        live.seatLost = true;
      } else if (msg.code === "stale") {
        ws.send(JSON.stringify({ type: "sync" }));
      }
      showError(msg.code, msg.message);
      rerender();
    }
  };
  ws.onclose = () => lost(ws, id);
}

let holdTimer = null;

/** The page may move unless a move it sent still waits for its answer (after a state:
 * the state answering a new socket's hello comes before the answer to the move resent
 * after it), for at most the move's hold: a timer, re-armed while the hold lasts, lets
 * the page go once it is over. Called whenever a move is sent or a state arrives. */
function holdWhileUnanswered() {
  const left = holdLeft(live.tableId, localStorage.getItem(tokenKey(live.tableId)));
  live.pending = left > 0;
  clearTimeout(holdTimer);
  if (left > 0) {
    holdTimer = setTimeout(() => {
      if (!live.pending) return; // answered meanwhile
      holdWhileUnanswered();
      if (!live.pending) rerender();
    }, left + 50);
  }
}

/** This seat's share of the next deal's shuffle (docs/FAIRNESS.md): 32 bytes from the
 * browser's CSPRNG, for the commitment the server published before asking; the same
 * seed again if the same commitment is asked again (after a reconnection or a reload).
 * It is kept in localStorage (seedstore.js), so that the end of the deal can check that
 * the deck used it (enddeal.js). */
function sendSeed(ws, request) {
  const id = live.tableId;
  let seed = keptSeed(id, request.commit);
  if (!seed) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    seed = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    const seat = live.state ? live.state.you : null;
    seed = keepSeed(id, { seat, deal: request.deal, commit: request.commit, seed });
  }
  ws.send(JSON.stringify({ type: "seed", commit: request.commit, seed }));
}

/** The full state after an update: the update's view, its history entry appended
 * (or its whole history, at a new deal), and the shared parts it carries; null when
 * the update does not follow the state held (then the client asks for a sync). */
export function mergeUpdate(held, update) {
  if (!held) return null;
  let history;
  if (update.view.history) history = update.view.history;
  else if (update.event) {
    if (update.version !== held.version + 1) return null;
    history = [...held.view.history, update.event];
  } else {
    if (update.version !== held.version) return null;
    history = held.view.history;
  }
  const next = { ...held, type: "state", version: update.version, you: update.you };
  for (const key of ["table", "sheet", "winners", "previous_trick", "shuffling", "sealed", "last_deal", "next_deal"]) {
    if (key in update) next[key] = update[key];
  }
  if ("deals" in update) {  // the deals from deals_from on: the ones before it never change
    const from = update.deals_from || 0, kept = held.deals || [];
    if (kept.length < from) return null;
    next.deals = [...kept.slice(0, from), ...update.deals];
  }
  next.view = { ...update.view, history };
  return next;
}

/** A fresh command id (crypto.randomUUID exists only on https and localhost pages). */
function commandId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** Send this seat's action ("bid hearts", "play QS"…); one at a time. */
export function act(action) {
  const ws = live.socket;
  if (live.pending || !ws || ws.readyState !== WebSocket.OPEN) return;
  const msg = { type: "act", action, version: live.state.version, id: commandId() };
  ws.send(sent(live.tableId, localStorage.getItem(tokenKey(live.tableId)), msg));
  holdWhileUnanswered(); // pending until its answer, at most its hold
  live.selected = [];
  rerender();
}

/** Sit down in a free seat under the name typed (or the one used last time). */
export async function takeSeat(seat, e) {
  e.preventDefault();
  const id = live.tableId;
  const name = live.seatNames[seat].trim() || savedName();
  if (!name) {
    showError("bad-name");
    return;
  }
  try {
    const got = await api(`/api/tables/${id}/seats/${seat}`, { name });
    keepSeat(id, got.token, name);
    const old = live.socket;
    live.socket = null;
    if (old) old.close();
    connect(id);
  } catch (err) {
    showError(err.code, err.message);
  }
}

/** A new game with the same rules and seats; a seated person keeps their seat. */
export async function rematch() {
  const id = live.tableId;
  try {
    const got = await api(`/api/tables/${id}/rematch`, { token: localStorage.getItem(tokenKey(id)) });
    if (got.token) localStorage.setItem(tokenKey(got.id), got.token);
    location.href = got.invite;
  } catch (err) {
    showError(err.code, err.message);
  }
}
