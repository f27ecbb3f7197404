// The lobby: the create-table form (seats, preset and rule switches from /api/meta) and
// the lists of open tables (a page at a time, kept fresh by the server's pushed changes)
// and finished games.
import { api } from "./api.js";
import { app, rerender, say, saying, showError } from "./chrome.js";
import { el } from "./dom.js";
import { keepSeat, savedName } from "./live.js";
import { practiceField } from "./hint.js";
import { defaultComputer, getMeta, loadMeta, seatChoices, seatDisplayName } from "./players.js";
import { GAME, has, num, t } from "./text.js";

const TAKEOVER_SECONDS = [30, 120, 300];
const NEXT_DEAL_SECONDS = [15, 30, 60, 120, 300]; // how long a finished deal stays on show (enddeal.js)
const PAGE = 20; // open tables a page
const POLL_MS = 30000; // without the pushed changes: refresh this often, and try them again
const SETTLE_MS = 300; // changes arriving together: one refresh
// The server could not be reached (or something between answered instead): the lists are
// fetched again after each of these waits in turn, then every 30 s (docs/rules-decisions.md X13).
const RETRY_MS = [1000, 2000, 4000, 8000, 15000, 30000];
const UNREACHABLE = new Set(["network", "http"]); // api.js's codes for those
let retries = 0, retryTimer = null;
let form = null; // what was chosen, kept across re-renders (a language change, a preset)
let tables = [], total = 0, offset = 0, games = [];
let stream = null, poller = null, pending = null;

function freshForm() {
  const meta = getMeta();
  const computer = defaultComputer();
  return {
    name: "", seats: ["human", computer, computer], takeover: "", hints: false, nextDeal: "", rulesOpen: false,
    me: savedName(), mySeat: "0", // the creator's name and seat ("": only watch)
    rules: meta ? { ...meta.rules.defaults } : {},
  };
}

/** A string key's last part from a value: "spade-jack" → "spade_jack". */
function keyPart(value) {
  return String(value).replace(/[^A-Za-z0-9]/g, "_");
}

function translated(key, fallback) {
  return has(key) ? t(key) : fallback;
}

/** The preset the rules chosen are exactly, or "" when they are none. */
function presetOf(rules) {
  const presets = getMeta()?.rules.presets ?? {};
  const same = (name) => Object.entries(presets[name]).every(([k, v]) => rules[k] === v);
  return Object.keys(presets).find(same) ?? "";
}

function showPreset() {
  const picker = document.getElementById("preset");
  if (picker) picker.value = presetOf(form.rules);
  const about = document.getElementById("rules-about");
  if (about) about.textContent = rulesAbout(getMeta());
}

/** The rules chosen in words, whatever their preset: "To 121 points · Lone defender:
 * graded … · When all three pass: the holder of J♠ declares …". */
function rulesAbout(meta) {
  if (!meta) return "";
  const switches = Object.keys(meta.rules.switches).map((key) =>
    `${translated(`rule_${key}`, key)}: ${translated(`rule_${key}_${keyPart(form.rules[key])}`, String(form.rules[key]))}`);
  return [t("rulesAboutTarget", { n: num(Number(form.rules.target) || 0) }), ...switches].join(" · ");
}

function field(id, label, control) {
  return el("div", { class: "field" }, el("label", { for: id }, label), control);
}

/** A select of ``[{value, label, title}]`` showing ``current``; ``change`` gets the choice. */
function select(id, options, current, change) {
  return el("select", {
    id, "data-testid": id,
    onchange: (e) => change(options.find((o) => String(o.value) === e.target.value).value),
  }, options.map((o) => el("option", {
    value: String(o.value), title: o.title || null, selected: String(current) === String(o.value),
  }, o.label)));
}

function seatsField() {
  const choices = seatChoices();
  return el("fieldset", { class: "seat-choices" }, el("legend", {}, t("players")),
    [0, 1, 2].map((i) => field(`seat${i}`, t("seatN", { n: i + 1 }),
      select(`seat${i}`, choices, form.seats[i], (v) => { form.seats[i] = v; rerender(); }))));
}

/** The creator's name and seat: they sit down with the table (a person's seat only). */
function creatorFields() {
  const people = [0, 1, 2].filter((i) => form.seats[i] === "human");
  if (form.mySeat !== "" && !people.includes(Number(form.mySeat))) form.mySeat = people.length ? String(people[0]) : "";
  const options = [...people.map((i) => ({ value: String(i), label: t("seatN", { n: i + 1 }) })),
    { value: "", label: t("onlyWatch") }];
  return el("div", { class: "creator" },
    field("my-name", t("yourName"), el("input", {
      id: "my-name", "data-testid": "my-name", maxlength: 40, autocomplete: "nickname", value: form.me,
      "aria-required": form.mySeat === "" ? null : "true", oninput: (e) => { form.me = e.target.value; },
    })),
    field("my-seat", t("yourSeat"), select("my-seat", options, form.mySeat, (v) => { form.mySeat = v; rerender(); })));
}

function presetField(meta) {
  const options = [{ value: "", label: t("presetCustom") },
    ...Object.keys(meta.rules.presets).map((name) => ({
      value: name, label: translated(`preset_${keyPart(name)}`, name),
    }))];
  return el("div", { class: "preset" },
    field("preset", t("rulesPreset"), select("preset", options, presetOf(form.rules), (name) => {
      if (!name) return;
      form.rules = { ...meta.rules.presets[name] };
      rerender();
    })),
    el("p", { class: "muted rules-about", id: "rules-about", "data-testid": "rules-about" }, rulesAbout(meta)));
}

function ruleFields(meta) {
  const { min, max } = meta.rules.target;
  const switches = Object.entries(meta.rules.switches).map(([key, values]) => field(
    `rule-${key}`, translated(`rule_${key}`, key),
    select(`rule-${key}`, values.map((v) => ({ value: v, label: translated(`rule_${key}_${keyPart(v)}`, String(v)) })),
      form.rules[key], (v) => { form.rules[key] = v; showPreset(); })));
  return [
    field("target", t("rule_target"), el("input", {
      id: "target", "data-testid": "target", type: "number", min, max, value: form.rules.target,
      oninput: (e) => {
        form.rules.target = e.target.value === "" ? "" : Number(e.target.value);
        showPreset();
      },
    })),
    switches,
  ];
}

function takeoverField() {
  const options = [{ value: "", label: t("takeoverOff") },
    ...TAKEOVER_SECONDS.map((n) => ({ value: String(n), label: t("takeoverAfter", { n }) }))];
  return field("takeover", t("takeover"), select("takeover", options, form.takeover, (v) => { form.takeover = v; }));
}

function nextDealField() {
  const options = [{ value: "", label: t("nextDealServer") }, { value: "0", label: t("nextDealOff") },
    ...NEXT_DEAL_SECONDS.map((n) => ({ value: String(n), label: t("nextDealAfter", { n }) }))];
  return field("nextdeal", t("nextDealSetting"), select("nextdeal", options, form.nextDeal, (v) => { form.nextDeal = v; }));
}

/** Draw the lobby: the form and the lists (as last fetched). */
export function renderLobby() {
  if (!form) form = freshForm();
  const meta = getMeta();
  const created = el("form", { class: "new-table", "data-testid": "new-table", onsubmit: createTable },
    field("tname", t("tableName"), el("input", {
      id: "tname", maxlength: 80, value: form.name, placeholder: t("defaultTableName", { game: GAME.brand }),
      oninput: (e) => { form.name = e.target.value; },
    })),
    seatsField(),
    creatorFields(),
    practiceField(form),
    meta ? presetField(meta) : null,
    el("details", {
      class: "rules", open: form.rulesOpen, ontoggle: (e) => { form.rulesOpen = e.target.open; },
    }, el("summary", {}, t("rulesVariants")),
    el("div", { class: "fields" }, meta ? ruleFields(meta) : null, takeoverField(), nextDealField())),
    el("button", { class: "primary", type: "submit", "data-testid": "create" }, t("createTable")));
  app.replaceChildren(el("div", { class: "lobby" },
    el("section", { class: "panel" }, el("h1", {}, t("newTable")),
      el("p", { class: "learn-link" }, el("a", { href: "/learn", "data-testid": "learn-link" }, t("learn_link"))),
      el("p", { class: "learn-link" }, el("a", { href: "/sheet", "data-testid": "sheet-link" }, t("rsheet_link"))), created),
    el("section", { class: "panel", id: "lobby-lists" }, lists())));
}

function seatSummary(s) {
  if (s.kind === "bot") return seatDisplayName(s);
  return s.taken ? s.name : t("freeSeat");
}

function pager() {
  if (total <= PAGE && offset === 0) return null;
  const move = (by) => () => { offset = Math.max(0, offset + by); refreshLists(); };
  return el("p", { class: "pager", "data-testid": "pager" },
    el("button", { type: "button", "data-testid": "newer", disabled: offset === 0, onclick: move(-PAGE) },
      t("newerTables")),
    el("span", { class: "muted" }, ` ${t("tablesShown", {
      from: Math.min(offset + 1, total), to: Math.min(offset + tables.length, total), total,
    })} `),
    el("button", { type: "button", "data-testid": "older", disabled: offset + PAGE >= total, onclick: move(PAGE) },
      t("olderTables")));
}

function lists() {
  return [
    el("h2", {}, t("openTables")),
    pager(),
    tables.length
      ? el("ul", { class: "table-list" }, tables.map((tb) => el("li", {},
        el("a", { href: `/t/${tb.id}` }, tb.name),
        el("span", { class: "muted" }, ` · ${t("targetShort", { n: tb.rules.target })} · `,
          tb.seats.map(seatSummary).join(", ")))))
      : el("p", { class: "muted" }, t("noOpenTables")),
    el("p", {}, el("a", { href: "/replay" }, t("openRecordFile"))),
    games.length ? [
      el("h2", {}, t("finishedGames")),
      el("ul", { class: "table-list" }, games.map((tb) => el("li", {},
        el("a", { href: `/t/${tb.id}` }, tb.name),
        el("span", { class: "muted" }, " · "),
        el("a", { href: `/api/tables/${tb.id}/record`, download: `paston-${tb.id}.json` }, t("record")),
        el("span", { class: "muted" }, " · "),
        el("a", { href: `/replay/${tb.id}` }, t("replay"))))),
    ] : null,
  ];
}

function drawLists() {
  const box = document.getElementById("lobby-lists");
  if (box) box.replaceChildren(...lists().flat().filter(Boolean));
}

/** The server is unreachable: say so (in words, never the browser's "Failed to fetch")
 * and try again a little later each time. */
function retryLater(code) {
  say(`retry_${code}`, {}, true);
  if (retryTimer !== null) return;
  const wait = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
  retries += 1;
  retryTimer = setTimeout(() => { retryTimer = null; refreshLists(); }, wait);
}

/** The server answered again: the retry note goes, and the form gets its choices when
 * /api/meta could not be read at the start (what was typed is kept). */
async function reached() {
  retries = 0;
  if (saying() && saying().startsWith("retry_")) say(null);
  if (!getMeta()) {
    await loadMeta();
    form = { ...freshForm(), name: form ? form.name : "", me: form ? form.me : savedName() };
    rerender();
  }
}

async function refreshLists() {
  try {
    let page;
    [page, games] = await Promise.all([
      api(`/api/tables?limit=${PAGE}&offset=${offset}`), api("/api/games?limit=20"),
    ]);
    if (offset > 0 && offset >= page.total) { // the page emptied: show the last one
      offset = Math.max(0, Math.floor((page.total - 1) / PAGE) * PAGE);
      page = await api(`/api/tables?limit=${PAGE}&offset=${offset}`);
    }
    ({ tables, total } = page);
    drawLists();
    await reached();
  } catch (err) {
    if (UNREACHABLE.has(err.code)) retryLater(err.code);
    else showError(err.code, err.message);
  }
}

/** Refresh once, shortly, however many changes ask for it meanwhile. */
function refreshSoon() {
  if (pending === null) pending = setTimeout(() => { pending = null; refreshLists(); }, SETTLE_MS);
}

/** A pushed lobby event: changed tables are redrawn in place; a table added (on the first
 * page) or removed from the page shown means fetching the page again. */
function applyNews(news) {
  total = news.total;
  if (news.reset) return refreshSoon();
  let refetch = false;
  for (const change of news.changes) {
    if (change.op === "changed") {
      const i = tables.findIndex((tb) => tb.id === change.table.id);
      if (i >= 0) tables[i] = change.table;
    } else if (change.op === "removed" || offset === 0) {
      refetch = true; // a removed table may have finished: the finished games change too
    }
  }
  if (refetch) refreshSoon();
  else drawLists();
}

/** Listen to the server's lobby changes; if that fails, poll slowly and try again later. */
function listen() {
  if (typeof EventSource === "undefined") return poll();
  stream = new EventSource("/api/lobby/events");
  stream.addEventListener("ready", () => {
    if (poller !== null) { clearInterval(poller); poller = null; }
    refreshLists(); // what happened while not listening
  });
  stream.addEventListener("lobby", (e) => applyNews(JSON.parse(e.data)));
  stream.onerror = () => {
    if (stream.readyState !== EventSource.CLOSED) return; // the browser reconnects by itself
    stream = null;
    poll();
  };
}

function poll() {
  if (poller !== null) return;
  poller = setInterval(() => {
    refreshLists();
    if (stream === null && typeof EventSource !== "undefined") listen();
  }, POLL_MS);
}

async function createTable(e) {
  e.preventDefault();
  const seats = form.seats.map((choice) => {
    if (choice === "human") return { kind: "human" };
    const [bot, level] = choice.split(":");
    return level ? { kind: "bot", bot, level: Number(level) } : { kind: "bot", bot };
  });
  const name = form.name.trim() || t("defaultTableName", { game: GAME.brand });
  const body = { name, rules: { ...form.rules }, seats };
  if ("target" in body.rules) body.rules.target = Number(body.rules.target);
  if (form.takeover) body.takeover_seconds = Number(form.takeover);
  if (form.hints) body.hints = true;
  if (form.nextDeal !== "") body.next_deal_seconds = Number(form.nextDeal); // else the server's default
  const me = form.me.trim();
  if (form.mySeat !== "") {
    if (!me) {
      showError("bad-name");
      document.getElementById("my-name").focus();
      return;
    }
    body.creator = { name: me, seat: Number(form.mySeat) };
  }
  try {
    const made = await api("/api/tables", body);
    if (made.token) keepSeat(made.id, made.token, me); // the page it opens is the seat's
    location.href = made.invite;
  } catch (err) {
    showError(err.code, err.message);
  }
}

/** Show the lobby and keep its lists fresh. */
export async function lobby() {
  renderLobby();
  await refreshLists();
  if (stream === null && poller === null) listen();
}
