// One step of a replayed deal on the page: the hands, the prikup and the discard apart,
// the trick, the contract and the trump, the auction so far, the tricks with their
// winners, the tricks taken so far and the scores. Every fact comes from the server's
// replay (server/work/replay_story.py, told by the engine); this module only draws them.
import { cardName, cardNode, cardText, sortCards } from "./cards.js";
import { el } from "./dom.js";
import { SEAT_COLORS, seatDisplayName } from "./players.js";
import { GAME, actionLabel, num, signed, t, word } from "./text.js";

/** The seats' names as the table showed them (a person's name, "Computer 2"). */
export function namesOf(data) {
  const players = Array.isArray(data.players) ? data.players : [];
  return [0, 1, 2].map((s) => (players[s] ? seatDisplayName({ ...players[s], seat: s }) : data.seats[s]));
}

/** A mark on an action that cost points (the analysis), or nothing. */
export function markNode(marks, index) {
  const m = marks && marks.get(index);
  if (!m) return null;
  const points = Number.isInteger(m.points) ? m.points : m.points.toFixed(1);
  const parts = [t(m.tricks ? "markCostTricks" : "markCost", { points, tricks: m.tricks })];
  const shown = (a) => (/^[2-9TJQKA][SCDH]$/.test(a) ? cardText(a) : actionLabel(a));
  if (m.best.length) parts.push(t("markBest", { cards: m.best.map(shown).join(" ") }));
  else if (m.bot) parts.push(t("markBot", { action: shown(m.bot) }));
  const label = parts.join(" ");
  return el("span", { class: "mark", role: "img", title: label, "aria-label": label, "data-mark": index }, "?");
}

/** An action in the words of the replay's lists ("dineri ♦", "trump gupa ♥", "whist"…). */
function actionWords(a) {
  const [kind, ...rest] = a.action.split(" ");
  if (kind === "bid") return word(rest[0]);
  if (kind === "pass") return a.phase === "defence" ? t("passDefence") : t("pass");
  if (kind === "discard") return [t("discardsTwo"), " ", el("span", { class: "discard-shown" },
    sortCards(rest).map((c) => cardNode(c, { size: "tiny" })))];
  if (kind === "trump") return t("namesTrump", { contract: word(rest[0]) });
  if (kind === "surrender") return t("surrenders");
  if (kind === "whist") return GAME.whist;
  return actionLabel(a.action);
}

/** The next move in words ("Next: Ana — Bid gupa ♥"), or the end of the deal. */
/** A move as a screen reader should say it: cards and contracts in words ("10 of
 * hearts", "bid gupa"), never the suit symbols (read as "black heart suit"). */
export function spokenMove(move, names) {
  const [kind, ...rest] = move.action.split(" ");
  let said;
  if (kind === "play" || kind === "discard") said = rest.map(cardName).join(", ");
  else if (kind === "bid") said = t("bidWord", { contract: GAME[rest[0]] });
  else if (kind === "trump") said = t("trumpWord", { contract: GAME[rest[0]] });
  else said = actionLabel(move.action);
  return t("shownMove", { who: names[move.seat], action: said });
}

export function moveText(next, names) {
  if (!next) return t("dealEnd");
  const [kind, ...rest] = next.action.split(" ");
  const shown = kind === "play" || kind === "discard" ? rest.map(cardText).join(" ") : actionLabel(next.action);
  return t("nextMove", { who: names[next.seat], action: shown });
}

const dot = (s) => el("span", { class: "dot", style: `background:${SEAT_COLORS[s]}`, "aria-hidden": "true" });

function handsView(deal, step, names) {
  return el("div", { class: "replay-hands", "data-testid": "replay-hands" }, [0, 1, 2].map((s) => {
    const cards = sortCards(step.hands[s]);
    const out = step.active.length > 0 && !step.active.includes(s);
    const badges = [];
    if (deal.dealer === s) badges.push(el("span", { class: "badge dealer" }, t("dealerShort")));
    if (step.declarer === s) badges.push(el("span", { class: "badge role" }, t("declarer")));
    if (step.defenders.includes(s)) badges.push(el("span", { class: "badge" }, GAME.whist));
    if (step.to_move === s) badges.push(el("span", { class: "badge to-move" }, t("toPlay")));
    return el("div", { class: `replay-hand${out ? " out" : ""}`, "data-seat": s },
      el("h3", {}, dot(s), el("span", { class: "name" }, names[s]), " ", badges, " ",
        el("span", { class: "muted", "data-testid": "hand-tricks" }, t("tricksShort", { n: step.tricks[s] }))),
      el("div", { class: "hand", style: `--n: ${Math.max(cards.length, 2)}` },
        cards.length ? cards.map((c) => cardNode(c, { size: "small" })) : el("span", { class: "muted" }, t("noCards"))));
  }));
}

function talonView(deal, step, names) {
  const taken = step.declarer !== null && step.phase !== "auction" && step.phase !== "redeal";
  return el("div", { class: "replay-talon" },
    el("div", { class: "replay-row", "data-testid": "replay-prikup" },
      el("h3", {}, GAME.prikup),
      el("div", { class: "cards" }, sortCards(deal.prikup).map((c) => cardNode(c, { size: "small" }))),
      taken ? el("span", { class: "muted" }, t("prikupTakenBy", { name: names[step.declarer] })) : null),
    el("div", { class: "replay-row", "data-testid": "replay-discard" },
      el("h3", {}, t("discardHeading")),
      step.discard.length
        ? el("div", { class: "cards" }, sortCards(step.discard).map((c) => cardNode(c, { size: "small" })))
        : el("span", { class: "muted" }, t("discardNotYet"))));
}

function playsView(plays, names, marks) {
  return plays.map((p) => el("span", { class: "play", "data-seat": p.seat },
    cardNode(p.card, { size: "small" }), el("span", { class: "who" }, names[p.seat]),
    p.index === undefined ? null : markNode(marks, p.index)));
}

function trickView(deal, step, names, marks) {
  if (step.trick.length) {
    const at = deal.tricks[step.done] ? deal.tricks[step.done].plays : [];
    const plays = step.trick.map((p, i) => ({ ...p, index: at[i] ? at[i].index : undefined }));
    return el("div", { class: "replay-trick", "data-testid": "replay-trick" },
      el("h3", {}, t("trickN", { n: step.done + 1 })), el("div", { class: "plays" }, playsView(plays, names, marks)));
  }
  if (step.done > 0) {
    const last = deal.tricks[step.done - 1];
    return el("div", { class: "replay-trick", "data-testid": "replay-trick", "data-winner": last.winner },
      el("h3", {}, t("trickN", { n: last.number }), " · ", t("wonBy", { name: names[last.winner] })),
      el("div", { class: "plays" }, playsView(last.plays, names, marks)));
  }
  return null;
}

function contractView(deal, step, names) {
  const lines = [el("p", {}, dot(deal.dealer), t("dealerLine", { name: names[deal.dealer] }))];
  if (deal.redeal) lines.push(el("p", { "data-testid": "replay-redeal" }, t(`redeal_${deal.redeal}`)));
  if (step.bid) lines.push(el("p", { "data-testid": "replay-bid" }, t("highestBid", { contract: word(step.bid) })));
  else if (step.declarer !== null) lines.push(el("p", { "data-testid": "replay-bid" }, t("allPassed")));
  if (step.declarer !== null) {
    lines.push(el("p", { class: "contract", "data-testid": "replay-declarer", "data-seat": step.declarer },
      dot(step.declarer), t("declarerLine", { name: names[step.declarer] })));
  }
  lines.push(el("p", { class: "contract", "data-testid": "replay-trump", "data-trump": step.contract || "" },
    step.contract ? t("trumpWord", { contract: word(step.contract) })
      : step.result && step.result.outcome === "surrender" ? t("surrenders") : t("trumpNotYet")));
  if (step.defenders.length) {
    lines.push(el("p", { "data-testid": "replay-defenders" },
      t("defendersLine", { names: step.defenders.map((s) => names[s]).join(t("and")) })));
  }
  const tricks = el("ul", { class: "replay-counts", "data-testid": "replay-tricks-so-far" }, [0, 1, 2].map((s) =>
    el("li", { "data-seat": s, "data-tricks": step.tricks[s] }, dot(s), `${names[s]}: ${step.tricks[s]}`)));
  return el("section", { class: "panel replay-contract", "data-testid": "replay-contract" },
    el("h2", {}, t("contractCol")), lines, el("h3", {}, t("tricksSoFar")), tricks);
}

function auctionView(deal, step, names, marks) {
  const said = deal.actions.filter((a) => a.phase !== "play" && a.index < step.index);
  return el("section", { class: "panel log replay-auction" }, el("h2", {}, t("auction")),
    said.length
      ? el("ol", { "data-testid": "replay-auction" }, said.map((a) => el("li", {
        "data-index": a.index, "data-seat": a.seat, "data-action": a.action,
        class: a.index === step.index - 1 ? "latest" : null,
      }, dot(a.seat), el("span", { class: "who" }, names[a.seat]), " ", el("span", { class: "what" }, actionWords(a)),
      markNode(marks, a.index))))
      : el("p", { class: "muted" }, t("noBidsYet")));
}

function tricksView(deal, step, names, marks) {
  const done = deal.tricks.slice(0, step.done);
  if (!done.length) return null;
  return el("section", { class: "panel replay-tricks" }, el("h2", {}, t("tricksHeading")),
    el("ol", { "data-testid": "replay-tricks" }, done.map((k) => el("li", { "data-winner": k.winner, "data-number": k.number },
      el("span", { class: "num" }, `${k.number}.`), el("span", { class: "plays" }, playsView(k.plays, names, marks)),
      el("span", { class: "won" }, dot(k.winner), t("wonBy", { name: names[k.winner] }))))));
}

function scoresView(data, deal, step, names) {
  const over = step.result !== null && step.next === null;
  const head = el("tr", {}, el("th", { scope: "col" }, t("playerCol")), el("th", { scope: "col" }, t("totalBefore")),
    el("th", { scope: "col" }, t("thisDeal")), el("th", { scope: "col" }, t("totalAfter")));
  const rows = [0, 1, 2].map((s) => {
    const reset = over && deal.resets.includes(s);
    return el("tr", { "data-seat": s },
      el("th", { scope: "row" }, dot(s), names[s]),
      el("td", { "data-testid": "total-before" }, num(deal.totals_before[s])),
      el("td", { "data-testid": "deal-score" }, over ? signed(deal.result.scores[s]) : "–"),
      el("td", { "data-testid": "total-after", class: reset ? "reset" : null, "data-reset": reset ? "true" : null },
        el("span", { class: "total" }, over && deal.totals ? num(deal.totals[s]) : "–"), " ",
        reset ? el("span", { class: "badge reset-badge", title: t("resetTitle", { n: data.target }) }, t("resetMark")) : null));
  });
  const outcome = over && deal.result
    ? el("p", { "data-testid": "replay-outcome" }, t(`outcome_${deal.result.outcome}`)) : null;
  const winners = over && data.winners.length && deal.index === data.deals.length - 1
    ? el("p", { class: "winners", "data-testid": "replay-winners" },
      t(data.winners.length > 1 ? "winnersShare" : "winnerWins", { names: data.winners.map((w) => names[w]).join(t("and")) }))
    : null;
  return el("section", { class: "panel replay-scores" }, el("h2", {}, t("scoresHeading")), outcome,
    el("div", { class: "sheet-wrap" }, el("table", { class: "sheet", "data-testid": "replay-scores" },
      el("thead", {}, head), el("tbody", {}, rows))), winners);
}

/** The panels of one step: the cards on the left, the story on the right. */
export function stepView(data, deal, step, names, marks) {
  return el("div", { class: "replay-grid" },
    el("div", { class: "replay-cards" },
      el("section", { class: "panel" }, el("h2", {}, t("allHands")), handsView(deal, step, names),
        talonView(deal, step, names), trickView(deal, step, names, marks))),
    el("div", { class: "replay-story" },
      contractView(deal, step, names), auctionView(deal, step, names, marks),
      tricksView(deal, step, names, marks), scoresView(data, deal, step, names)));
}
