// Cards that move as at a real table: a card played travels from the hand (or from the
// opponent's seat) to its place in the trick, and a finished trick slides towards the
// player who won it. Each drawing of the table replaces the page, so the motion is
// worked out from where the cards were just before (First-Last-Invert-Play with the Web
// Animations API): about a quarter of a second, and none at all for people who ask their
// system for reduced motion.

/** How long a card takes to travel, in milliseconds. */
export const TRAVEL_MS = 260;

function reduced() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** Where the cards and the seats are now (before the table is drawn again). */
export function snapshot(root) {
  const cards = new Map();
  for (const node of root.querySelectorAll("[data-testid=hand] [data-card], [data-testid=trick] [data-card]")) {
    cards.set(node.dataset.card, node.getBoundingClientRect());
  }
  const seats = new Map();
  for (const node of root.querySelectorAll(".seat-panel[data-seat]")) {
    seats.set(node.dataset.seat, node.getBoundingClientRect());
  }
  const trick = [...root.querySelectorAll("[data-testid=trick] [data-card]")].map((n) => n.dataset.card);
  const previous = Boolean(root.querySelector("[data-testid=trick].previous"));
  return { cards, seats, trick, previous };
}

function slide(node, from, to, keyframes = {}) {
  const dx = from.x - to.x, dy = from.y - to.y;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  return node.animate([
    { transform: `translate(${dx}px, ${dy}px)`, ...keyframes.from },
    { transform: "translate(0, 0)", ...keyframes.to },
  ], { duration: TRAVEL_MS, easing: "cubic-bezier(.2, .7, .3, 1)" });
}

/** Move what changed since ``before``: each card new in the trick comes from where it
 * was (this hand) or from its player's seat; a trick just won slides towards the winner. */
export function animateTable(before, root) {
  if (!before || reduced() || typeof Element.prototype.animate !== "function") return;
  const trick = root.querySelector("[data-testid=trick]");
  if (!trick) return;
  const seatOf = (node) => node.closest(".play")?.dataset.seat;
  const seatRect = (seat) => root.querySelector(`.seat-panel[data-seat='${seat}']`)?.getBoundingClientRect()
    ?? before.seats.get(seat);
  const won = trick.classList.contains("previous") && !before.previous;
  for (const node of trick.querySelectorAll("[data-card]")) {
    const code = node.dataset.card;
    const to = centre(node.getBoundingClientRect());
    if (won) {
      // the trick is over: it slides a little towards its winner, then rests there
      const winner = seatRect(trick.dataset.winner);
      if (!winner) continue;
      const far = centre(winner);
      const last = !before.trick.includes(code);
      const start = last && before.cards.has(code) ? centre(before.cards.get(code)) : last ? centre(seatRect(seatOf(node)) ?? winner) : to;
      slide(node, start, to);
      node.animate([{ translate: "0 0" }, { translate: `${(far.x - to.x) * 0.12}px ${(far.y - to.y) * 0.12}px` }, { translate: "0 0" }],
        { duration: TRAVEL_MS * 2, delay: TRAVEL_MS, easing: "ease-in-out" });
    } else if (!before.trick.includes(code)) {
      const from = before.cards.get(code) ?? seatRect(seatOf(node));
      if (from) slide(node, centre(from), to, { from: { opacity: 0.4 }, to: { opacity: 1 } });
    }
  }
}
