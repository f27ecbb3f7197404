// Keyboard use of a seat's hand (issue 12 §7): one tab stop in the hand (a roving
// tabindex: the arrow keys, Home and End move through the cards), the skip link to the
// hand, and the focus after two discard cards are chosen.
import { el } from "./dom.js";
import { t } from "./text.js";

let handFocus = null; // the card last focused in the hand, kept across re-renders

/** Note that card ``code`` of the hand has the focus (it keeps the tab stop). */
export function noteHandFocus(code) {
  handFocus = code;
}

/** The card of ``cards`` that holds the hand's tab stop: the one last focused while it is
 * still usable (or nothing is), else the first card that can be used now, else the first. */
export function handStop(cards, usable) {
  const first = cards.find(usable);
  if (handFocus && cards.includes(handFocus) && (usable(handFocus) || first === undefined)) return handFocus;
  return first ?? cards[0] ?? null;
}

const MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** The hand's keys: arrows to the next or previous card, Home and End to the ends. */
export function handKeys(e) {
  const cards = [...e.currentTarget.querySelectorAll("button[data-card]")];
  const i = cards.indexOf(document.activeElement);
  if (i < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
  let j;
  if (e.key in MOVES) j = Math.min(cards.length - 1, Math.max(0, i + MOVES[e.key]));
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = cards.length - 1;
  else return;
  e.preventDefault();
  for (const c of cards) c.tabIndex = -1;
  cards[j].tabIndex = 0;
  cards[j].focus();
  handFocus = cards[j].dataset.card;
}

/** Focus the hand's tab stop. */
export function focusHand() {
  const card = document.querySelector("#hand button[tabindex='0']") || document.querySelector("#hand button");
  if (card) card.focus();
}

/** After the second discard card is chosen: on to "Discard these two". */
export function focusDiscard() {
  const button = document.querySelector("[data-action=discard]");
  if (button) button.focus();
}

/** The skip link to the hand, first on the page while this page holds a seat. */
export function skipLink(show) {
  let link = document.getElementById("skip-hand");
  if (!show) {
    if (link) link.remove();
    return;
  }
  if (!link) {
    link = el("a", {
      id: "skip-hand", class: "skip-link", href: "#hand", "data-testid": "skip-hand",
      onclick: (e) => { e.preventDefault(); focusHand(); },
    });
    document.body.prepend(link);
  }
  link.textContent = t("skipToHand");
}
