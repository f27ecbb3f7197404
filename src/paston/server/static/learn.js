// The Learn to play page (/learn): the rules of RULES.md in plain words with pictures of
// cards, the ladder and the R7 scores table from the engine (GET /api/scores: no number
// of the rules is written here), and the course of guided lessons (course.js).
import { api } from "./api.js";
import { app, rerender, showError } from "./chrome.js";
import { cardBack, cardNode } from "./cards.js";
import { el } from "./dom.js";
import { courseView, loadCourse } from "./course.js";
import { whyNote } from "./why.js";
import { GAME, num, signed, t, word } from "./text.js";

const SECTIONS = ["intro", "deck", "deal", "ladder", "prikup", "whist", "play", "scores", "game", "practice"];
const SYMBOL = { S: "♠", C: "♣", D: "♦", H: "♥" };

let facts = null; // GET /api/scores, once
let loading = null;

/** The engine's scoring facts (GET /api/scores), fetched once; null until they arrive. */
export function scoreFacts() {
  return facts;
}

/** Fetch the scoring facts once; ``then`` runs when they are here. */
export function loadScoreFacts(then = () => {}) {
  if (facts) return Promise.resolve(facts);
  if (!loading) {
    loading = api("/api/scores").then((got) => { facts = got; return got; })
      .catch((err) => { loading = null; showError(err.code, err.message); return null; });
  }
  return loading.then((got) => { if (got) then(got); return got; });
}

/** The game's words and the facts as the placeholders of the page's strings. */
function words(extra = {}) {
  return {
    paston: GAME.spades, glitch: GAME.clubs, dineri: GAME.diamonds, gupa: GAME.hearts,
    grkha: GAME["best-spades"], prikup: GAME.prikup, whist: GAME.whist,
    target: facts ? facts.target : "…", need: facts ? facts.quotas.declarer : "…", ...extra,
  };
}

const p = (key, params) => el("p", {}, t(key, words(params)));
const li = (key, params) => el("li", {}, t(key, words(params)));

/** A row of cards with its caption; each card carries its name as a text alternative. */
function figure(codes, captionKey, params) {
  return el("figure", { class: "learn-cards" },
    el("div", { class: "learn-row" }, codes.map((c) => (c === "back" ? cardBack() : cardNode(c, { size: "small" })))),
    el("figcaption", {}, t(captionKey, words(params))));
}

function suitName(s) {
  return `${t(`suitName_${s}`)} ${SYMBOL[s]}`;
}

function section(id, ...body) {
  return el("section", {
    class: "panel learn-section", id: `learn-${id}`, "data-testid": "learn-section", "data-section": id,
    "aria-labelledby": `learn-h-${id}`,
  }, el("h2", { id: `learn-h-${id}` }, t(`learn_h_${id}`, words())), body);
}

function ladderTable() {
  const contracts = facts ? facts.contracts : [];
  return el("div", { class: "sheet-wrap" }, el("table", { class: "learn-table", "data-testid": "ladder" },
    el("caption", {}, t("learn_ladder_caption")),
    el("thead", {}, el("tr", {}, ["learn_col_step", "learn_col_name", "learn_col_trump", "learn_col_mult"]
      .map((k) => el("th", { scope: "col" }, t(k))))),
    el("tbody", {}, contracts.map((c, i) => el("tr", { "data-contract": c.contract },
      el("td", {}, String(i + 1)),
      el("th", { scope: "row" }, word(c.contract)),
      el("td", {}, el("span", { class: "learn-suit" }, cardNode(`A${c.trump}`, { size: "tiny" }), " ", suitName(c.trump))),
      el("td", {}, `×${c.multiplier}`))))));
}

function quotaTable() {
  const q = facts ? facts.quotas : {};
  const row = (key, need) => el("tr", {}, el("th", { scope: "row" }, t(key, words())), el("td", {}, need));
  return el("div", { class: "sheet-wrap" }, el("table", { class: "learn-table", "data-testid": "quotas" },
    el("caption", {}, t("learn_quota_caption")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("learn_col_who")), el("th", { scope: "col" }, t("learn_col_need")))),
    el("tbody", {},
      row("learn_quota_declarer", t("learn_tricksOf", { n: q.declarer ?? "…" })),
      row("learn_quota_two", t("learn_tricksEach", { n: q["two-defenders"] ?? "…" })),
      row("learn_quota_lone", t("learn_tricksOf", { n: q["lone-defender"] ?? "…" })),
      row("learn_quota_passer", t("learn_quota_out", words({ score: facts ? num(facts.passer.score) : "…" }))))));
}

function rowLabel(r) {
  const key = { "declarer-made": "learn_row_made", "declarer-failed": "learn_row_failed", "two-defenders": "learn_row_two",
    "lone-defender": "learn_row_lone", uncontested: "learn_row_uncontested" }[r.key];
  return t(key, words({ n: r.tricks, need: facts.quotas.declarer }));
}

function scoresTable() {
  if (!facts) return el("p", { class: "muted" }, t("learn_loading"));
  return el("div", { class: "sheet-wrap" }, el("table", { class: "learn-table scores", "data-testid": "scores" },
    el("caption", {}, t("learn_scores_caption")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("learn_col_case")),
      facts.contracts.map((c) => el("th", { scope: "col", "data-contract": c.contract }, word(c.contract),
        el("span", { class: "muted" }, ` ×${c.multiplier}`))))),
    el("tbody", {}, facts.rows.map((r) => el("tr", { "data-row": r.key, "data-tricks": r.tricks ?? null },
      el("th", { scope: "row" }, rowLabel(r), " ", whyNote(t("learn_why_score"), r.rule, `learn-${r.key}-${r.tricks}`)),
      r.scores.map((s) => el("td", { "data-score": s }, signed(s))))))));
}

function scoreNotes() {
  if (!facts) return null;
  const [grkha, spades] = facts.example.deals;
  return el("ul", {},
    li("learn_scores_more"),
    li("learn_scores_grkha", { made: signed(facts.rows[0].scores[4]), mult: facts.contracts[4].multiplier }),
    li("learn_scores_surrender", { declarer: signed(facts.surrender.declarer), opponent: signed(facts.surrender.opponent) }),
    li("learn_scores_passer", { score: num(facts.passer.score) }),
    li("learn_scores_example", {
      tricks: grkha.tricks.join(" / "), a: signed(grkha.scores[0]), b: signed(grkha.scores[1]), c: signed(grkha.scores[2]),
      d: signed(spades.scores[0]), e: signed(spades.scores[1]), f: signed(spades.scores[2]),
    }),
    li("learn_scores_sum"));
}

function resetExample() {
  if (!facts) return null;
  const r = facts.reset;
  return p("learn_game_example", {
    before: num(r.before), score: num(r.score), after: num(r.after), minus: num(-facts.target),
    score2: num(r.below.score), after2: num(r.below.after),
  });
}

/** Draw the Learn to play page (the tables fill in once the facts are here). */
export function renderLearn() {
  const nav = el("nav", { class: "panel learn-nav", "aria-labelledby": "learn-contents" },
    el("h2", { id: "learn-contents" }, t("learn_contents")),
    el("ol", {}, SECTIONS.map((id) => el("li", {}, el("a", { href: `#learn-${id}` }, t(`learn_h_${id}`, words()))))));
  app.replaceChildren(el("article", { class: "learn", "data-testid": "learn" },
    el("div", { class: "panel learn-head" }, el("h1", {}, t("learn_title", words())), p("learn_lead")),
    nav,
    section("intro", p("learn_intro_1"), p("learn_intro_2"), p("learn_intro_3")),
    section("deck", p("learn_deck_1"),
      figure(["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"], "learn_deck_caption"),
      p("learn_deck_2"), figure(["AS", "AC", "AD", "AH"], "learn_suits_caption")),
    section("deal", p("learn_deal_1"), figure(["back", "back"], "learn_prikup_caption"),
      el("ul", {}, li("learn_deal_2"), li("learn_deal_3"))),
    section("ladder", p("learn_ladder_1"), ladderTable(),
      el("ul", {}, li("learn_ladder_2"), li("learn_ladder_3"), li("learn_ladder_4"), li("learn_ladder_5")),
      p("learn_ladder_advice")),
    section("prikup", el("ol", {}, li("learn_prikup_1"), li("learn_prikup_2"),
      li("learn_prikup_4", facts ? { declarer: num(facts.surrender.declarer), opponent: signed(facts.surrender.opponent) }
        : { declarer: "…", opponent: "…" })),
    p("learn_prikup_3"), figure(["7S", "AH"], "learn_trump_caption")),
    section("whist", p("learn_whist_1"), quotaTable(),
      el("ul", {}, li("learn_whist_2"), li("learn_whist_3")), p("learn_whist_advice")),
    section("play", el("ol", {}, li("learn_play_1"), li("learn_play_2"), li("learn_play_3"), li("learn_play_4"), li("learn_play_5")),
      figure(["KH", "8H", "7S"], "learn_play_caption"), p("learn_play_6")),
    section("scores", p("learn_scores_1"), scoresTable(), scoreNotes()),
    section("game", p("learn_game_1"), p("learn_game_2"), resetExample()),
    section("practice", p("learn_practice_1"), courseView(),
      el("p", {}, el("a", { href: "/" }, t("backToLobby"))))));
}

/** Show the Learn to play page. */
export async function learn() {
  renderLearn();
  await Promise.all([loadScoreFacts(() => rerender()), loadCourse(() => rerender())]);
}
