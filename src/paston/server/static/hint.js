// Hints on practice tables: a Hint button (and the key "h") when it is this page's seat's
// turn; the server answers {"type": "hint"} with the computer player's options for the
// decision, valued from this seat's view only, best first, its choice marked.
import { cardText } from "./cards.js";
import { rerender } from "./chrome.js";
import { el } from "./dom.js";
import { live } from "./live.js";
import { actionLabel, t } from "./text.js";

const WAIT_MS = 8000; // longer than the server's hard timeout of a hint (5 s)

/** The last hint heard (with the decision it answers) and the decision one is awaited for. */
export const hints = { hint: null, waiting: null };

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

function optionsTable(hint) {
  const tricks = hint.options.some((o) => o.tricks !== null);
  return el("table", { class: "hint-options", "data-testid": "hint-options" },
    el("caption", {}, t("hintCaption", { level: hint.level })),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, "#"),
      el("th", { scope: "col" }, t("hintOption")),
      el("th", { scope: "col" }, t("hintScore")),
      tricks ? el("th", { scope: "col" }, t("hintTricks")) : null,
      el("th", { scope: "col" }, el("span", { class: "sr-only" }, t("hintChoice"))))),
    el("tbody", {}, hint.options.map((o, i) => {
      const chosen = o.action === hint.chosen;
      return el("tr", { class: chosen ? "chosen" : null, "data-action": o.action, "data-chosen": String(chosen) },
        el("td", {}, String(i + 1)),
        el("td", {}, optionLabel(o.action)),
        el("td", { class: "num" }, fixed(o.score, 2)),
        tricks ? el("td", { class: "num" }, o.tricks === null ? "" : o.tricks.toFixed(2)) : null,
        el("td", {}, chosen ? el("span", { class: "badge hint-choice" }, t("hintChoice")) : null));
    })));
}

/** The hint area of a practice table: the button, and the options once they come. */
export function hintView(state) {
  if (!state || !state.table.hints) return null;
  const current = hints.hint && hints.hint.decision === decision(state) && hints.hint.seat === state.you
    ? hints.hint : null;
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
    current ? optionsTable(current) : null);
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
