// The end of a deal: the summary the server sends (state.last_deal, built by
// paston/summary.py) while the table waits for Next (state.next_deal), and at the end of
// the game. The outcome, each seat's tricks against what it needed, its score with the
// rule that gave it, the totals (resets marked), the deal as dealt and the check of its
// shuffle (faircheck.js); a "Next deal"
// button, who is still to press it, and the time left.
import { cardNode, sortCards } from "./cards.js";
import { rerender } from "./chrome.js";
import { el } from "./dom.js";
import { fairnessView } from "./faircheck.js";
import { live } from "./live.js";
import { SEAT_COLORS } from "./players.js";
import { whyNote } from "./why.js";
import { GAME, has, num, signed, t, word } from "./text.js";

const deadlines = new Map(); // deal index -> when its pause ends (this page's clock)
// deal index -> the socket this page pressed Next on: a new socket (a reconnect, or a
// server that restarted and goes on with the pause) may press again
const pressed = new Map();
let ticker = null;

/** Tell the server this person is done looking at deal ``deal``. */
export function pressNext(deal) {
  const ws = live.socket;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  pressed.set(deal, ws);
  ws.send(JSON.stringify({ type: "next", deal }));
  rerender();
}

function secondsLeft(pause) {
  if (!deadlines.has(pause.deal)) deadlines.set(pause.deal, Date.now() + pause.ends_in * 1000);
  return Math.max(0, Math.ceil((deadlines.get(pause.deal) - Date.now()) / 1000));
}

/** Refresh the countdown once a second while a pause is shown (no re-render). */
function tick() {
  const node = document.querySelector("[data-testid=next-countdown]");
  const pause = live.state && live.state.next_deal;
  if (!node || !pause) { clearInterval(ticker); ticker = null; return; }
  node.textContent = t("endCountdown", { n: secondsLeft(pause) });
}

function headline(s, names) {
  const name = s.declarer === null ? "" : names[s.declarer];
  const contract = s.contract ? word(s.contract) : "";
  if (s.outcome === "surrender") return t("endSurrender", { name });
  if (s.outcome === "uncontested") return t("endUncontested", { name, contract });
  const tricks = s.seats[s.declarer].tricks;
  if (s.made) return t("endMade", { name, contract, tricks });
  return t("endFailed", { name, contract, tricks, short: s.short });
}

/** The words under key ``prefix + name`` in the language shown, or ``english`` (the
 * engine's words) when there is no name or this page does not know the key. */
function engineWords(prefix, name, params, english) {
  return name && has(prefix + name) ? t(prefix + name, params || {}) : english;
}

function seatRow(line, names, target, deal) {
  const played = line.tricks !== null;
  const enough = played && line.tricks >= line.needed;
  return el("tr", { "data-seat": line.seat, "data-role": line.role },
    el("th", { scope: "row" },
      el("span", { class: "dot", style: `background:${SEAT_COLORS[line.seat]}`, "aria-hidden": "true" }),
      el("span", { class: "name" }, names[line.seat]),
      el("span", { class: "role" }, t(`endRole_${line.role}`))),
    el("td", { class: `tricks ${played ? (enough ? "enough" : "short") : ""}`, "data-testid": "end-tricks" },
      played ? t("endTricksOf", { n: line.tricks, need: line.needed }) : "—"),
    el("td", { class: "score" },
      el("strong", {}, signed(line.score)), " ",
      whyNote(engineWords("scoreLine_", line.words, line.params, line.text), line.rule, `end-${deal}-${line.seat}`)),
    el("td", { class: "total" }, num(line.total),
      line.reset ? el("span", { class: "badge reset-badge", title: t("endReset", { n: target }) }, t("resetMark")) : null));
}

function handsView(s, names) {
  const row = (label, cards, extra = {}) => el("div", { class: "end-hand", ...extra },
    el("span", { class: "label" }, label),
    el("span", { class: "cards" }, sortCards(cards).map((c) => cardNode(c, { size: "tiny" }))));
  return el("details", { class: "end-hands", open: true },
    el("summary", {}, t("endHands")),
    s.seats.map((line) => row(names[line.seat], line.hand, { "data-testid": "end-hand", "data-seat": line.seat })),
    row(GAME.prikup, s.prikup, { "data-testid": "end-prikup" }),
    s.discard.length ? row(t("endDiscard", { name: names[s.declarer] }), s.discard, { "data-testid": "end-discard" }) : null);
}

function nextControls(state, s, names) {
  const pause = state.next_deal;
  if (!pause || pause.deal !== s.deal) return [];
  const you = state.you;
  const done = pressed.get(pause.deal) === live.socket;
  const mine = you !== null && pause.waiting.includes(you) && !done;
  const others = pause.waiting.filter((w) => w !== you || done);
  if (!ticker) ticker = setInterval(tick, 1000);
  return [
    you !== null ? el("button", {
      type: "button", class: "primary", "data-testid": "next-deal", disabled: !mine, onclick: () => pressNext(pause.deal),
    }, mine ? t("endNext") : t("endReady")) : null,
    others.length ? el("span", { class: "muted", "data-testid": "next-waiting" },
      t("endWaitingFor", { names: others.map((w) => names[w]).join(", ") })) : null,
    el("span", { class: "muted", "data-testid": "next-countdown" }, t("endCountdown", { n: secondsLeft(pause) })),
  ];
}

/** The end-of-deal panel for ``state`` (null when there is nothing to show): while the
 * table waits for Next, and under the end of the game. */
export function endDealView(state, names) {
  const s = state.last_deal;
  const pause = state.next_deal;
  if (!s || !((pause && pause.deal === s.deal) || state.winners.length)) return null;
  const analysis = typeof window.pastonOpenAnalysis === "function";
  const outcome = s.outcome === "played" ? (s.made ? "made" : "failed") : s.outcome;
  return el("section", {
    class: "panel end-deal", "data-testid": "end-deal", "data-outcome": outcome, "data-deal": s.deal,
    role: "region", "aria-label": t("endTitle", { n: state.sheet.length }),
  },
  el("h2", {}, t(state.winners.length ? "endFinal" : "endTitle", { n: state.sheet.length })),
  el("p", { class: `end-headline ${outcome}`, "data-testid": "end-headline" }, headline(s, names), " ",
    whyNote(engineWords("outcomeWords_", s.outcome, {}, s.outcome_text), s.outcome_rule, `end-${s.deal}`)),
  s.all_passed ? el("p", { class: "muted", "data-testid": "end-all-passed" }, t("endAllPassed")) : null,
  s.bid && s.contract && s.bid !== s.contract ? el("p", { class: "muted" }, t("endBid", { contract: word(s.bid) })) : null,
  // Next and the analysis first: on a phone they are in the first screen, the details below
  el("p", { class: "buttons end-buttons" }, nextControls(state, s, names),
    analysis ? el("button", {
      type: "button", "data-testid": "analysis", onclick: () => window.pastonOpenAnalysis(live.tableId, s.deal),
    }, t("endAnalysis")) : null),
  el("div", { class: "end-table-wrap" }, el("table", { class: "end-table", "data-testid": "end-seats" },
    el("thead", {}, el("tr", {}, [t("endPlayer"), t("endTricks"), t("endScore"), t("endTotal")]
      .map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, s.seats.map((line) => seatRow(line, names, state.table.rules.target, s.deal))))),
  handsView(s, names),
  fairnessView(state, s));
}
