// The table's live log for screen readers (issue 12 §7): every move of every seat, who
// took each trick and how each deal ended, and "your turn" when the turn comes to this
// page's seat, in one polite role="log" region, in the language chosen (entries already
// there are reworded in place, not read again).
import { cardName } from "./cards.js";
import { onLanguage } from "./chrome.js";
import { el } from "./dom.js";
import { seatNames } from "./players.js";
import { outcomeText } from "./sheet.js";
import { GAME, has, signed, t, word } from "./text.js";

const KEEP = 400; // entries kept in the region (a deal has at most about 40)
let region = null;
let heard = null; // what was logged: {deal, count, rows, over, won}

function logRegion() {
  if (!region) {
    region = el("div", {
      id: "live-log", class: "sr-only", role: "log", "aria-live": "polite", "aria-relevant": "additions",
      "data-testid": "live-log",
    });
    document.querySelector("header").append(region); // in the banner, like the status line
    onLanguage(reword);
  }
  region.setAttribute("aria-label", t("liveLog"));
  return region;
}

/** Add an entry whose words ``words()`` gives (called again when the language changes). */
function add(words, data) {
  const box = logRegion();
  const attrs = { class: "entry" };
  for (const [k, v] of Object.entries(data)) if (v !== undefined && v !== null) attrs[`data-${k}`] = v;
  const entry = el("p", attrs, words());
  entry.words = words;
  box.append(entry);
  while (box.childElementCount > KEEP) box.firstElementChild.remove();
}

/** Say that the turn has come to this page's seat, to do what ``phase`` asks ("Your turn:
 * play a card"), after the moves the same state brought: in this one polite region, so
 * the cue follows the line naming the card led instead of cutting it off, as an
 * assertive region's would (docs/rules-decisions.md X12). ``more()`` adds the coach's
 * line of a guided deal to the same entry (L14). */
export function logTurn(phase, more = () => "") {
  if (!has(`yourTurn_${phase}`)) return;
  const extra = more(); // the coach's line on a guided deal: said with the cue, one message
  add(() => [t(`yourTurn_${phase}`), extra].filter(Boolean).join(" "), { type: "turn", phase });
}

/** Add a note of another part of the page (the check of a deal's shuffle, faircheck.js):
 * ``words()`` gives it in the language shown. */
export function logNote(words, data = {}) {
  add(words, data);
}

function reword() {
  logRegion();
  for (const entry of region.children) if (entry.words) entry.textContent = entry.words();
}

/** A history entry in words; ``table`` names the seats (in the language shown then). */
function moveWords(h, table, stage) {
  const name = () => seatNames(table)[h.seat];
  switch (h.type) {
    case "bid": return () => t("log_bid", { name: name(), contract: word(h.value) });
    case "pass": return () => t(stage === "defence" ? "log_passDefence" : "log_pass", { name: name() });
    case "discard": return h.hidden || !h.cards
      ? () => t("log_discardHidden", { name: name() })
      : () => t("log_discard", { name: name(), cards: h.cards.map(cardName).join(t("log_and")) });
    case "trump": return () => t("log_trump", { name: name(), contract: word(h.value) });
    case "surrender": return () => t("log_surrender", { name: name() });
    case "whist": return () => t("log_whist", { name: name(), whist: GAME.whist });
    case "play": return () => t("log_play", { name: name(), card: cardName(h.card) });
    default: return () => `${name()}: ${h.type}`;
  }
}

/** The stage of the deal each entry of ``history`` was made in (auction, then defence). */
function stages(history) {
  let stage = "auction";
  return history.map((h) => {
    if (h.type === "trump") stage = "defence";
    return h.type === "trump" ? "trump" : stage;
  });
}

/** Who took the trick completed by the play at ``i`` of ``history``, or undefined. */
function trickWinner(history, i, view) {
  const plays = history.slice(0, i + 1).filter((h) => h.type === "play").length;
  const perTrick = 1 + (view.defenders || []).length;
  if (perTrick < 2 || plays % perTrick !== 0) return undefined;
  const next = history.slice(i + 1).find((h) => h.type === "play");
  if (next) return next.seat; // the winner leads the next trick (R6.3)
  return view.last_trick ? view.last_trick.winner : undefined;
}

function logMoves(state, from) {
  const v = state.view;
  const stage = stages(v.history);
  for (let i = from; i < v.history.length; i++) {
    const h = v.history[i];
    add(moveWords(h, state.table, stage[i]), {
      seat: h.seat, type: h.type, value: h.value, card: h.card, cards: h.cards ? h.cards.join(" ") : null,
    });
    if (h.type === "play") {
      const winner = trickWinner(v.history, i, v);
      if (winner !== undefined) {
        add(() => t("log_trick", { name: seatNames(state.table)[winner] }), { type: "trick", seat: winner });
      }
    }
  }
}

function logDealEnd(state, row) {
  const table = state.table;
  const v = state.view;
  const result = v.phase === "over" && v.result && v.result.declarer === row.declarer ? v.result : null;
  add(() => {
    const names = seatNames(table);
    let outcome = outcomeText(row, names);
    if (row.outcome === "played" && result) {
      const n = result.tricks[row.declarer];
      outcome = t(n >= 6 ? "log_made" : "log_failed", {
        name: names[row.declarer], contract: word(row.contract), n,
      });
    }
    const scores = row.scores.map((sc, i) => t("log_score", { name: names[i], score: signed(sc) })).join(", ");
    return t("log_dealOver", { n: row.deal, outcome, scores });
  }, { type: "deal-over", deal: row.deal, outcome: row.outcome });
}

function logRedeal(state) {
  const reason = state.view.redeal;
  add(() => t("log_redeal", { reason: t(`logRedeal_${reason}`) }), { type: "redeal", reason });
}

function logGameOver(state) {
  const table = state.table;
  const winners = state.winners;
  add(() => {
    const who = winners.map((w) => seatNames(table)[w]).join(t("and"));
    return t("log_gameOver", { winners: t(winners.length > 1 ? "winnersShare" : "winnerWins", { names: who }) });
  }, { type: "game-over" });
}

/** The last deal's final trick when the new deal came before its plays were heard. */
function logMissedTrick(state, held) {
  const last = state.previous_trick;
  if (!last || !held) return;
  const heardCards = new Set(held.plays);
  const missing = last.plays.filter((p) => !heardCards.has(p.card));
  if (!missing.length) return;
  for (const p of missing) {
    add(moveWords({ seat: p.seat, type: "play", card: p.card }, state.table, "play"),
      { seat: p.seat, type: "play", card: p.card });
  }
  add(() => t("log_trick", { name: seatNames(state.table)[last.winner] }), { type: "trick", seat: last.winner });
}

/** Log what changed since the last state heard (nothing for the first: it is the page's
 * starting point, not news). */
export function logState(state) {
  const v = state.view;
  const deal = state.deals ? state.deals.length - 1 : 0;
  const plays = () => v.history.filter((h) => h.type === "play").map((h) => h.card);
  if (heard === null) {
    logRegion();
    heard = { deal, count: v.history.length, rows: state.sheet.length, over: v.phase === "redeal",
      won: state.winners.length > 0, plays: plays() };
    return;
  }
  if (deal !== heard.deal) {
    logMissedTrick(state, heard);
    heard = { ...heard, deal, count: 0, over: false, plays: [] };
  }
  if (v.history.length < heard.count) heard.count = 0; // the first deal was shuffled again
  logMoves(state, heard.count);
  heard.count = v.history.length;
  heard.plays = plays();
  for (const row of state.sheet.slice(heard.rows)) logDealEnd(state, row);
  heard.rows = Math.max(heard.rows, state.sheet.length);
  if (v.phase === "redeal" && v.redeal && !heard.over) {
    logRedeal(state);
    heard.over = true;
  }
  if (state.winners.length && !heard.won) {
    logGameOver(state);
    heard.won = true;
  }
}
