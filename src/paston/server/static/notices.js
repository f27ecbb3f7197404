// Notes on a table page about the page itself (issue 12 §6): the connection lost (the
// table is dimmed and nothing can be sent until it is back), and a seat key that was
// refused (the page watches: it says so and offers the free seats).
import { el } from "./dom.js";
import { live } from "./live.js";
import { t } from "./text.js";

/** "Reconnecting…" on the table while the connection is down; null while it is up. */
export function connectionNote() {
  if (live.connected) return null;
  return el("p", { class: "offline-note", role: "status", "data-testid": "reconnecting" }, t("reconnectingNote"));
}

function goToSeat(seat) {
  const input = document.getElementById(`seat-name-${seat}`);
  if (input) {
    input.scrollIntoView({ block: "center" });
    input.focus();
  }
}

/** When the seat key kept for this table was refused: what happened, and the free seats
 * (each button goes to that seat's form); null otherwise. */
export function seatLostNote(state, names) {
  if (!live.seatLost || state.you !== null) return null;
  const free = state.table.seats.filter((s) => s.kind === "human" && !s.taken);
  return el("section", { class: "panel notice", role: "status", "data-testid": "seat-lost" },
    el("p", {}, t("seatLost")),
    free.length
      ? el("p", { class: "buttons" }, el("span", {}, t("seatLostFree")), free.map((s) => el("button", {
        type: "button", "data-testid": "go-to-seat", "data-seat-choice": s.seat, onclick: () => goToSeat(s.seat),
      }, t("goToSeat", { name: names[s.seat] }))))
      : el("p", {}, t("seatLostNone")));
}
