// The coach of a guided practice deal (a table opened as /t/<id>?coach=1 from the Learn
// page): from the table's state alone (phase, legal actions, this seat's view) it says
// what to do now and why, who took the last trick and why, and how the last deal scored.
import { el } from "./dom.js";
import { loadScoreFacts, scoreFacts } from "./learn.js";
import { seatNames } from "./players.js";
import { cardText } from "./cards.js";
import { askHint, canHint } from "./hint.js";
import { outcomeText } from "./sheet.js";
import { rerender } from "./chrome.js";
import { GAME, signed, t, word } from "./text.js";

const SYMBOL = { S: "♠", C: "♣", D: "♦", H: "♥" };
const TRUMP = { spades: "S", clubs: "C", diamonds: "D", hearts: "H", "best-spades": "S" };

/** Whether this page coaches: the table was opened from the Learn page. */
export function coaching() {
  return new URLSearchParams(location.search).has("coach");
}

function suit(s) {
  return `${t(`suitName_${s}`)} ${SYMBOL[s]}`;
}

function ladder() {
  return ["spades", "clubs", "diamonds", "hearts", "best-spades"].map(word).join(" < ");
}

/** The hand in a few facts: its longest suit and how many aces. */
function handFacts(hand) {
  const counts = { S: 0, C: 0, D: 0, H: 0 };
  for (const c of hand) counts[c[1]] += 1;
  const longest = Object.keys(counts).reduce((a, b) => (counts[b] > counts[a] ? b : a));
  return { suit: suit(longest), n: counts[longest], aces: hand.filter((c) => c[0] === "A").length };
}

/** Why the last trick went where it did (R6.3). */
function trickLine(v, trick, names) {
  const trump = TRUMP[v.contract];
  const winning = trick.plays.find((x) => x.seat === trick.winner).card;
  const key = winning[1] === trump && trick.plays[0].card[1] !== trump ? "coach_trick_trump" : "coach_trick_high";
  return { key, params: { name: names[trick.winner], card: cardText(winning), suit: suit(trick.plays[0].card[1]) } };
}

function playStep(v, you, names, quotas) {
  const active = v.declarer === you || v.defenders.includes(you);
  const lines = [];
  if (!active) return { id: "play-out", lines: [{ key: "coach_play_out", params: { whist: GAME.whist } }] };
  const trump = TRUMP[v.contract];
  if (v.to_move !== you) {
    lines.push({ key: "coach_play_wait", params: { name: names[v.to_move] } });
  } else if (!v.trick.length) {
    lines.push({ key: v.declarer === you ? "coach_play_lead_declarer" : "coach_play_lead_defender", params: { trump: suit(trump) } });
  } else {
    const led = v.trick[0].card[1];
    const has = (s) => v.hand.some((c) => c[1] === s);
    const key = has(led) ? "coach_play_follow" : has(trump) ? "coach_play_trump" : "coach_play_any";
    lines.push({ key, params: { suit: suit(led), trump: suit(trump) } });
  }
  const need = v.declarer === you ? quotas.declarer : v.defenders.length === 2 ? quotas["two-defenders"] : quotas["lone-defender"];
  lines.push({ key: "coach_progress", params: { mine: v.tricks[you], need } });
  const id = v.to_move !== you ? "play-wait" : !v.trick.length ? "play-lead" : `play-${lines[0].key.slice(11)}`;
  return { id, lines };
}

/** What the coach says now: a step id (for tests and styling) and its lines. */
function step(state, facts) {
  const v = state.view, you = state.you, names = seatNames(state.table);
  const mine = v.to_move === you;
  const declarer = v.declarer === null ? "" : names[v.declarer];
  const contract = v.contract ? word(v.contract) : v.high_bid ? word(v.high_bid) : "";
  if (you === null) return { id: "sit", lines: [{ key: "coach_sit" }] };
  if (state.winners.length) return { id: "game-over", lines: [{ key: "coach_game_over" }] };
  if (state.shuffling || state.sealed || v.to_move === null) return { id: "wait", lines: [{ key: "coach_shuffling" }] };
  const quotas = facts.quotas;
  switch (v.phase) {
    case "auction": {
      if (!mine) {
        const out = !v.in_auction.includes(you) && v.history.some((h) => h.seat === you);
        return out ? { id: "auction-out", lines: [{ key: "coach_auction_out" }] }
          : { id: "auction-wait", lines: [{ key: "coach_auction_wait", params: { name: names[v.to_move], ladder: ladder() } }] };
      }
      const bid = v.legal.find((a) => a.startsWith("bid "));
      const lines = bid
        ? [{ key: "coach_auction_bid", params: { contract: word(bid.split(" ")[1]), need: quotas.declarer } },
          { key: "coach_auction_why", params: handFacts(v.hand) }]
        : [{ key: "coach_auction_passOnly" }];
      return { id: "auction-mine", lines };
    }
    case "discard":
      return mine
        ? { id: "discard-mine", lines: [{ key: "coach_discard_mine", params: { prikup: GAME.prikup } }, { key: "coach_discard_why" }] }
        : { id: "discard-wait", lines: [{ key: "coach_discard_wait", params: { name: declarer, prikup: GAME.prikup } }] };
    case "trump": {
      if (!mine) return { id: "trump-wait", lines: [{ key: "coach_trump_wait", params: { name: declarer } }] };
      const choices = v.legal.filter((a) => a.startsWith("trump ")).map((a) => word(a.split(" ")[1]));
      const bid = v.high_bid || "spades";
      const failed = facts.rows.find((r) => r.key === "declarer-failed").scores[facts.contracts.findIndex((c) => c.contract === bid)];
      return { id: "trump-mine", lines: [
        { key: "coach_trump_mine", params: { choices: choices.join(", ") } },
        { key: "coach_trump_why", params: {
          declarer: signed(facts.surrender.declarer), opponent: signed(state.table.rules.surrender_bonus ?? facts.surrender.opponent),
          failed: signed(failed), contract: word(bid),
        } }] };
    }
    case "defence":
      return mine
        ? { id: "defence-mine", lines: [
          { key: "coach_defence_mine", params: { name: declarer, contract, need: quotas.declarer, whist: GAME.whist } },
          { key: "coach_defence_why", params: { two: quotas["two-defenders"], lone: quotas["lone-defender"], whist: GAME.whist } }] }
        : { id: "defence-wait", lines: [{ key: "coach_defence_wait", params: { name: names[v.to_move], whist: GAME.whist } }] };
    case "play":
      return playStep(v, you, names, quotas);
    default:
      return { id: "wait", lines: [{ key: "coach_shuffling" }] };
  }
}

/** Tell screen readers what the coach says now, once per change (a polite live region that
 * stays in place while the panel is drawn again). */
function speak(text) {
  let region = document.getElementById("coach-live");
  if (!region) {
    region = el("div", { id: "coach-live", class: "sr-only", "aria-live": "polite" });
    document.body.append(region);
  }
  if (region.textContent !== text) region.textContent = text;
}

/** The coach's panel for ``state`` (null when this page does not coach). */
export function coachPanel(state) {
  if (!coaching() || !state) return null;
  const facts = scoreFacts();
  if (!facts) loadScoreFacts(() => rerender());
  const names = seatNames(state.table);
  const now = facts ? step(state, facts) : { id: "loading", lines: [{ key: "learn_loading" }] };
  const v = state.view;
  const said = now.lines.map((line) => t(line.key, line.params || {}));
  speak(said[0]);
  const extra = [];
  const last = v.phase === "play" ? v.last_trick : null;
  if (last && v.contract) {
    const why = trickLine(v, last, names);
    extra.push(el("p", { class: "coach-trick", "data-testid": "coach-trick" }, t(why.key, why.params)));
  }
  const row = state.sheet[state.sheet.length - 1];
  if (row && state.you !== null) {
    extra.push(el("p", { class: "coach-result", "data-testid": "coach-result" }, t("coach_result", {
      n: row.deal, outcome: outcomeText(row, names), score: signed(row.scores[state.you]),
    })));
  }
  if (canHint(state)) { // a practice table made from the Learn page has hints (hint.js)
    queueMicrotask(askHint); // the guided deal keeps the hint open: asked once per decision
    extra.push(el("p", { class: "muted", "data-testid": "coach-hint" }, t("coach_hint", { button: t("hintButton") })));
  }
  return el("section", {
    class: "panel coach", "data-testid": "coach", "data-step": now.id, "aria-labelledby": "coach-title",
  },
  el("h2", { id: "coach-title" }, t("coach_title")),
  el("div", { class: "coach-say", "data-testid": "coach-text" }, said.map((text) => el("p", {}, text))),
  extra,
  el("p", { class: "coach-links" }, el("a", { href: "/learn", "data-testid": "coach-rules" }, t("coach_rules"))));
}
