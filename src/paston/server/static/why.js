// A "why?" button: the reason for a number in words, with the rule it comes from
// (R7.1…), shown only when asked for, so rule codes never stand in the way of a player.
import { el } from "./dom.js";
import { t } from "./text.js";

/** Notes opened, by key: the panels are drawn again on every update and keep them open. */
const opened = new Set();
let made = 0;

/** A "why?" button (its title the reason, for a pointer's tooltip) that opens the
 * reason in words and, after it, the rule code; ``key`` remembers it open across redraws. */
export function whyNote(words, rule, key = `${rule}:${words}`) {
  const id = `why-${made += 1}`;
  const open = opened.has(key);
  const note = el("span", { id, class: "why-text", hidden: !open, "data-testid": "why-text" },
    words, rule ? el("span", { class: "why-rule" }, ` (${t("whyRule", { rule })})`) : null);
  const button = el("button", {
    type: "button", class: "why", "aria-expanded": String(open), "aria-controls": id,
    title: words, "data-rule": rule,
    onclick: () => {
      const now = note.hidden;
      note.hidden = !now;
      button.setAttribute("aria-expanded", String(now));
      if (now) opened.add(key); else opened.delete(key);
    },
  }, t("why"));
  return el("span", { class: "why-wrap" }, button, note);
}
