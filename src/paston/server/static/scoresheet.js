// The score sheet of a game played with real cards (/sheet, /sheet/<id>): three names
// make a sheet; its maker enters each deal in a few taps (how it ended, the declarer,
// the contract, who said whist, the tricks) and may undo the last. Every score, total,
// reset (R8.2) and the winner come from the server (paston.sheet): nothing is scored here.
// The owner token stays in this browser (localStorage); the address is the read-only share link.
import { api } from "./api.js";
import { app, rerender, say, showError } from "./chrome.js";
import { el } from "./dom.js";
import { getMeta } from "./players.js";
import { scoreAndTotal, sheetKey } from "./sheetkey.js";
import { GAME, errorText, has, num, t, word } from "./text.js";

const CONTRACTS = ["spades", "clubs", "diamonds", "hearts", "best-spades"];
const OUTCOMES = ["played", "uncontested", "surrender"];
const MINE = "paston-sheets"; // [{id, players}] of the sheets made in this browser
const TOKEN = (id) => `paston-sheet-${id}`;
const POLL_MS = 5000; // a read-only sheet follows its maker's entries this often
const KEEP = 20; // sheets remembered in this browser

let sheet = null; // the server's view of the sheet shown (GET /api/sheets/<id>)
let sheetId = null;
let making = null; // the new-sheet form: {names, preset, target}
let entry = null; // the deal being entered
let busy = false;
let poller = null;
let lost = null; // why the sheet asked for could not be shown

function ownToken(id) {
  try { return localStorage.getItem(TOKEN(id)); } catch { return null; }
}

function mySheets() {
  try {
    const list = JSON.parse(localStorage.getItem(MINE) || "[]");
    return Array.isArray(list) ? list.filter((s) => s && typeof s.id === "string" && Array.isArray(s.players)) : [];
  } catch { return []; }
}

function remember(made) {
  const list = [{ id: made.id, players: made.sheet.players }, ...mySheets().filter((s) => s.id !== made.id)];
  localStorage.setItem(TOKEN(made.id), made.token);
  localStorage.setItem(MINE, JSON.stringify(list.slice(0, KEEP)));
}

function freshEntry() {
  return { outcome: "played", declarer: null, contract: null, whist: [], tricks: 6, first: 2 };
}

function field(id, label, control) {
  return el("div", { class: "field" }, el("label", { for: id }, label), control);
}

/** A group of radio buttons drawn as buttons in a row (arrow keys move in the group). */
function choices(name, legend, options, current, change) {
  return el("fieldset", { class: "rs-choices", "data-testid": `rs-${name}` }, el("legend", {}, legend),
    el("div", { class: "rs-pills" }, options.map((o) => {
      const id = `rs-${name}-${o.value}`;
      return el("span", { class: "rs-pill" },
        el("input", {
          type: "radio", name: `rs-${name}`, id, value: String(o.value), checked: current === o.value,
          onchange: () => { change(o.value); rerender(); },
        }),
        el("label", { for: id }, o.label));
    })));
}

// --- a new sheet ----------------------------------------------------------------------------------
function newSheetView() {
  const meta = getMeta();
  if (!making) making = { names: ["", "", ""], preset: "spanish", target: meta ? meta.rules.target.default : 121 };
  const presets = meta ? Object.keys(meta.rules.presets) : ["spanish"];
  const presetLabel = (name) => {
    const key = `preset_${name.replace(/[^A-Za-z0-9]/g, "_")}`;
    return has(key) ? t(key) : name;
  };
  const form = el("form", { class: "rs-new", "data-testid": "rs-new", onsubmit: createSheet },
    el("fieldset", { class: "rs-names" }, el("legend", {}, t("rsheet_players")),
      [0, 1, 2].map((i) => field(`rs-name${i}`, t("rsheet_playerN", { n: i + 1 }), el("input", {
        id: `rs-name${i}`, "data-testid": `rs-name${i}`, maxlength: 40, required: true, autocomplete: "off",
        value: making.names[i], oninput: (e) => { making.names[i] = e.target.value; },
      })))),
    el("div", { class: "rs-rules" },
      field("rs-preset", t("rulesPreset"), el("select", {
        id: "rs-preset", "data-testid": "rs-preset",
        onchange: (e) => {
          making.preset = e.target.value;
          if (meta) making.target = meta.rules.presets[making.preset].target;
          rerender();
        },
      }, presets.map((name) => el("option", { value: name, selected: name === making.preset }, presetLabel(name))))),
      field("rs-target", t("rule_target"), el("input", {
        id: "rs-target", "data-testid": "rs-target", type: "number", min: 1, max: 100000, inputmode: "numeric",
        value: String(making.target), oninput: (e) => { making.target = e.target.value; },
      }))),
    el("button", { class: "primary", type: "submit", "data-testid": "rs-create" }, t("rsheet_create")));
  const list = mySheets();
  return el("div", { class: "rs-page" },
    el("section", { class: "panel" }, el("h1", {}, t("rsheet_title")), el("p", { class: "muted" }, t("rsheet_intro")), form),
    list.length ? el("section", { class: "panel" }, el("h2", {}, t("rsheet_mine")),
      el("ul", { class: "table-list", "data-testid": "rs-mine" }, list.map((s) => el("li", {},
        el("a", { href: `/sheet/${encodeURIComponent(s.id)}` }, s.players.map(String).join(" · ")))))) : null);
}

async function createSheet(e) {
  e.preventDefault();
  if (busy) return;
  const meta = getMeta();
  const rules = { ...(meta ? meta.rules.presets[making.preset] : {}), target: Number(making.target) };
  busy = true;
  try {
    const made = await api("/api/sheets", { players: making.names.map((n) => n.trim()), rules });
    remember(made);
    making = null;
    location.href = made.share; // the sheet's own address: the link to share, and this page's
  } catch (err) {
    showError(err.code, err.message);
  } finally {
    busy = false;
  }
}

// --- entering a deal --------------------------------------------------------------------------------
function others(seat) {
  return [0, 1, 2].filter((s) => s !== seat);
}

function trickCount(id, label, max, value, change) {
  const options = [];
  for (let n = 0; n <= max; n += 1) options.push(el("option", { value: String(n), selected: n === value }, String(n)));
  return field(id, label, el("select", {
    id, "data-testid": id, onchange: (e) => { change(Number(e.target.value)); rerender(); },
  }, options));
}

/** Tricks per seat of the entry (for a played deal with its declarer and whisters chosen). */
function tricksOf() {
  const counts = [0, 0, 0];
  const d = entry.declarer;
  counts[d] = entry.tricks;
  const whist = others(d).filter((s) => entry.whist.includes(s));
  if (whist.length === 1) counts[whist[0]] = 10 - entry.tricks;
  if (whist.length === 2) {
    counts[whist[0]] = Math.min(entry.first, 10 - entry.tricks);
    counts[whist[1]] = 10 - entry.tricks - counts[whist[0]];
  }
  return counts;
}

function entryView() {
  const names = sheet.players;
  const parts = [
    choices("outcome", t("rsheet_outcome"), OUTCOMES.map((o) => ({ value: o, label: t(`rsheet_outcome_${o}`) })),
      entry.outcome, (v) => { entry.outcome = v; }),
    choices("declarer", t("rsheet_declarer"), names.map((n, i) => ({ value: i, label: n })), entry.declarer, (v) => {
      entry.declarer = v;
      entry.whist = others(v);
    }),
  ];
  if (entry.outcome !== "surrender") {
    parts.push(choices("contract", t("rsheet_contract"), CONTRACTS.map((c) => ({ value: c, label: word(c) })),
      entry.contract, (v) => { entry.contract = v; }));
  }
  if (entry.outcome === "played" && entry.declarer !== null) {
    const d = entry.declarer;
    parts.push(el("fieldset", { class: "rs-choices", "data-testid": "rs-whist" },
      el("legend", {}, t("rsheet_whist", { whist: GAME.whist })),
      el("div", { class: "rs-pills" }, others(d).map((s) => el("span", { class: "rs-pill" },
        el("input", {
          type: "checkbox", id: `rs-whist-${s}`, checked: entry.whist.includes(s),
          onchange: (e) => {
            entry.whist = others(d).filter((o) => (o === s ? e.target.checked : entry.whist.includes(o)));
            rerender();
          },
        }),
        el("label", { for: `rs-whist-${s}` }, names[s]))))));
    const whist = others(d).filter((s) => entry.whist.includes(s));
    const counts = tricksOf();
    const tricks = [trickCount("rs-tricks", t("rsheet_tricksOf", { name: names[d] }), 10, entry.tricks, (v) => { entry.tricks = v; })];
    if (whist.length === 2) {
      tricks.push(trickCount("rs-first", t("rsheet_tricksOf", { name: names[whist[0]] }), 10 - entry.tricks,
        counts[whist[0]], (v) => { entry.first = v; }));
    }
    const rest = whist.length ? whist[whist.length - 1] : null;
    parts.push(el("div", { class: "rs-tricks" }, tricks,
      rest === null ? null : el("p", { class: "rs-rest", "data-testid": "rs-rest" },
        t("rsheet_tricksRest", { name: names[rest], n: counts[rest] }))));
  }
  return el("form", { class: "panel rs-entry", "data-testid": "rs-entry", onsubmit: addDeal },
    el("h2", {}, t("rsheet_newDeal", { n: sheet.deals.length + 1 })), parts,
    el("div", { class: "rs-buttons" },
      el("button", { class: "primary", type: "submit", "data-testid": "rs-add", disabled: busy }, t("rsheet_add")),
      el("button", {
        type: "button", "data-testid": "rs-undo", disabled: busy || !sheet.deals.length, onclick: undoDeal,
      }, t("rsheet_undo"))));
}

function dealBody() {
  const body = { token: ownToken(sheetId), outcome: entry.outcome, declarer: entry.declarer, deals: sheet.deals.length };
  if (entry.outcome !== "surrender") body.contract = entry.contract;
  if (entry.outcome === "played") {
    body.defenders = others(entry.declarer).filter((s) => entry.whist.includes(s));
    body.tricks = tricksOf();
  }
  return body;
}

async function change(path, body, after) {
  if (busy) return;
  busy = true;
  rerender();
  try {
    sheet = await api(path, body);
    after();
    say(null);
  } catch (err) {
    showError(err.code, err.message);
    if (err.code === "sheet-changed") sheet = await api(`/api/sheets/${sheetId}`).catch(() => sheet);
  } finally {
    busy = false;
    rerender();
  }
}

async function addDeal(e) {
  e.preventDefault();
  if (entry.declarer === null) return missing("rsheet_chooseDeclarer", "rs-declarer");
  if (entry.outcome !== "surrender" && entry.contract === null) return missing("rsheet_chooseContract", "rs-contract");
  const body = dealBody();
  await change(`/api/sheets/${sheetId}/deals`, body, () => { entry = freshEntry(); });
  document.querySelector("#rs-outcome-played")?.focus({ preventScroll: true });
}

function missing(key, group) {
  say(key, {}, true);
  document.querySelector(`[data-testid=${group}] input`)?.focus();
}

async function undoDeal() {
  const last = sheet.deals[sheet.deals.length - 1];
  await change(`/api/sheets/${sheetId}/undo`, { token: ownToken(sheetId), deals: sheet.deals.length }, () => {
    entry = freshEntry(); // the deal taken back is in the form again: one tap enters it once more
    Object.assign(entry, { outcome: last.outcome, declarer: last.declarer, contract: last.contract, whist: last.defenders });
    if (last.outcome === "played") {
      entry.tricks = last.tricks[last.declarer];
      if (last.defenders.length === 2) entry.first = last.tricks[last.defenders[0]];
    }
  });
}

// --- the sheet ------------------------------------------------------------------------------------------
/** A deal in words: "Ana: gupa ♥ made, 7 tricks; whist: Bo". */
function dealText(d) {
  const names = sheet.players;
  const who = names[d.declarer];
  if (d.outcome === "surrender") return t("rsheet_didSurrender", { name: who });
  if (d.outcome === "uncontested") return t("rsheet_didUncontested", { name: who, contract: word(d.contract) });
  const whist = d.defenders.map((s) => names[s]).join(", ");
  return t(d.made ? "rsheet_didMake" : "rsheet_didFail",
    { name: who, contract: word(d.contract), n: d.tricks[d.declarer], whist, whistWord: GAME.whist });
}

function totalsView() {
  const target = sheet.rules.target;
  const over = sheet.winners.length
    ? el("p", { class: "rs-over", "data-testid": "rs-over" }, t(sheet.winners.length > 1 ? "rsheet_shared" : "rsheet_won",
      { names: sheet.winners.map((s) => sheet.players[s]).join(" & ") }))
    : null;
  return el("section", { class: "panel rs-totals", "aria-labelledby": "rs-totals-h" },
    el("h2", { id: "rs-totals-h" }, t("rsheet_totals", { n: target })),
    el("ul", { class: "rs-total-list", "data-testid": "rs-totals" }, sheet.players.map((name, i) => el("li", {
      "data-seat": i, class: sheet.winners.includes(i) ? "winner" : null,
    }, el("span", { class: "rs-name" }, name), el("span", { class: "rs-total", "data-total": sheet.totals[i] }, num(sheet.totals[i]))))),
    over);
}

/** The classes of a cell's two numbers on this page. */
const RS_CELL = { score: "rs-score", total: "rs-run" };

function dealsView() {
  const names = sheet.players;
  if (!sheet.deals.length) return el("section", { class: "panel" }, el("h2", {}, t("rsheet_deals")), el("p", { class: "muted" }, t("rsheet_noDeals")));
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col" }, el("span", { "aria-hidden": "true" }, "#"), el("span", { class: "sr-only" }, t("rsheet_dealNo"))),
    el("th", { scope: "col" }, t("rsheet_deal")),
    names.map((name) => el("th", { scope: "col", class: "rs-seat" }, name))));
  const rows = sheet.deals.slice().reverse().map((d) => el("tr", { "data-deal": d.number },
    el("th", { scope: "row" }, String(d.number)),
    el("td", { class: "rs-what" }, dealText(d)),
    d.totals.map((total, i) => {
      const reset = d.resets.includes(i);
      return el("td", { class: reset ? "rs-seat reset" : "rs-seat" },
        scoreAndTotal(d.scores[i], total, RS_CELL),
        reset ? el("span", { class: "rs-reset", title: t("rsheet_resetTitle", { n: sheet.rules.target }) }, t("rsheet_resetMark")) : null);
    })));
  const resets = sheet.deals.some((d) => d.resets.length);
  return el("section", { class: "panel" }, el("h2", {}, t("rsheet_deals")), sheetKey(RS_CELL),
    el("table", { class: "rs-sheet", "data-testid": "rs-sheet" },
      el("caption", { class: "sr-only" }, t("rsheet_caption")), head, el("tbody", {}, rows)),
    resets ? el("p", { class: "muted" }, t("rsheet_resetNote", { n: sheet.rules.target, mark: t("rsheet_resetMark") })) : null);
}

function shareView(owner) {
  const link = `${location.origin}/sheet/${sheetId}`;
  return el("section", { class: "panel rs-share" },
    el("h2", {}, t("rsheet_share")),
    el("p", {}, owner ? t("rsheet_shareOwner") : t("rsheet_readOnly")),
    el("p", {}, el("a", { href: `/sheet/${sheetId}`, "data-testid": "rs-share-link", class: "rs-link" }, link)),
    el("p", {}, el("a", {
      href: `/api/sheets/${sheetId}/export`, download: `paston-sheet-${sheetId}.json`, "data-testid": "rs-export",
    }, t("rsheet_export")), " ", el("span", { class: "muted" }, t("rsheet_exportNote"))),
    el("p", {}, el("a", { href: "/sheet" }, t("rsheet_another"))));
}

function sheetPage() {
  if (!sheet) return el("p", { class: "muted" }, t("rsheet_loading"));
  const owner = Boolean(ownToken(sheetId));
  return el("div", {
    class: "rs-page", "data-testid": "rs-page", "data-owner": owner ? "true" : "false", "data-deals": sheet.deals.length,
  },
  el("h1", {}, sheet.players.join(" · ")),
  totalsView(),
  owner && !sheet.over ? entryView() : null,
  owner && sheet.over ? el("p", {}, el("button", {
    type: "button", "data-testid": "rs-undo", disabled: busy, onclick: undoDeal,
  }, t("rsheet_undo"))) : null,
  dealsView(),
  shareView(owner));
}

/** Draw the sheet page (the new-sheet form at /sheet). */
export function renderScoreSheet() {
  if (lost) {
    app.replaceChildren(el("section", { class: "panel rs-page", "data-testid": "rs-missing" },
      el("p", {}, errorText(lost.code, lost.message)), el("p", {}, el("a", { href: "/sheet" }, t("rsheet_another")))));
    return;
  }
  app.replaceChildren(sheetId === null ? newSheetView() : sheetPage());
}

async function showSheet(id, view) {
  sheetId = id;
  entry = freshEntry();
  sheet = view ?? null;
  renderScoreSheet();
  if (!sheet) {
    try {
      sheet = await api(`/api/sheets/${encodeURIComponent(id)}`);
    } catch (err) {
      lost = err; // no such sheet (or no answer): said on the page, in the language shown
      showError(err.code, err.message);
      renderScoreSheet();
      return;
    }
    renderScoreSheet();
  }
  if (poller === null && !ownToken(id)) {
    poller = setInterval(async () => {
      if (document.hidden || sheet?.over) return;
      try {
        const now = await api(`/api/sheets/${id}`);
        if (JSON.stringify(now) === JSON.stringify(sheet)) return; // nothing new: the page stays as it is
        sheet = now;
        rerender();
      } catch { /* the next try */ }
    }, POLL_MS);
  }
}

/** Show the page ``/sheet`` (``id`` null) or ``/sheet/<id>``. */
export async function scoreSheet(id) {
  if (id) await showSheet(id);
  else renderScoreSheet();
}
