// Paston web client: lobby and table. No build step; ES module.
// Every string shown comes from i18n.js; the game's own words come from GAME there.
import { GAME, LANGUAGES, MESSAGES, format } from "/static/i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SUIT_ORDER = "SCDH"; // ♠ ♣ ♦ ♥ (R0.2)
const RANK_ORDER = "AKQJT987"; // high to low
const SUIT_SYMBOL = { S: "♠", C: "♣", D: "♦", H: "♥" };
const CONTRACT_SYMBOL = { spades: "♠", clubs: "♣", diamonds: "♦", hearts: "♥", "best-spades": "♠★" };
const SEAT_COLORS = ["#f5c542", "#5ec8f2", "#f27ea9"];
const LANG_KEY = "paston-lang";
const NAME_KEY = "paston-name";

// --- language -------------------------------------------------------------------------------
function initialLanguage() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved && MESSAGES[saved]) return saved;
  for (const wanted of navigator.languages || []) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (MESSAGES[code]) return code;
  }
  return "en";
}

let lang = initialLanguage();

/** The translated string ``key`` with ``{placeholders}`` filled in. */
function t(key, params = {}) {
  const text = MESSAGES[lang][key] ?? MESSAGES.en[key];
  if (text === undefined) {
    console.warn(`missing string ${key}`);
    return key;
  }
  return format(text, params);
}

/** A contract in the ladder's words, with its suit symbol: "gupa ♥". */
function word(contract) {
  return `${GAME[contract]} ${CONTRACT_SYMBOL[contract]}`;
}

function setLanguage(code) {
  lang = code;
  localStorage.setItem(LANG_KEY, code);
  applyChrome();
  rerender();
}

// --- DOM helpers ----------------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "value") node.value = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false || c === "") continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// --- cards ------------------------------------------------------------------------------------
const SUIT_PATHS = {
  S: "M12 1.5C9.2 6 3 8.6 3 13.4a4.3 4.3 0 0 0 7.6 2.8L9.4 22h5.2l-1.2-5.8A4.3 4.3 0 0 0 21 13.4C21 8.6 14.8 6 12 1.5z",
  H: "M12 21.5C5.2 16 2 12.3 2 8.3A5 5 0 0 1 12 6.2a5 5 0 0 1 10 2.1c0 4-3.2 7.7-10 13.2z",
  D: "M12 1.5l7.5 10.5L12 22.5 4.5 12z",
  C: "M12 2a4.4 4.4 0 0 1 4 6.4 4.4 4.4 0 1 1-2.6 7.4L14.6 22H9.4l1.2-6.2A4.4 4.4 0 1 1 8 8.4 4.4 4.4 0 0 1 12 2z",
};

function suitIcon(suit, cls = "") {
  return svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", class: cls, focusable: "false" },
    svg("path", { d: SUIT_PATHS[suit], fill: "currentColor" }));
}

function rankText(code) {
  return t(`rank_${code[0]}`);
}

function cardLabel(code) {
  return t("cardLabel", { rank: t(`rankName_${code[0]}`), suit: t(`suitName_${code[1]}`) });
}

/** A face-up card: a button when it can be clicked, a plain figure otherwise. */
function cardNode(code, opts = {}) {
  const red = code[1] === "H" || code[1] === "D";
  const classes = ["card", red ? "red" : "black", opts.size || "", opts.legal ? "legal" : "",
    opts.selected ? "selected" : "", opts.extra || ""].filter(Boolean).join(" ");
  const body = [
    el("span", { class: "corner" }, el("span", { class: "rank" }, rankText(code)), suitIcon(code[1], "small")),
    suitIcon(code[1], "pip"),
  ];
  if (opts.button) {
    return el("button", {
      type: "button", class: classes, "data-card": code, "aria-label": cardLabel(code),
      "aria-pressed": opts.selected === undefined ? null : String(Boolean(opts.selected)),
      disabled: Boolean(opts.disabled), onclick: opts.onclick,
    }, body);
  }
  return el("span", { class: classes, "data-card": code, role: "img", "aria-label": cardLabel(code) }, body);
}

function cardBack(cls = "") {
  return el("span", { class: `card back ${cls}`, "aria-hidden": "true" });
}

function sortCards(codes) {
  return [...codes].sort((a, b) =>
    SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]));
}

// --- page chrome ------------------------------------------------------------------------------
const app = document.getElementById("app");
const statusEl = document.getElementById("status");
const headerEl = document.querySelector("header");
let statusKey = null, statusParams = {}, statusError = false;

function say(key, params = {}, error = false) {
  statusKey = key;
  statusParams = params;
  statusError = error;
  statusEl.textContent = key ? t(key, params) : "";
  statusEl.className = error ? "error" : "";
}

/** Tell screen readers (a live region that stays in place across re-renders). */
function announce(text) {
  let region = document.getElementById("announce");
  if (!region) {
    region = el("div", { id: "announce", class: "sr-only", "aria-live": "assertive" });
    document.body.append(region);
  }
  region.textContent = text;
}

function applyChrome() {
  document.documentElement.lang = lang;
  document.title = t("pageTitle", { game: GAME.brand });
  const brand = document.querySelector(".brand");
  brand.textContent = `${GAME.brand} ♠`;
  brand.setAttribute("aria-label", t("toLobby", { game: GAME.brand }));
  let picker = document.getElementById("lang");
  if (!picker) {
    picker = el("select", { id: "lang", "data-testid": "lang", onchange: (e) => setLanguage(e.target.value) });
    const label = el("label", { for: "lang", class: "lang-label" });
    headerEl.append(el("span", { class: "lang-picker" }, label, picker));
  }
  picker.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) =>
    el("option", { value: code, lang: code, selected: code === lang }, name)));
  picker.value = lang;
  document.querySelector("label.lang-label").textContent = t("language");
  if (statusKey) say(statusKey, statusParams, statusError);
}

async function api(path, body) {
  const res = await fetch(path, body ? {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  } : {});
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.error ? data.error.message : `HTTP ${res.status}`);
    err.code = data.error ? data.error.code : "http";
    throw err;
  }
  return data;
}

function errorText(code, message) {
  const key = `err_${code}`;
  if (MESSAGES.en[key] !== undefined) return t(key);
  return t("errGeneric", { message: message || code });
}

function showError(code, message) {
  say("errShown", { text: errorText(code, message) }, true);
}

// --- focus kept across re-renders ---------------------------------------------------------------
function focusKey(node) {
  if (!node || node === document.body || !app.contains(node)) return null;
  for (const attr of ["data-card", "data-action", "data-testid", "id"]) {
    const v = node.getAttribute(attr);
    if (v) return `[${attr}="${CSS.escape(v)}"]`;
  }
  return null;
}

let playFocus = false; // the keyboard was last used on the cards or action buttons

function withFocusKept(draw) {
  const active = document.activeElement;
  const key = focusKey(active);
  const wasInPlayArea = Boolean(active && active.closest && active.closest(".hand, .actions"));
  if (active && active !== document.body) playFocus = wasInPlayArea;
  const caret = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
  draw();
  if (!key) {
    // Focus was lost when the cards went away (a card played): back on the cards when it is our turn.
    if (playFocus && document.activeElement === document.body) {
      const next = app.querySelector(".hand button:not([disabled]), .actions button:not([disabled])");
      if (next) next.focus({ preventScroll: true });
    }
    return;
  }
  const again = app.querySelector(key);
  if (again && !again.disabled) {
    again.focus({ preventScroll: true });
    if (caret && "setSelectionRange" in again) {
      try { again.setSelectionRange(caret[0], caret[1]); } catch { /* not a text field */ }
    }
  } else if (wasInPlayArea) {
    const next = app.querySelector(".hand button:not([disabled]), .actions button:not([disabled])");
    if (next) next.focus({ preventScroll: true });
  }
}

// --- lobby --------------------------------------------------------------------------------------
const lobbyForm = {
  tname: "", target: 121, lone: "graded", bonus: "2", allpass: "spade-jack", second: "first-bidder",
  seat0: "human", seat1: "pimc:3", seat2: "pimc:3", takeover: "",
};
let lobbyTables = [], lobbyGames = [], lobbyTimer = null;

function seatChoices() {
  return [
    ["human", t("person")],
    ["pimc:3", t("botChoice", { bot: t("bot_pimc", { level: 3 }) })],
    ["pimc:1", t("botChoice", { bot: t("bot_pimc", { level: 1 }) })],
    ["heuristic", t("botChoice", { bot: t("bot_heuristic") })],
    ["random", t("botChoice", { bot: t("bot_random") })],
  ];
}

function field(id, label, control) {
  return el("div", { class: "field" }, el("label", { for: id }, label), control);
}

function select(id, options) {
  return el("select", { id, onchange: (e) => { lobbyForm[id] = e.target.value; } },
    options.map(([value, text]) => el("option", { value, selected: String(lobbyForm[id]) === String(value) }, text)));
}

function renderLobby() {
  const form = el("form", { class: "new-table", "data-testid": "new-table", onsubmit: createTable },
    field("tname", t("tableName"), el("input", {
      id: "tname", maxlength: 80, value: lobbyForm.tname, placeholder: t("defaultTableName", { game: GAME.brand }),
      oninput: (e) => { lobbyForm.tname = e.target.value; },
    })),
    el("fieldset", { class: "seat-choices" }, el("legend", {}, t("players")),
      [0, 1, 2].map((i) => field(`seat${i}`, t("seatN", { n: i + 1 }), select(`seat${i}`, seatChoices())))),
    el("details", { class: "rules" }, el("summary", {}, t("rulesVariants")),
      el("div", { class: "fields" },
        field("target", t("target"), el("input", {
          id: "target", type: "number", min: 1, max: 100000, value: lobbyForm.target,
          oninput: (e) => { lobbyForm.target = e.target.value; },
        })),
        field("lone", t("loneDefender"), select("lone", [["graded", t("loneGraded")], ["flat", t("loneFlat")]])),
        field("bonus", t("surrenderBonus"), select("bonus", [["2", "2"], ["0", "0"]])),
        field("allpass", t("allPass"), select("allpass", [["spade-jack", t("allPassJack")],
          ["first-bidder", t("allPassFirst")]])),
        field("second", t("secondDealer"), select("second", [["first-bidder", t("secondFirstBidder")],
          ["rotate", t("secondRotate")]])),
        field("takeover", t("takeover"), select("takeover", [["", t("takeoverOff")],
          ...[30, 120, 300].map((n) => [String(n), t("takeoverAfter", { n })])])))),
    el("button", { class: "primary", type: "submit", "data-testid": "create" }, t("createTable")));
  app.replaceChildren(el("div", { class: "lobby" },
    el("section", { class: "panel" }, el("h1", {}, t("newTable")), form),
    el("section", { class: "panel", id: "lobby-lists" }, lobbyLists())));
}

function seatSummary(s) {
  if (s.kind === "bot") return seatDisplayName(s);
  return s.taken ? s.name : t("freeSeat");
}

function lobbyLists() {
  return [
    el("h2", {}, t("openTables")),
    lobbyTables.length
      ? el("ul", { class: "table-list" }, lobbyTables.map((tb) => el("li", {},
        el("a", { href: `/t/${tb.id}` }, tb.name),
        el("span", { class: "muted" }, ` · ${t("targetShort", { n: tb.rules.target })} · `,
          tb.seats.map(seatSummary).join(", ")))))
      : el("p", { class: "muted" }, t("noOpenTables")),
    el("p", {}, el("a", { href: "/replay" }, t("openRecordFile"))),
    lobbyGames.length ? [
      el("h2", {}, t("finishedGames")),
      el("ul", { class: "table-list" }, lobbyGames.map((tb) => el("li", {},
        el("a", { href: `/t/${tb.id}` }, tb.name),
        el("span", { class: "muted" }, " · "),
        el("a", { href: `/api/tables/${tb.id}/record`, download: `paston-${tb.id}.json` }, t("record")),
        el("span", { class: "muted" }, " · "),
        el("a", { href: `/replay/${tb.id}` }, t("replay"))))),
    ] : null,
  ];
}

async function refreshLobbyLists() {
  try {
    [lobbyTables, lobbyGames] = await Promise.all([api("/api/tables"), api("/api/games?limit=20")]);
    const box = document.getElementById("lobby-lists");
    if (box) box.replaceChildren(...lobbyLists().flat().filter(Boolean));
  } catch (err) {
    showError(err.code, err.message);
  }
}

async function createTable(e) {
  e.preventDefault();
  const seats = [0, 1, 2].map((i) => {
    const v = lobbyForm[`seat${i}`];
    if (v === "human") return { kind: "human" };
    const [bot, level] = v.split(":");
    return level ? { kind: "bot", bot, level: Number(level) } : { kind: "bot", bot };
  });
  const rules = {
    target: Number(lobbyForm.target), lone_defender: lobbyForm.lone, surrender_bonus: Number(lobbyForm.bonus),
    all_pass_declarer: lobbyForm.allpass, second_dealer: lobbyForm.second,
  };
  const name = lobbyForm.tname.trim() || t("defaultTableName", { game: GAME.brand });
  try {
    const body = { name, rules, seats };
    if (lobbyForm.takeover) body.takeover_seconds = Number(lobbyForm.takeover);
    const made = await api("/api/tables", body);
    location.href = made.invite;
  } catch (err) {
    showError(err.code, err.message);
  }
}

async function lobby() {
  renderLobby();
  await refreshLobbyLists();
  lobbyTimer = setInterval(refreshLobbyLists, 5000);
}

// --- table: connection -------------------------------------------------------------------------
let socket = null, state = null, tableId = null;
let selected = [], showLast = false, pending = false, retry = 0;
let seatNames = ["", "", ""]; // typed in the seat forms, kept across re-renders
let copied = false;

function tokenKey(id) { return `paston-token-${id}`; }

function connect(id) {
  tableId = id;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${id}`);
  socket = ws;
  ws.onopen = () => {
    retry = 0;
    ws.send(JSON.stringify({ type: "hello", token: localStorage.getItem(tokenKey(id)), updates: true }));
  };
  ws.onmessage = (ev) => {
    let msg = JSON.parse(ev.data);
    if (msg.type === "update") {
      msg = mergeUpdate(state, msg);
      if (!msg) { ws.send(JSON.stringify({ type: "sync" })); return; } // missed something: resync
    }
    if (msg.type === "state") {
      const previous = state;
      state = msg;
      pending = false;
      selected = msg.view.phase === "discard" ? selected.filter((c) => msg.view.hand.includes(c)) : [];
      if (!previous || msg.version !== previous.version || ["connecting", "reconnecting"].includes(statusKey)) say(null);
      rerender();
      const mineNow = msg.you !== null && msg.view.to_move === msg.you;
      const mineBefore = previous && previous.you !== null && previous.view.to_move === previous.you;
      if (mineNow && !mineBefore) announce(turnText(msg.view));
    } else if (msg.type === "error") {
      pending = false;
      if (msg.code === "bad-token") {
        localStorage.removeItem(tokenKey(id)); // a stale seat key: watch instead
      } else if (msg.code === "stale") {
        ws.send(JSON.stringify({ type: "sync" }));
      }
      showError(msg.code, msg.message);
      rerender();
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    say("reconnecting", {}, true);
    retry = Math.min(retry + 1, 5);
    setTimeout(() => { if (socket === ws) connect(id); }, 400 * retry);
  };
}

/** The full state after an update: the update's view, its history entry appended
 * (or its whole history, at a new deal), and the shared parts it carries; null when
 * the update does not follow the state held (then the client asks for a sync). */
function mergeUpdate(held, update) {
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
  for (const key of ["table", "sheet", "deals", "winners", "previous_trick"]) {
    if (key in update) next[key] = update[key];
  }
  next.view = { ...update.view, history };
  return next;
}

/** A fresh command id (crypto.randomUUID exists only on https and localhost pages). */
function commandId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

function act(action) {
  if (pending || !socket || socket.readyState !== WebSocket.OPEN) return;
  pending = true;
  socket.send(JSON.stringify({ type: "act", action, version: state.version, id: commandId() }));
  selected = [];
  rerender();
}

async function takeSeat(seat, e) {
  e.preventDefault();
  const name = seatNames[seat].trim() || localStorage.getItem(NAME_KEY) || "";
  if (!name) {
    showError("bad-name");
    return;
  }
  try {
    const got = await api(`/api/tables/${tableId}/seats/${seat}`, { name });
    localStorage.setItem(tokenKey(tableId), got.token);
    localStorage.setItem(NAME_KEY, name);
    const old = socket;
    socket = null;
    if (old) old.close();
    connect(tableId);
  } catch (err) {
    showError(err.code, err.message);
  }
}

// --- table: rendering --------------------------------------------------------------------------
function botLabel(bot) {
  const [kind, level] = String(bot || "").split(":");
  if (kind === "pimc") return t("bot_pimc", { level: level || 3 });
  if (kind === "heuristic") return t("bot_heuristic");
  if (kind === "random") return t("bot_random");
  return kind;
}

function seatDisplayName(s) {
  if (s.kind === "bot") return t("computerN", { n: s.seat + 1 });
  return s.taken ? s.name : t("seatN", { n: s.seat + 1 });
}

function names() {
  return state.table.seats.map(seatDisplayName);
}

/** Seats around the table as this page sees them: [bottom (you), left, right]. */
function layout() {
  const me = state.you === null ? 0 : state.you;
  return [me, (me + 1) % 3, (me + 2) % 3];
}

/** What each seat last said in this deal (a bid, pass, trump, whist…). */
function calls(v) {
  const said = [null, null, null];
  for (const h of v.history) {
    if (h.type === "bid" || h.type === "trump") said[h.seat] = word(h.value);
    else if (h.type === "pass") said[h.seat] = t("pass");
    else if (h.type === "surrender") said[h.seat] = t("surrender");
    else if (h.type === "whist") said[h.seat] = GAME.whist;
  }
  return said;
}

/** Tricks a seat needs (R6.3, R5.2), or null when it does not play. */
function needs(v, seat) {
  if (v.declarer === null || v.phase !== "play") return null;
  if (seat === v.declarer) return 6;
  if (v.defenders.includes(seat)) return v.defenders.length === 2 ? 2 : 4;
  return null;
}

function seatPanel(s, v, position, said) {
  const n = names();
  const isTurn = v.to_move === s.seat;
  const status = s.kind === "bot" ? "bot" : !s.taken ? "free" : s.online ? "online" : s.standin ? "standin" : "offline";
  const statusText = {
    bot: t("statusBot", { bot: botLabel(s.bot) }), free: t("statusFree"),
    online: t("statusOnline"), offline: t("statusOffline"), standin: t("statusStandin"),
  }[status];
  const badges = [];
  if (v.dealer === s.seat) badges.push(el("span", { class: "badge dealer", title: t("dealer") }, t("dealerShort")));
  if (v.declarer === s.seat) badges.push(el("span", { class: "badge role" }, t("declarer")));
  const need = needs(v, s.seat);
  const stats = [el("span", {}, t("totalShort", { n: num(v.totals[s.seat]) }))];
  if (v.phase === "play" || v.tricks.some((x) => x > 0)) {
    stats.push(el("span", {}, need ? t("tricksOfNeeded", { n: v.tricks[s.seat], need }) : t("tricksShort", { n: v.tricks[s.seat] })));
  }
  const backs = position === "me" && state.you === s.seat ? null
    : el("span", { class: "backs", "aria-label": t("cardsInHand", { n: v.hand_sizes[s.seat] }) },
      Array.from({ length: Math.min(v.hand_sizes[s.seat], 12) }, () => cardBack("mini")));
  let form = null;
  if (state.you === null && !s.taken && s.kind === "human") {
    form = el("form", { class: "seat-form", "data-testid": "seat-form", onsubmit: (e) => takeSeat(s.seat, e) },
      el("label", { for: `seat-name-${s.seat}`, class: "sr-only" }, t("yourName")),
      el("input", {
        id: `seat-name-${s.seat}`, "data-testid": "seat-name", maxlength: 40, autocomplete: "nickname",
        placeholder: t("yourName"), value: seatNames[s.seat] || localStorage.getItem(NAME_KEY) || "",
        oninput: (e) => { seatNames[s.seat] = e.target.value; },
      }),
      el("button", { type: "submit", class: "primary", "data-testid": "take-seat" }, t("takeSeat")));
  }
  const mine = state.you === s.seat;
  return el("div", {
    class: `seat-panel ${position} ${isTurn ? "turn" : ""} ${mine ? "mine" : ""}`,
    "data-seat": s.seat, "data-status": status, "aria-current": isTurn ? "true" : null,
  },
  el("div", { class: "seat-head" },
    el("span", { class: "dot", style: `background:${SEAT_COLORS[s.seat]}`, "aria-hidden": "true" }),
    el("strong", { class: "seat-name" }, n[s.seat]),
    mine ? el("span", { class: "badge you" }, t("you")) : null,
    badges,
    isTurn && !mine ? el("span", { class: "badge turn-badge" }, t("toPlay")) : null),
  el("div", { class: "seat-line" }, el("span", { class: `presence ${status}` }, statusText), stats),
  said || backs ? el("div", { class: "seat-extra" }, said ? el("span", { class: "bubble" }, said) : null, backs) : null,
  form);
}

function turnText(v) {
  const n = names();
  if (state.winners.length) return t("gameOver");
  if (v.to_move === null) return "";
  if (state.you !== null && v.to_move === state.you) return t(`yourTurn_${v.phase}`);
  return t("waitingFor", { name: n[v.to_move], what: t(`phase_${v.phase}`) });
}

function trickView(v) {
  const [me, left, right] = layout();
  const pos = { [me]: "me", [left]: "left", [right]: "right" };
  const n = names();
  let plays = v.trick, caption = null, previous = false;
  if (!plays.length && v.last_trick && v.phase === "play") {
    plays = v.last_trick.plays;
    previous = true;
    caption = t("wonBy", { name: n[v.last_trick.winner] });
  }
  return el("div", { class: `trick ${previous ? "previous" : ""}`, "data-testid": "trick", "aria-label": t("trick") },
    plays.map((p) => el("div", { class: `play at-${pos[p.seat]}` }, cardNode(p.card),
      el("span", { class: "who" }, n[p.seat]))),
    caption ? el("div", { class: "caption" }, caption) : null);
}

function lastTrickView(v) {
  // before the first card of a deal, the last trick is the previous deal's final one
  const last = v.last_trick || (v.history.some((h) => h.type === "play") ? null : state.previous_trick);
  if (!last) return null;
  v = { ...v, last_trick: last };
  const n = names();
  return el("div", { class: "last-trick" },
    el("button", {
      type: "button", "data-testid": "last-trick-toggle", "aria-expanded": String(showLast),
      onclick: () => { showLast = !showLast; rerender(); },
    }, showLast ? t("hideLastTrick") : t("showLastTrick")),
    showLast ? el("div", { class: "last-trick-cards", "data-testid": "last-trick" },
      v.last_trick.plays.map((p) => el("div", { class: "play" }, cardNode(p.card, { size: "small" }),
        el("span", { class: "who" }, n[p.seat]))),
      el("span", { class: "caption" }, t("wonBy", { name: n[v.last_trick.winner] }))) : null);
}

function centerView(v) {
  const n = names();
  const parts = [];
  if (v.contract) {
    parts.push(el("p", { class: "contract", "data-testid": "contract" },
      t("declares", { name: n[v.declarer], contract: word(v.contract) })));
  } else if (v.declarer !== null) {
    parts.push(el("p", { class: "contract" }, t("declarerIs", {
      name: n[v.declarer], contract: v.high_bid ? word(v.high_bid) : t("allPassed"),
    })));
  } else if (v.high_bid) {
    parts.push(el("p", { class: "contract" }, t("highestBid", { contract: word(v.high_bid) })));
  }
  if (v.phase === "auction") {
    parts.push(el("div", { class: "prikup-backs" }, el("span", { class: "label" }, GAME.prikup), cardBack(), cardBack()));
    if (state.sheet.length) parts.push(lastDealSummary());
  } else if (v.phase === "discard" || v.phase === "trump") {
    if (v.prikup) {
      parts.push(el("div", { class: "prikup", "data-testid": "prikup" }, el("span", { class: "label" }, GAME.prikup),
        sortCards(v.prikup).map((c) => cardNode(c))));
    } else {
      parts.push(el("p", {}, t(v.phase === "discard" ? "takesPrikup" : "namingTrump", { name: n[v.declarer], prikup: GAME.prikup })));
    }
  } else if (v.phase === "defence") {
    parts.push(el("p", {}, t("defenceNow")));
  } else if (v.phase === "play") {
    parts.push(trickView(v));
  } else if (v.phase === "over" && state.sheet.length) {
    parts.push(lastDealSummary());
  }
  return el("div", { class: "center" }, parts);
}

function outcomeText(row) {
  const n = names();
  if (row.declarer === null || row.declarer === undefined) return t(`outcome_${row.outcome}`);
  return t(`sheet_${row.outcome}`, { name: n[row.declarer], contract: row.contract ? word(row.contract) : "" });
}

function lastDealSummary() {
  const row = state.sheet[state.sheet.length - 1];
  const n = names();
  return el("div", { class: "deal-summary", "data-testid": "last-deal" },
    el("strong", {}, t("dealNOver", { n: row.deal })), " ", outcomeText(row),
    el("ul", {}, row.scores.map((sc, i) => el("li", {}, `${n[i]}: ${signed(sc)}`))));
}

function signed(x) {
  return x > 0 ? `+${x}` : num(x);
}

/** A number with a true minus sign. */
function num(x) {
  return x < 0 ? `−${-x}` : String(x);
}

function handView(v) {
  const you = state.you;
  if (you === null) return null;
  const myTurn = v.to_move === you;
  const legal = new Set(v.legal);
  const prikup = new Set(v.prikup || []);
  const cards = sortCards(v.hand);
  const discarding = myTurn && v.phase === "discard";
  let lastSuit = null;
  const nodes = [];
  for (const c of cards) {
    if (lastSuit !== null && c[1] !== lastSuit) nodes.push(el("span", { class: "suit-gap", "aria-hidden": "true" }));
    lastSuit = c[1];
    const extra = discarding && prikup.has(c) ? "from-prikup" : "";
    if (discarding) {
      nodes.push(cardNode(c, {
        button: true, selected: selected.includes(c), legal: true, extra, disabled: pending,
        onclick: () => {
          selected = selected.includes(c) ? selected.filter((x) => x !== c) : [...selected, c].slice(-2);
          rerender();
        },
      }));
    } else {
      const playable = myTurn && v.phase === "play" && legal.has(`play ${c}`);
      nodes.push(cardNode(c, {
        button: true, legal: playable, disabled: !playable || pending,
        onclick: playable ? () => act(`play ${c}`) : undefined,
      }));
    }
  }
  return el("div", { class: "hand-area" },
    el("h2", { class: "sr-only" }, t("yourHand")),
    el("div", { class: "hand", "data-testid": "hand", role: "group", "aria-label": t("yourHand"),
      style: `--n: ${Math.max(cards.length, 2)}` },
      nodes.length ? nodes : el("span", { class: "muted" }, t("noCards"))));
}

function actionLabel(a) {
  const [kind, value] = a.split(" ");
  if (kind === "bid") return t("bidWord", { contract: word(value) });
  if (kind === "trump") return t("trumpWord", { contract: word(value) });
  if (kind === "whist") return GAME.whist;
  if (kind === "pass") return t("pass");
  if (kind === "surrender") return t("surrender");
  return a;
}

function actionsView(v) {
  const you = state.you;
  if (you === null || v.to_move !== you || v.phase === "play") {
    return el("div", { class: "actions", "data-testid": "actions" });
  }
  const box = el("div", { class: "actions", "data-testid": "actions", role: "group", "aria-label": t("yourMove") });
  if (v.phase === "discard") {
    box.append(el("p", { class: "hint" }, t("discardHint", { n: selected.length, prikup: GAME.prikup })),
      el("button", {
        type: "button", class: "primary", "data-action": "discard", "data-testid": "confirm-discard",
        disabled: selected.length !== 2 || pending, onclick: () => act(`discard ${selected.join(" ")}`),
      }, t("confirmDiscard")));
    return box;
  }
  const hint = { auction: "auctionHint", trump: "trumpHint", defence: "defenceHint" }[v.phase];
  if (hint) {
    box.append(el("p", { class: "hint" }, t(hint, {
      name: v.declarer !== null ? names()[v.declarer] : "", contract: v.contract ? word(v.contract) : "",
      whist: GAME.whist,
    })));
  }
  const row = el("div", { class: "buttons" });
  for (const a of v.legal) {
    const kind = a.split(" ")[0];
    row.append(el("button", {
      type: "button", class: kind === "pass" || kind === "surrender" ? "secondary" : "primary",
      "data-action": a, disabled: pending, onclick: () => act(a),
    }, actionLabel(a)));
  }
  box.append(row);
  return box;
}

function historyView(v) {
  const n = names();
  const items = [];
  let stage = "auction";
  for (const h of v.history) {
    if (h.type === "play") continue;
    let text;
    if (h.type === "bid") text = word(h.value);
    else if (h.type === "pass") text = stage === "defence" ? t("passDefence") : t("pass");
    else if (h.type === "discard") {
      text = h.hidden ? t("discardsTwo") : [t("yourDiscard"), " ", el("span", { class: "discard-shown" },
        sortCards(h.cards).map((c) => cardNode(c, { size: "tiny" })))];
      stage = "discard";
    }
    else if (h.type === "trump") { text = t("namesTrump", { contract: word(h.value) }); stage = "defence"; }
    else if (h.type === "surrender") text = t("surrenders");
    else if (h.type === "whist") text = GAME.whist;
    items.push(el("li", { "data-event": h.type },
      el("span", { class: "dot", style: `background:${SEAT_COLORS[h.seat]}`, "aria-hidden": "true" }),
      el("span", { class: "who" }, n[h.seat]), " ", el("span", { class: "what" }, text)));
  }
  return el("section", { class: "panel log" }, el("h2", {}, t("auction")),
    items.length ? el("ol", { "data-testid": "auction" }, items) : el("p", { class: "muted" }, t("noBidsYet")));
}

function sheetView() {
  const n = names();
  const head = el("thead", {}, el("tr", {}, el("th", { scope: "col", title: t("dealColName"), "aria-label": t("dealColName") }, t("dealCol")), el("th", { scope: "col" }, t("contractCol")),
    n.map((name, i) => el("th", { scope: "col", title: name },
      el("span", { class: "dot", style: `background:${SEAT_COLORS[i]}`, "aria-hidden": "true" }),
      el("span", { class: "name" }, name)))));
  const cols = el("colgroup", {}, el("col", { class: "num" }), el("col", { class: "what" }),
    [0, 1, 2].map(() => el("col", { class: "seat" })));
  const body = el("tbody", {}, state.sheet.map((r) => el("tr", { "data-deal": r.deal, "data-outcome": r.outcome },
    el("th", { scope: "row" }, String(r.deal)),
    el("td", { class: "what" }, outcomeText(r)),
    r.totals.map((total, i) => {
      const reset = r.resets.includes(i);
      return el("td", { class: reset ? "reset" : "", "data-reset": reset ? "true" : null },
        el("span", { class: "score" }, signed(r.scores[i])),
        el("span", { class: "total" }, num(total)),
        reset ? el("span", {
          class: "badge reset-badge", title: t("resetTitle", { n: state.table.rules.target }),
        }, t("resetMark")) : null);
    }))));
  return el("section", { class: "panel sheet-panel" },
    el("h2", {}, t("scoreSheet")),
    state.sheet.length
      ? el("div", { class: "sheet-wrap" }, el("table", { class: "sheet", "data-testid": "sheet" },
        el("caption", { class: "sr-only" }, t("scoreSheet")), cols, head, body))
      : [el("p", { class: "muted" }, t("noDealsYet")),
        el("table", { class: "sheet empty", "data-testid": "sheet" }, el("caption", { class: "sr-only" }, t("scoreSheet")), head, el("tbody"))],
    state.sheet.length ? chartView() : null);
}

/** Running totals over the game, one line per seat, as inline SVG. */
function chartView() {
  const rows = state.sheet;
  const target = state.table.rules.target;
  const series = [0, 1, 2].map((s) => [0, ...rows.map((r) => r.totals[s])]);
  const all = series.flat();
  // The goal line is drawn when the totals come near it; otherwise the lines would be flat.
  const high = Math.max(10, ...all);
  const showGoal = high >= target * 0.5;
  const top = showGoal ? Math.max(target, high) : Math.ceil(high * 1.15), bottom = Math.min(0, ...all);
  const W = 320, H = 160, L = 34, R = 10, T = 10, B = 22;
  const x = (i) => L + (rows.length ? (i * (W - L - R)) / rows.length : 0);
  const y = (val) => T + ((top - val) * (H - T - B)) / (top - bottom || 1);
  const grid = [
    svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: L - 4, y: y(0) + 4, class: "tick", "text-anchor": "end" }, "0"),
    showGoal ? svg("line", { x1: L, x2: W - R, y1: y(target), y2: y(target), class: "goal" }) : null,
    svg("text", { x: L - 4, y: y(top) + 4, class: "tick", "text-anchor": "end" }, String(top)),
    svg("text", { x: W - R, y: H - 6, class: "tick", "text-anchor": "end" }, String(rows.length)),
    svg("text", { x: L, y: H - 6, class: "tick", "text-anchor": "middle" }, "0"),
  ];
  if (bottom < 0) {
    grid.push(svg("text", { x: L - 4, y: y(bottom) + 4, class: "tick", "text-anchor": "end" }, num(bottom)));
  }
  const lines = series.map((pts, s) => svg("g", { class: `series s${s}` },
    svg("polyline", {
      points: pts.map((val, i) => `${x(i).toFixed(1)},${y(val).toFixed(1)}`).join(" "),
      fill: "none", stroke: SEAT_COLORS[s], "stroke-width": 2.5, "stroke-linejoin": "round",
    }),
    pts.map((val, i) => {
      const reset = i > 0 && rows[i - 1].resets.includes(s);
      return svg("circle", {
        cx: x(i).toFixed(1), cy: y(val).toFixed(1), r: reset ? 5 : 2.5,
        fill: reset ? "none" : SEAT_COLORS[s], stroke: SEAT_COLORS[s], "stroke-width": 2,
      });
    })));
  const n = names();
  return el("figure", { class: "chart" },
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("chartLabel"), "data-testid": "chart" },
      svg("title", {}, t("chartLabel")), grid, lines),
    el("figcaption", {}, n.map((name, i) => el("span", { class: "legend" },
      el("span", { class: "dot", style: `background:${SEAT_COLORS[i]}`, "aria-hidden": "true" }), name))));
}

function endView() {
  if (!state.winners.length) return null;
  const n = names();
  const who = state.winners.map((w) => n[w]).join(t("and"));
  return el("section", { class: "panel game-over", "data-testid": "game-over", role: "status" },
    el("h1", {}, t("gameOver")),
    el("p", { class: "winners", "data-testid": "winners" },
      t(state.winners.length > 1 ? "winnersShare" : "winnerWins", { names: who })),
    el("ol", { class: "final" }, [0, 1, 2].sort((a, b) => state.view.totals[b] - state.view.totals[a])
      .map((s) => el("li", {}, el("span", { class: "dot", style: `background:${SEAT_COLORS[s]}` }),
        `${n[s]}: ${num(state.view.totals[s])}`))),
    el("p", { class: "buttons" },
      el("a", {
        class: "button primary", href: `/api/tables/${tableId}/record`, download: `paston-${tableId}.json`,
        "data-testid": "record-link",
      }, t("downloadRecord")),
      el("button", { type: "button", "data-testid": "rematch", onclick: rematch },
        state.table.rematch ? t("joinRematch") : t("rematch")),
      el("a", { class: "button", href: "/" }, t("backToLobby"))));
}

/** A new game with the same rules and seats; a seated person keeps their seat. */
async function rematch() {
  try {
    const got = await api(`/api/tables/${tableId}/rematch`, { token: localStorage.getItem(tokenKey(tableId)) });
    if (got.token) localStorage.setItem(tokenKey(got.id), got.token);
    location.href = got.invite;
  } catch (err) {
    showError(err.code, err.message);
  }
}

function inviteView() {
  const link = `${location.origin}/t/${tableId}`;
  const free = state.table.seats.some((s) => !s.taken);
  return el("section", { class: "panel info" },
    el("h1", { class: "table-name" }, state.table.name),
    el("p", { class: "muted" }, state.you === null ? t("watching") : t("youAre", { name: names()[state.you] }),
      " · ", t("targetShort", { n: state.table.rules.target })),
    free ? el("div", { class: "invite" },
      el("label", { for: "invite" }, t("inviteLink")),
      el("div", { class: "invite-row" },
        el("input", { id: "invite", readonly: true, value: link, onfocus: (e) => e.target.select() }),
        el("button", {
          type: "button", "data-testid": "copy-invite",
          onclick: async () => {
            try { await navigator.clipboard.writeText(link); } catch { document.getElementById("invite").select(); }
            copied = true;
            rerender();
            setTimeout(() => { copied = false; rerender(); }, 1500);
          },
        }, copied ? t("copied") : t("copy")))) : null);
}

function renderTable() {
  if (!state) {
    app.replaceChildren(el("section", { class: "panel" }, el("p", {}, t("connecting"))));
    return;
  }
  const v = state.view;
  const [me, left, right] = layout();
  const seats = state.table.seats;
  const said = calls(v);
  const myTurn = state.you !== null && v.to_move === state.you;
  const board = el("section", {
    class: `board panel ${myTurn ? "my-turn" : ""}`, "data-testid": "table",
    "data-phase": v.phase, "data-version": state.version, "data-you": state.you === null ? "" : state.you,
    "data-to-move": v.to_move === null ? "" : v.to_move, "data-my-turn": String(myTurn),
    "data-tricks": v.tricks.reduce((a, b) => a + b, 0), "data-deals": state.sheet.length,
    "aria-label": t("tableLabel"),
  },
  el("p", { class: `turn-line ${myTurn ? "mine" : ""}`, "data-testid": "turn" }, turnText(v)),
  el("div", { class: "opponents" }, seatPanel(seats[left], v, "left", said[left]), seatPanel(seats[right], v, "right", said[right])),
  el("div", { class: "center-wrap" }, centerView(v), lastTrickView(v)),
  seatPanel(seats[me], v, "me", said[me]),
  handView(v),
  actionsView(v));
  app.replaceChildren(el("div", { class: "table-layout" },
    el("div", { class: "main-col" }, endView(), board),
    el("div", { class: "side-col" }, inviteView(), historyView(v), sheetView())));
}

function rerender() {
  withFocusKept(() => {
    if (replayData || location.pathname.startsWith("/replay")) renderReplay();
    else if (tableId) renderTable();
    else renderLobby();
  });
}


// --- replay of a finished game or of an opened record (every hand shown) ----------------------
let replayData = null, replayDeal = 0, replayStep = 0;

function replayMove(next) {
  if (!next) return t("dealEnd");
  const [kind, ...rest] = next.action.split(" ");
  const shown = kind === "play" || kind === "discard"
    ? rest.map((c) => `${rankText(c)}${SUIT_SYMBOL[c[1]]}`).join(" ")
    : actionLabel(next.action);
  return t("nextMove", { who: replayData.seats[next.seat], action: shown });
}

function renderReplay() {
  if (!replayData) {
    const input = el("input", { type: "file", accept: ".json,.jsonl,application/json", id: "record-file",
      "aria-label": t("chooseRecord"), onchange: openRecordFile });
    app.replaceChildren(el("section", { class: "panel" }, el("h2", {}, t("openRecordFile")),
      el("p", {}, el("label", { for: "record-file" }, t("chooseRecord"))), input));
    return;
  }
  const deal = replayData.deals[replayDeal];
  const step = deal.steps[replayStep];
  const seats = replayData.seats;
  const button = (key, enabled, go) => el("button", { type: "button", disabled: !enabled, onclick: go }, t(key));
  const hands = el("div", { class: "replay-hands" }, [0, 1, 2].map((s) => el("div", { class: "replay-hand", "data-seat": s },
    el("h3", {}, seats[s], step.declarer === s ? ` · ${t("declarer")}` : ""),
    el("div", { class: "hand" }, sortCards(step.hands[s]).map((c) => cardNode(c, { size: "small" }))))));
  const talon = el("div", {}, el("h3", {}, t("talon")), el("div", { class: "hand" },
    [...step.prikup, ...step.discard.filter((c) => !step.prikup.includes(c))].map((c) => cardNode(c, { size: "small" }))));
  const trick = el("div", { class: "hand" }, step.trick.map((p) => el("span", { class: "play" }, cardNode(p.card, { size: "small" }), seats[p.seat])));
  app.replaceChildren(el("section", { class: "panel replay", "data-testid": "replay" },
    el("h2", {}, t("replayTitle"), " · ", t("dealN", { n: replayDeal + 1 }), " · ",
      t("stepOf", { n: replayStep + 1, total: deal.steps.length })),
    el("div", { class: "row" },
      button("prevDeal", replayDeal > 0, () => { replayDeal -= 1; replayStep = 0; renderReplay(); }),
      button("prevStep", replayStep > 0, () => { replayStep -= 1; renderReplay(); }),
      button("nextStep", replayStep < deal.steps.length - 1, () => { replayStep += 1; renderReplay(); }),
      button("nextDeal", replayDeal < replayData.deals.length - 1, () => { replayDeal += 1; replayStep = 0; renderReplay(); })),
    el("p", { class: "muted" }, t("replayKeys")),
    el("p", { "data-testid": "next-move" }, replayMove(step.next)),
    el("h3", {}, t("allHands")), hands, talon, trick));
}

async function openRecordFile(e) {
  const file = e.target.files[0];
  if (!file) return;
  try {
    const res = await fetch("/api/replay", { method: "POST", headers: { "content-type": "application/json" }, body: await file.text() });
    const data = await res.json();
    if (!res.ok) throw Object.assign(new Error(data.error.message), { code: data.error.code });
    replayData = data; replayDeal = 0; replayStep = 0;
    renderReplay();
  } catch (err) {
    showError(err.code, err.message);
  }
}

document.addEventListener("keydown", (e) => {
  if (!replayData || e.target.tagName === "INPUT") return;
  const steps = replayData.deals[replayDeal].steps.length;
  if (e.key === "ArrowRight" && replayStep < steps - 1) { replayStep += 1; renderReplay(); }
  if (e.key === "ArrowLeft" && replayStep > 0) { replayStep -= 1; renderReplay(); }
});

async function replay(id) {
  if (id) replayData = await api(`/api/tables/${id}/replay`);
  renderReplay();
}

// --- start ---------------------------------------------------------------------------------------
applyChrome();
const m = location.pathname.match(/^\/t\/([\w-]+)$/);
const r = location.pathname.match(/^\/replay(?:\/([\w-]+))?$/);
if (r) {
  replay(r[1]).catch((err) => showError(err.code, err.message));
} else if (m) {
  tableId = m[1];
  renderTable();
  connect(m[1]);
} else {
  lobby().catch((err) => showError(err.code, err.message));
}
