// Cards that move as at a real table: a card played travels from the hand (or from the
// opponent's seat) to its place in the trick, and a finished trick slides to the seat of
// the player who won it, where it rests until the next lead. Each drawing of the table
// replaces the page, so the motion is worked out from where the cards were just before
// (First-Last-Invert-Play with the Web Animations API): about a quarter of a second a
// step, and none at all for people who ask their system for reduced motion.

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
  ], { id: "to-trick", duration: TRAVEL_MS, easing: "cubic-bezier(.2, .7, .3, 1)" });
}

const shift = (from, to) => `translate(${from.x - to.x}px, ${from.y - to.y}px)`;

/** A trick just won: drawn as a pile by its winner's seat (.piled), each card travels
 * from where it was (the last one from the hand or the seat that played it) to its place
 * in the trick, rests there a moment, then slides to the pile: three steps of TRAVEL_MS. */
function gather(trick, before, seatRect) {
  const nodes = [...trick.querySelectorAll("[data-card]")];
  trick.classList.remove("piled"); // where each card lay in the trick…
  const spots = nodes.map((n) => centre(n.getBoundingClientRect()));
  trick.classList.add("piled"); // …and where it rests now, by the winner
  const piles = nodes.map((n) => centre(n.getBoundingClientRect()));
  nodes.forEach((node, i) => {
    const code = node.dataset.card;
    const seat = node.closest(".play")?.dataset.seat;
    const last = !before.trick.includes(code);
    const from = last ? before.cards.get(code) ?? seatRect(seat) : before.cards.get(code);
    const start = from ? centre(from) : spots[i];
    node.animate([
      { transform: shift(start, piles[i]), offset: 0 },
      { transform: shift(spots[i], piles[i]), offset: 1 / 3 },
      { transform: shift(spots[i], piles[i]), offset: 2 / 3 },
      { transform: "translate(0, 0)", offset: 1 },
    ], { id: "to-winner", duration: TRAVEL_MS * 3, easing: "ease-in-out" });
  });
}

/** Move what changed since ``before``: each card new in the trick comes from where it
 * was (this hand) or from its player's seat; a trick just won goes to its winner's seat. */
export function animateTable(before, root) {
  if (!before || reduced() || typeof Element.prototype.animate !== "function") return;
  const trick = root.querySelector("[data-testid=trick]");
  if (!trick) return;
  const seatOf = (node) => node.closest(".play")?.dataset.seat;
  const seatRect = (seat) => root.querySelector(`.seat-panel[data-seat='${seat}']`)?.getBoundingClientRect()
    ?? before.seats.get(seat);
  if (trick.classList.contains("previous") && !before.previous) {
    if (before.trick.length) gather(trick, before, seatRect);
    return;
  }
  for (const node of trick.querySelectorAll("[data-card]")) {
    const code = node.dataset.card;
    if (before.trick.includes(code)) continue;
    const from = before.cards.get(code) ?? seatRect(seatOf(node));
    if (from) slide(node, centre(from), centre(node.getBoundingClientRect()), { from: { opacity: 0.4 }, to: { opacity: 1 } });
  }
}
