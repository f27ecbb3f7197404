// The coach of a guided practice deal (a table opened as /t/<id>?coach=1 from the Learn
// page): from the table's state alone (phase, legal actions, this seat's view) it says
// what to do now and why, who took the last trick and why, and how the last deal scored.
// At a lesson's table (the course, course.js) its advice on the learner's moves is the
// hint's own choice (never a rule of thumb that could disagree with it), the lesson's
// idea stays in view, and the end of the deal says whether the lesson's goal was reached.
// Screen readers hear the coach with the turn cue (coachLine): no live region of its own,
// so a card played is one message (the live log's), not three.
import { el } from "./dom.js";
import { loadScoreFacts, scoreFacts } from "./learn.js";
import { seatNames } from "./players.js";
import { cardText } from "./cards.js";
import { askHint, canHint, hints, optionLabel } from "./hint.js";
import { courseList, leaveLesson, lessonText, loadCourse, markDone, nextLesson, startLesson } from "./course.js";
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

// lines that carry a rule of thumb: at a lesson they give way to the hint's choice
const THUMB = new Set(["coach_auction_why", "coach_discard_why", "coach_trump_why", "coach_defence_why"]);
const NEUTRAL = { coach_trump_mine: "yourTurn_trump", coach_play_lead_declarer: "yourTurn_play",
  coach_play_lead_defender: "yourTurn_play", coach_play_any: "yourTurn_play" };

/** The hint heard for the decision at hand, if any (hint.js). */
function currentHint(state) {
  const h = hints.hint;
  return h && h.version === state.version && h.seat === state.you ? h : null;
}

/** At a lesson's table on the learner's move: the phase's plain facts and the hint's
 * choice as the coach's advice (the same recommendation, so they never disagree). */
function lessonLines(state, now) {
  const decides = now.id.endsWith("-mine") || ["play-lead", "play-follow", "play-trump", "play-any"].includes(now.id);
  if (!state.table.lesson || state.view.to_move !== state.you || !decides) return now.lines;
  const lines = now.lines.filter((l) => !THUMB.has(l.key)).map((l) => (NEUTRAL[l.key] ? { key: NEUTRAL[l.key] } : l));
  const hint = currentHint(state);
  lines.splice(1, 0, hint ? { key: "coach_follow", params: { action: optionLabel(hint.chosen) }, hint: hint.chosen }
    : { key: "coach_asking" });
  return lines;
}

/** A lesson's goal in words. */
function goalText(lesson) {
  return t(`coach_goal_${lesson.goal.replace("-o", "O")}`);
}

/** Whether the lesson's goal was reached in the deal of sheet ``row`` (seat ``you``). */
function reached(lesson, row, you) {
  const declarerMinus = row.scores[row.declarer] < 0;
  switch (lesson.goal) {
    case "make": return row.declarer === you && row.outcome !== "surrender" && row.scores[you] > 0;
    case "beat": return row.declarer !== you && row.outcome === "played" && declarerMinus && row.scores[you] >= 0;
    case "stay-out": return row.declarer !== you && row.scores[you] === 0;
    default: return row.declarer === you && row.outcome === "surrender";
  }
}

/** The lesson's part of the panel: its title and idea, and once its deal is over, whether
 * the goal was reached (then it is marked done) and the way on. */
function lessonPart(state) {
  const id = state.table.lesson;
  if (!id) return null;
  const lessons = courseList();
  if (!lessons) { loadCourse(() => rerender()); return null; }
  const lesson = lessons.find((l) => l.id === id);
  if (!lesson) return null;
  const out = [el("p", { class: "coach-lesson", "data-testid": "coach-lesson" },
    el("strong", {}, t("coach_lesson", { n: lesson.number, title: lessonText(id, "title") })), " ",
    lessonText(id, "idea"), " ", goalText(lesson))];
  const row = state.sheet[0];
  if (row && state.you !== null) {
    const ok = reached(lesson, row, state.you);
    if (ok) markDone(id);
    const next = nextLesson(id);
    const tableId = state.table.id;
    out.push(el("p", { class: "coach-verdict", "data-testid": "lesson-verdict", "data-reached": String(ok) },
      t(ok ? "coach_lessonDone" : "coach_lessonMissed")),
    el("p", { class: "coach-links" },
      ok && next ? el("button", { type: "button", class: "primary", "data-testid": "next-lesson",
        onclick: () => leaveLesson(tableId, null).then(() => startLesson(next.id)) }, t("coach_nextLesson")) : null,
      el("button", { type: "button", class: ok && next ? "secondary" : "primary", "data-testid": "back-to-course",
        onclick: () => leaveLesson(tableId, "/learn#learn-practice") }, t(next || !ok ? "coach_course" : "course_finished"))));
  }
  return out;
}

/** What the coach says now, for the turn cue read to screen readers (app.js): its first
 * line, or "" when this page does not coach. */
export function coachLine(state) {
  if (!coaching() || !state || state.view.to_move !== state.you) return "";
  const facts = scoreFacts();
  if (!facts) return "";
  const now = step(state, facts);
  const line = lessonLines(state, now)[0];
  return t(line.key, line.params || {});
}

/** The coach's panel for ``state`` (null when this page does not coach). */
export function coachPanel(state) {
  if (!coaching() || !state) return null;
  const facts = scoreFacts();
  if (!facts) loadScoreFacts(() => rerender());
  const names = seatNames(state.table);
  const now = facts ? step(state, facts) : { id: "loading", lines: [{ key: "learn_loading" }] };
  const v = state.view;
  const lines = facts ? lessonLines(state, now) : now.lines;
  const said = lines.map((line) => t(line.key, line.params || {}));
  const advice = lines.find((line) => line.hint);
  const extra = [];
  const last = v.phase === "play" ? v.last_trick : null;
  if (last && v.contract) {
    const why = trickLine(v, last, names);
    extra.push(el("p", { class: "coach-trick", "data-testid": "coach-trick" }, t(why.key, why.params)));
  }
  const row = state.sheet[state.sheet.length - 1];
  if (row && state.you !== null && !state.table.lesson) {
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
  lessonPart(state),
  el("div", { class: "coach-say", "data-testid": "coach-text", "data-advice": advice ? advice.hint : null },
    said.map((text) => el("p", {}, text))),
  extra,
  el("p", { class: "coach-links" }, el("a", { href: "/learn", "data-testid": "coach-rules" }, t("coach_rules"))));
}
