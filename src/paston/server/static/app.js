// Paston web client: lobby and table. No build step; ES module.
const app = document.getElementById("app");
const statusEl = document.getElementById("status");
const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const WORDS = { spades: "paston ♠", clubs: "glitch ♣", diamonds: "dineri ♦", hearts: "gupa ♥", "best-spades": "paston grkha ♠★" };
const RANK = (r) => (r === "T" ? "10" : r);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function suitIcon(s) {
  const paths = {
    S: "M12 2C9 7 4 9 4 13a4 4 0 0 0 7 2.6L10 21h4l-1-5.4A4 4 0 0 0 20 13c0-4-5-6-8-11z",
    H: "M12 21C5 15 2 11.5 2 8a5 5 0 0 1 10-1 5 5 0 0 1 10 1c0 3.5-3 7-10 13z",
    D: "M12 2l8 10-8 10-8-10z",
    C: "M12 2a4 4 0 0 1 3.5 6A4 4 0 1 1 13 15l1 6h-4l1-6a4 4 0 1 1-2.5-7A4 4 0 0 1 12 2z",
  };
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const p = document.createElementNS("http://www.w3.org/2000/svg", "path");
  p.setAttribute("d", paths[s]);
  p.setAttribute("fill", "currentColor");
  svg.append(p);
  return svg;
}

function cardNode(code, opts = {}) {
  const rank = RANK(code[0]), suit = code[1];
  const red = suit === "H" || suit === "D";
  const node = el(opts.onclick ? "button" : "span", {
    class: `card ${red ? "red" : ""} ${opts.legal ? "legal" : ""} ${opts.selected ? "selected" : ""} ${opts.disabled ? "disabled" : ""}`,
    "aria-label": `${rank} ${({ S: "spades", C: "clubs", D: "diamonds", H: "hearts" })[suit]}`,
    "data-card": code,
    onclick: opts.onclick,
  }, rank, suitIcon(suit));
  return node;
}

function say(text, error = false) {
  statusEl.textContent = text;
  statusEl.className = error ? "error" : "";
}

async function api(path, body) {
  const res = await fetch(path, body ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {});
  const data = await res.json();
  if (!res.ok) throw new Error(data.error ? data.error.message : JSON.stringify(data.detail || data));
  return data;
}

// --- lobby ---------------------------------------------------------------------------------
async function lobby() {
  const tables = await api("/api/tables");
  const seatSelect = (i) => el("select", { id: `seat${i}`, "aria-label": `seat ${i}` },
    el("option", { value: "human" }, "person"),
    el("option", { value: "pimc:3", selected: i > 0 }, "computer (pimc)"),
    el("option", { value: "pimc:1" }, "computer (pimc, fast)"),
    el("option", { value: "heuristic" }, "computer (heuristic)"),
    el("option", { value: "random" }, "computer (random)"));
  const form = el("form", { onsubmit: async (e) => {
    e.preventDefault();
    const seats = [0, 1, 2].map((i) => {
      const v = document.getElementById(`seat${i}`).value;
      if (v === "human") return { kind: "human" };
      const [bot, level] = v.split(":");
      return level ? { kind: "bot", bot, level: Number(level) } : { kind: "bot", bot };
    });
    const rules = { target: Number(document.getElementById("target").value),
      lone_defender: document.getElementById("lone").value,
      surrender_bonus: Number(document.getElementById("bonus").value),
      all_pass_declarer: document.getElementById("allpass").value,
      second_dealer: document.getElementById("second").value };
    try {
      const made = await api("/api/tables", { name: document.getElementById("tname").value || "Paston", rules, seats });
      location.href = made.invite;
    } catch (err) { say(err.message, true); }
  } },
    el("div", { class: "row" }, el("label", { for: "tname" }, "Table name"), el("input", { id: "tname", value: "Paston", maxlength: 80 })),
    el("div", { class: "row" }, el("label", { for: "target" }, "Target"), el("input", { id: "target", type: "number", value: 121, min: 1, max: 100000 }),
      el("label", { for: "lone" }, "Lone defender"), el("select", { id: "lone" }, el("option", { value: "graded" }, "graded"), el("option", { value: "flat" }, "flat")),
      el("label", { for: "bonus" }, "Surrender bonus"), el("select", { id: "bonus" }, el("option", { value: 2 }, "2"), el("option", { value: 0 }, "0")),
      el("label", { for: "allpass" }, "All pass"), el("select", { id: "allpass" }, el("option", { value: "spade-jack" }, "J♠ declares"), el("option", { value: "first-bidder" }, "first bidder declares")),
      el("label", { for: "second" }, "Second dealer"), el("select", { id: "second" }, el("option", { value: "first-bidder" }, "first bidder"), el("option", { value: "rotate" }, "rotate"))),
    el("div", { class: "seats" }, [0, 1, 2].map((i) => el("div", {}, el("label", { for: `seat${i}` }, `Seat ${i} `), seatSelect(i)))),
    el("button", { class: "primary", type: "submit" }, "Create table"));
  app.replaceChildren(
    el("section", {}, el("h2", {}, "New table"), form),
    el("section", {}, el("h2", {}, "Open tables"),
      tables.length ? el("ul", {}, tables.map((t) => el("li", {}, el("a", { href: `/t/${t.id}` }, t.name), ` — target ${t.rules.target}, `,
        t.seats.map((s) => `${s.name}${s.taken ? "" : " (free)"}`).join(", ")))) : "No open tables yet."));
}

// --- table ------------------------------------------------------------------------------------
let socket = null, state = null, selected = [], showLast = false, tableId = null;

function tokenKey(id) { return `paston-token-${id}`; }

function connect(id) {
  tableId = id;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/tables/${id}`);
  socket.onopen = () => socket.send(JSON.stringify({ type: "hello", token: localStorage.getItem(tokenKey(id)) }));
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") { state = msg; render(); }
    else if (msg.type === "error") say(msg.message, true);
  };
  socket.onclose = () => { say("Disconnected — reconnecting…", true); setTimeout(() => connect(id), 1500); };
}

function act(action) {
  socket.send(JSON.stringify({ type: "act", action, version: state.version, id: crypto.randomUUID() }));
  selected = [];
}

function actionLabel(a) {
  const [kind, value] = a.split(" ");
  if (kind === "bid") return `bid ${WORDS[value]}`;
  if (kind === "trump") return `trump ${WORDS[value]}`;
  return a;
}

function render() {
  const v = state.view, you = state.you, names = state.table.seats.map((s) => s.name);
  say(you === null ? "Watching" : `You are ${names[you]} (seat ${you})`);
  const seats = el("div", { class: "seats" }, state.table.seats.map((s) => el("div", { class: v.to_move === s.seat ? "turn" : "" },
    `${s.name} — ${s.kind === "bot" ? "computer" : s.taken ? (s.online ? "online" : "offline") : "free"}`,
    " · total ", String(v.totals[s.seat]), v.tricks[s.seat] ? ` · tricks ${v.tricks[s.seat]}` : "",
    (!s.taken && you === null) ? el("button", { onclick: () => takeSeat(s.seat) }, "Take seat") : "")));
  const history = el("p", {}, v.history.filter((h) => h.type !== "play").map((h) => `${names[h.seat]}: ${h.hidden ? "discards" : h.type === "bid" || h.type === "trump" ? `${h.type} ${WORDS[h.value]}` : h.type}`).join(" · ") || "—");
  const trick = el("div", { class: "trick", "aria-label": "current trick" }, v.trick.map((p) => el("div", { class: "play" }, cardNode(p.card), el("div", {}, names[p.seat]))));
  const legal = new Set(v.legal);
  const myTurn = you !== null && v.to_move === you;
  const handCards = v.hand.map((c) => {
    if (v.phase === "discard" && myTurn) {
      return cardNode(c, { selected: selected.includes(c), legal: true, onclick: () => { selected = selected.includes(c) ? selected.filter((x) => x !== c) : [...selected, c].slice(-2); render(); } });
    }
    const playable = myTurn && legal.has(`play ${c}`);
    return cardNode(c, { legal: playable, disabled: myTurn && v.phase === "play" && !playable, onclick: playable ? () => act(`play ${c}`) : undefined });
  });
  const controls = el("div", { class: "row" });
  if (myTurn && v.phase === "discard") controls.append(el("button", { class: "primary", disabled: selected.length !== 2, onclick: () => act(`discard ${selected.join(" ")}`) }, "Discard two cards"));
  else if (myTurn && v.phase !== "play") v.legal.forEach((a) => controls.append(el("button", { class: "primary", onclick: () => act(a) }, actionLabel(a))));
  const info = [];
  if (v.contract) info.push(`Contract: ${WORDS[v.contract]} by ${names[v.declarer]}`);
  else if (v.high_bid) info.push(`Highest bid: ${WORDS[v.high_bid]}`);
  if (v.prikup) info.push(`Prikup: ${v.prikup.map((c) => RANK(c[0]) + SUITS[c[1]]).join(" ")}`);
  if (v.to_move !== null) info.push(myTurn ? "Your turn" : `Waiting for ${names[v.to_move]}`);
  const last = v.last_trick ? el("div", {}, el("button", { onclick: () => { showLast = !showLast; render(); } }, showLast ? "Hide last trick" : "Show last trick"),
    showLast ? el("div", { class: "trick" }, v.last_trick.plays.map((p) => el("div", { class: "play" }, cardNode(p.card), el("div", {}, names[p.seat])))) : "") : "";
  const sheet = el("table", { class: "sheet" }, el("tr", {}, el("th", {}, "#"), names.map((n) => el("th", {}, n))),
    state.sheet.map((r) => el("tr", {}, el("td", {}, `${r.deal} ${r.contract ? WORDS[r.contract] : r.outcome}`),
      r.totals.map((t, i) => el("td", {}, `${r.scores[i] > 0 ? "+" : ""}${r.scores[i]} → ${t}${r.resets.includes(i) ? " ↺0" : ""}`)))));
  const over = state.winners.length ? el("section", {}, el("h2", {}, `Game over: ${state.winners.map((w) => names[w]).join(" and ")} ${state.winners.length > 1 ? "share the victory" : "wins"}`),
    el("a", { href: `/api/tables/${tableId}/record`, download: "paston-game.json" }, "Download the game record")) : "";
  app.replaceChildren(
    over,
    el("section", {}, el("h2", {}, state.table.name), seats, el("p", {}, `Invite link: ${location.origin}/t/${tableId}`)),
    el("section", {}, el("h2", {}, info.join(" · ") || "—"), history, trick, last),
    el("section", {}, el("h2", {}, "Your hand"), el("div", { class: "hand" }, handCards), controls),
    el("section", {}, el("h2", {}, "Score sheet"), sheet));
}

async function takeSeat(seat) {
  const name = prompt("Your name?", "Player");
  if (!name) return;
  try {
    const got = await api(`/api/tables/${tableId}/seats/${seat}`, { name });
    localStorage.setItem(tokenKey(tableId), got.token);
    socket.onclose = null;
    socket.close();
    connect(tableId);
  } catch (err) { say(err.message, true); }
}

const m = location.pathname.match(/^\/t\/([\w-]+)$/);
if (m) connect(m[1]); else lobby().catch((err) => say(err.message, true));
