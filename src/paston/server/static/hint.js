// Hints on practice tables: a Hint button (and the key "h") when it is this page's seat's
// turn; the server answers {"type": "hint"} with the computer player's options for the
// decision, valued from this seat's view only, best first. The page says the best one in a
// sentence (its chance to make or beat the contract and its expected score; equally good
// options together), the others briefly, every number under "details", and marks the
// recommended card or button until the player acts.
import { cardText } from "./cards.js";
import { rerender } from "./chrome.js";
import { el } from "./dom.js";
import { live } from "./live.js";
import { actionLabel, language, t } from "./text.js";

const WAIT_MS = 8000; // longer than the server's hard timeout of a hint (5 s)

/** The last hint heard (with the decision it answers), the decision one is awaited for,
 * and whether the numbers' disclosure is open (kept from hint to hint). */
export const hints = { hint: null, waiting: null, details: false };

/** A decision: the table's version and the hand (a provisional first deal shuffled
 * again starts over at version 0 with another hand). */
function decision(state) {
  return `${state.version}|${state.view.hand.join(",")}`;
}

live.onHint = (msg) => {
  const state = live.state;
  hints.hint = state && msg.version === state.version ? { ...msg, decision: decision(state) } : null;
  hints.waiting = null;
  rerender();
};

/** Whether this page may ask for a hint now: a practice table, its seat to move. */
export function canHint(state) {
  return Boolean(state && state.table.hints && state.you !== null && state.view.to_move === state.you
    && !state.shuffling && !state.sealed && !state.winners.length);
}

/** Ask the server for the hint of the current decision (once per decision). */
export function askHint() {
  const state = live.state;
  const ws = live.socket;
  if (!canHint(state) || !ws || ws.readyState !== WebSocket.OPEN) return;
  if (hints.waiting === decision(state) || (hints.hint && hints.hint.decision === decision(state))) return;
  const asked = decision(state);
  hints.waiting = asked;
  ws.send(JSON.stringify({ type: "hint" }));
  rerender();
  // no answer (an error is shown by live.js; a lost connection): the button comes back
  setTimeout(() => {
    if (hints.waiting !== asked) return;
    hints.waiting = null;
    rerender();
  }, WAIT_MS);
}

document.addEventListener("keydown", (e) => {
  if (e.key !== "h" || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  const target = e.target;
  if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
  if (!canHint(live.state)) return;
  e.preventDefault();
  askHint();
});

/** An option's action in words: a card "10♥", a discard "7♦ 8♦", a bid "bid gupa ♥". */
export function optionLabel(action) {
  const [kind, ...cards] = action.split(" ");
  if (kind === "play") return cardText(cards[0]);
  if (kind === "discard") return t("hintDiscard", { cards: cards.map(cardText).join(" ") });
  return actionLabel(action);
}

function fixed(x, digits) {
  const s = Math.abs(x).toFixed(digits);
  return x < 0 && Number(s) !== 0 ? `−${s}` : x > 0 && Number(s) !== 0 ? `+${s}` : s;
}

/** An expected score in a sentence: one decimal at most, in the page's language, signed. */
function points(x) {
  const text = new Intl.NumberFormat(language(), { maximumFractionDigits: 1, signDisplay: "exceptZero" })
    .format(Math.round(x * 10) / 10 || 0);
  return text.replace("-", "−");
}

/** A chance (0 to 1) as a whole percent in the page's language: "74%". */
function percent(x) {
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(x);
}

/** "K♥, Q♥ and 7♥" in the page's language (English without the serial comma). */
function listOf(labels) {
  const lang = language() === "en" ? "en-GB" : language();
  return labels.length === 1 ? labels[0] : new Intl.ListFormat(lang, { type: "conjunction" }).format(labels);
}

/** A sentence begins with a capital letter ("discard 7♦ 8♦" leads one as "Discard 7♦ 8♦"). */
function capital(text) {
  return text.charAt(0).toLocaleUpperCase(language()) + text.slice(1);
}

/** The options in groups of equally good ones (the server's "group"), in the order given. */
export function groupsOf(hint) {
  const groups = [];
  hint.options.forEach((o, i) => {
    const g = o.group ?? i;
    if (!groups.length || groups[groups.length - 1].group !== g) groups.push({ group: g, options: [] });
    groups[groups.length - 1].options.push(o);
  });
  return groups;
}

/** What a group's numbers say: "Make", "Beat" (its chance to make or beat the contract) or
 * "Score" (an option that plays no contract: pass, surrender). */
function aim(hint, option) {
  if (option.chance === null || option.chance === undefined) return "Score";
  return hint.goal === "beat" ? "Beat" : "Make";
}

/** The sentence of the best group: "K♥ makes the contract in 74% of …", or "K♥, Q♥ and
 * 7♥ are equally good: each makes …", or "All 8 options are equally good: …". */
function bestSentence(hint, group) {
  const head = group.options[0];
  const numbers = { pct: percent(head.chance ?? 0), score: points(head.score) };
  if (group.options.length === 1) return t(`hintSays${aim(hint, head)}`, { option: optionLabel(head.action), ...numbers });
  const every = group.options.length === hint.options.length && group.options.length > 3;
  const options = every ? t("hintEveryOption", { n: group.options.length })
    : listOf(group.options.map((o) => optionLabel(o.action)));
  return t(`hintEqual${aim(hint, head)}`, { options, ...numbers });
}

/** A later group, briefly: "Q♥: makes it in 52%, expected −3.1". */
function briefLine(hint, group) {
  const head = group.options[0];
  const labels = group.options.map((o) => optionLabel(o.action));
  const option = labels.length === 1 ? labels[0] : t("hintBriefEqual", { options: listOf(labels) });
  return t(`hintBrief${aim(hint, head)}`, { option, pct: percent(head.chance ?? 0), score: points(head.score) });
}

/** The hint in words: the best option's sentence, then the others briefly. */
function hintWords(hint) {
  const groups = groupsOf(hint);
  const [best, ...rest] = groups;
  // the computer player bids only when bidding beats passing by a margin: say why it passes
  const margin = hint.chosen === "pass" && hint.options.some((o) => o.action.startsWith("bid ") && o.score > 0);
  return el("div", { class: "hint-says", "data-testid": "hint-says" },
    el("p", { class: "hint-best", "data-testid": "hint-best" }, capital(bestSentence(hint, best))),
    margin ? el("p", { class: "hint-note", "data-testid": "hint-margin" }, t("hintMargin")) : null,
    rest.length ? el("p", { class: "hint-others-label", id: "hint-others-label" }, t("hintOthers")) : null,
    rest.length ? el("ul", { class: "hint-others", "data-testid": "hint-others", "aria-labelledby": "hint-others-label" },
      rest.map((g) => el("li", { "data-actions": g.options.map((o) => o.action).join(",") }, capital(briefLine(hint, g))))) : null);
}

function optionsTable(hint) {
  const tricks = hint.options.some((o) => o.tricks !== null);
  const chances = hint.options.some((o) => o.chance !== null && o.chance !== undefined);
  return el("table", { class: "hint-options", "data-testid": "hint-options" },
    el("caption", {}, t("hintCaption", { level: hint.level, worlds: hint.worlds ?? 0 })),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, "#"),
      el("th", { scope: "col" }, t("hintOption")),
      el("th", { scope: "col" }, t("hintScore")),
      chances ? el("th", { scope: "col" }, t(hint.goal === "beat" ? "hintChanceBeat" : "hintChanceMake")) : null,
      tricks ? el("th", { scope: "col" }, t("hintTricks")) : null,
      el("th", { scope: "col" }, el("span", { class: "sr-only" }, t("hintChoice"))))),
    el("tbody", {}, hint.options.map((o, i) => {
      const chosen = o.action === hint.chosen;
      return el("tr", {
        class: chosen ? "chosen" : null, "data-action": o.action, "data-chosen": String(chosen),
        "data-group": String(o.group ?? i),
      },
      el("td", {}, String(i + 1)),
      el("td", {}, optionLabel(o.action)),
      el("td", { class: "num" }, fixed(o.score, 2)),
      chances ? el("td", { class: "num" }, o.chance === null || o.chance === undefined ? "" : percent(o.chance)) : null,
      tricks ? el("td", { class: "num" }, o.tricks === null ? "" : o.tricks.toFixed(2)) : null,
      el("td", {}, chosen ? el("span", { class: "badge hint-choice" }, t("hintChoice")) : null));
    })));
}

/** The numbers of every option, under a disclosure (its state kept from hint to hint). */
function details(hint) {
  const box = el("details", { class: "hint-details", "data-testid": "hint-details", open: hints.details },
    el("summary", {}, t("hintDetails")), optionsTable(hint));
  box.addEventListener("toggle", () => { hints.details = box.open; });
  return box;
}

/** The hint shown now for this page's seat, if any (none once the decision has passed). */
function currentHint(state) {
  if (!state || !state.table.hints || !hints.hint || !canHint(state)) return null;
  return hints.hint.decision === decision(state) && hints.hint.seat === state.you ? hints.hint : null;
}

/** The hint area of a practice table: the button, and the options once they come. */
export function hintView(state) {
  if (!state || !state.table.hints) return null;
  const current = currentHint(state);
  if (!canHint(state)) {
    return el("div", { class: "hint-panel", "data-testid": "hint-panel" },
      el("p", { class: "muted" }, t("hintPractice")));
  }
  const waiting = hints.waiting === decision(state);
  return el("div", { class: "hint-panel", "data-testid": "hint-panel" },
    el("button", {
      type: "button", class: "secondary", "data-testid": "hint-button", "aria-keyshortcuts": "h",
      disabled: waiting || current !== null, onclick: askHint, title: t("hintKey"),
    }, waiting ? t("hintThinking") : t("hintButton")),
    current ? hintWords(current) : null,
    current ? details(current) : null,
    // what the marks on the hand and the buttons mean, for screen readers (markHint)
    current ? el("span", { id: "hint-recommended-note", class: "sr-only" }, t("hintRecommended")) : null,
    current ? el("span", { id: "hint-equal-note", class: "sr-only" }, t("hintEqualMark")) : null);
}

/** The page's buttons for an action: its card(s) in the hand, or its action button. */
function buttonsFor(root, action) {
  const [kind, ...cards] = action.split(" ");
  if (kind === "play" || kind === "discard") {
    return cards.map((c) => root.querySelector(`#hand button[data-card="${c}"]`)).filter(Boolean);
  }
  return [...root.querySelectorAll("[data-testid=actions] button[data-action]")].filter((b) => b.dataset.action === action);
}

/** Mark a button: its class, its description, and a badge that hint.css draws from
 * data-badge (generated content, not part of the button's name). */
function mark(button, what, badge) {
  button.classList.add(`hint-${what}`);
  button.dataset.hint = what;
  button.dataset.badge = badge;
  button.setAttribute("aria-describedby", `hint-${what}-note`);
}

/** After the table is drawn: mark the recommended card(s) or button while the hint is
 * shown ("recommended" in its description, an outline and a badge), and the cards as good
 * as it ("equally good"); nothing once the player has acted or the decision has passed. */
export function markHint(root, state) {
  const current = currentHint(state);
  if (!current || live.pending) return;
  for (const button of buttonsFor(root, current.chosen)) mark(button, "recommended", t("hintBadge"));
  if (current.chosen.startsWith("discard ")) return; // pairs that share cards: only the choice
  const [best] = groupsOf(current);
  for (const o of best.options) {
    if (o.action === current.chosen) continue;
    for (const button of buttonsFor(root, o.action)) mark(button, "equal", "=");
  }
}

/** The create-table form's checkbox: a practice table (hints on). */
export function practiceField(form) {
  return el("div", { class: "field checkbox" },
    el("input", {
      id: "hints", type: "checkbox", "data-testid": "hints", checked: Boolean(form.hints),
      onchange: (e) => { form.hints = e.target.checked; },
    }),
    el("label", { for: "hints" }, t("hintSetting")));
}
