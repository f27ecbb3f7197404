// The replay viewer: a finished game (GET /api/tables/<id>/replay) or a record file the
// person opens (POST /api/replay), step by step with every hand shown.
import { api } from "./api.js";
import { cardNode, cardText, sortCards } from "./cards.js";
import { app, rerender, showError } from "./chrome.js";
import { el } from "./dom.js";
import { actionLabel, t } from "./text.js";

let data = null, dealIndex = 0, stepIndex = 0;

function moveText(next) {
  if (!next) return t("dealEnd");
  const [kind, ...rest] = next.action.split(" ");
  const shown = kind === "play" || kind === "discard" ? rest.map(cardText).join(" ") : actionLabel(next.action);
  return t("nextMove", { who: data.seats[next.seat], action: shown });
}

function go(deal, step) {
  dealIndex = deal;
  stepIndex = step;
  const hadFocus = app.contains(document.activeElement);
  rerender(); // the focus stays on the button pressed
  if (hadFocus && !app.contains(document.activeElement)) document.getElementById("replay-title")?.focus();
}

/** Draw the step shown, or the file picker when no game is open yet. */
export function renderReplay() {
  if (!data) {
    const input = el("input", {
      type: "file", accept: ".json,.jsonl,application/json", id: "record-file",
      "aria-label": t("chooseRecord"), onchange: openRecordFile,
    });
    app.replaceChildren(el("section", { class: "panel" }, el("h1", {}, t("openRecordFile")),
      el("p", {}, el("label", { for: "record-file" }, t("chooseRecord"))), input));
    return;
  }
  const deal = data.deals[dealIndex];
  const step = deal.steps[stepIndex];
  const seats = data.seats;
  const button = (key, enabled, onclick) => el("button", { type: "button", "data-testid": key, disabled: !enabled, onclick }, t(key));
  const hands = el("div", { class: "replay-hands" }, [0, 1, 2].map((s) => el("div", { class: "replay-hand", "data-seat": s },
    el("h3", {}, seats[s], step.declarer === s ? ` · ${t("declarer")}` : ""),
    el("div", { class: "hand" }, sortCards(step.hands[s]).map((c) => cardNode(c, { size: "small" }))))));
  const talon = el("div", {}, el("h3", {}, t("talon")), el("div", { class: "hand" },
    [...step.prikup, ...step.discard.filter((c) => !step.prikup.includes(c))].map((c) => cardNode(c, { size: "small" }))));
  const trick = el("div", { class: "hand" },
    step.trick.map((p) => el("span", { class: "play" }, cardNode(p.card, { size: "small" }), seats[p.seat])));
  app.replaceChildren(el("section", { class: "panel replay", "data-testid": "replay" },
    el("h1", { id: "replay-title", tabindex: -1 }, t("replayTitle"), " · ", t("dealN", { n: dealIndex + 1 }), " · ",
      t("stepOf", { n: stepIndex + 1, total: deal.steps.length })),
    el("div", { class: "row" },
      button("prevDeal", dealIndex > 0, () => go(dealIndex - 1, 0)),
      button("prevStep", stepIndex > 0, () => go(dealIndex, stepIndex - 1)),
      button("nextStep", stepIndex < deal.steps.length - 1, () => go(dealIndex, stepIndex + 1)),
      button("nextDeal", dealIndex < data.deals.length - 1, () => go(dealIndex + 1, 0))),
    el("p", { class: "muted" }, t("replayKeys")),
    el("p", { "data-testid": "next-move" }, moveText(step.next)),
    el("h2", {}, t("allHands")), hands, talon, trick));
}

async function openRecordFile(e) {
  const file = e.target.files[0];
  if (!file) return;
  try {
    data = await api("/api/replay", await file.text());
    go(0, 0);
  } catch (err) {
    showError(err.code, err.message);
  }
}

document.addEventListener("keydown", (e) => {
  if (!data || e.target.tagName === "INPUT") return;
  const steps = data.deals[dealIndex].steps.length;
  if (e.key === "ArrowRight" && stepIndex < steps - 1) go(dealIndex, stepIndex + 1);
  if (e.key === "ArrowLeft" && stepIndex > 0) go(dealIndex, stepIndex - 1);
});

/** Show the replay of finished table ``id``, or the record-file picker when none. */
export async function replay(id) {
  if (id) data = await api(`/api/tables/${id}/replay`);
  renderReplay();
}
