// The replay viewer: a finished game (GET /api/tables/<id>/replay) or a record file the
// person opens (POST /api/replay: the server checks and tells it), step by step with every
// hand shown. Arrow keys step (Home/End: the deal's start and end, Page Up/Down: deals);
// the focus stays on the control used. A finished table's deals carry the marks of their
// analysis when there is one (replay-marks.js); an opened file has none.
import { api } from "./api.js";
import { announce, app, rerender, showError } from "./chrome.js";
import { el } from "./dom.js";
import { analysisOf } from "./replay-marks.js";
import { markNode, moveText, namesOf, spokenMove, stepView } from "./replay-view.js";
import { t } from "./text.js";

let data = null, tableId = null, dealIndex = 0, stepIndex = 0;

const CONTROLS = ["prev-deal", "prev-step", "next-step", "next-deal"];

function analysis() {
  if (!tableId) return null;
  const deal = dealIndex, table = tableId;
  return analysisOf(table, deal, () => {
    if (data && tableId === table && dealIndex === deal) rerender();
  }, () => data && tableId === table && dealIndex === deal);
}

/** Show step ``step`` of deal ``deal``; the focus stays on the control that was used
 * (or moves to its neighbour when it can go no further). */
function go(deal, step) {
  const active = document.activeElement;
  const used = active && app.contains(active) ? active.dataset.testid : null;
  dealIndex = deal;
  stepIndex = step;
  renderReplay();
  const deals = data.deals, steps = deals[dealIndex].steps.length;
  // the move just shown (the one that led to this step), in words; a deal's start says its first move
  const shown = stepIndex > 0 ? deals[dealIndex].steps[stepIndex - 1].next : null;
  announce(shown ? spokenMove(shown, namesOf(data)) : moveText(deals[dealIndex].steps[stepIndex].next, namesOf(data)));
  if (!CONTROLS.includes(used)) return;
  const usable = (id) => {
    const b = app.querySelector(`[data-testid=${id}]`);
    return b && !b.disabled ? b : null;
  };
  const partner = { "prev-step": "next-step", "next-step": "prev-step", "prev-deal": "next-deal", "next-deal": "prev-deal" };
  const target = usable(used) || usable(partner[used]) || usable(steps > 1 ? "next-step" : "next-deal");
  if (target) target.focus({ preventScroll: true });
}

function stepBy(delta) {
  const steps = data.deals[dealIndex].steps.length;
  const next = Math.min(Math.max(stepIndex + delta, 0), steps - 1);
  if (next !== stepIndex) go(dealIndex, next);
}

function dealBy(delta) {
  const next = dealIndex + delta;
  if (next >= 0 && next < data.deals.length) go(next, 0);
}

function picker() {
  const input = el("input", {
    type: "file", accept: ".json,.jsonl,application/json", id: "record-file",
    "aria-label": t("chooseRecord"), onchange: openRecordFile,
  });
  app.replaceChildren(el("section", { class: "panel" }, el("h1", {}, t("openRecordFile")),
    el("p", {}, el("label", { for: "record-file" }, t("chooseRecord"))), input));
}

function analysisButton(found) {
  if (!found || found.status !== "ready" || typeof window.pastonOpenAnalysis !== "function") {
    return found && found.status === "pending"
      ? el("span", { class: "muted", "data-testid": "analysis-pending" }, t("analysisPending")) : null;
  }
  const table = tableId, deal = dealIndex, number = data.deals[dealIndex].number;
  return el("button", {
    type: "button", class: "secondary", "data-testid": "open-analysis",
    onclick: () => window.pastonOpenAnalysis?.(table, deal, number),
  }, t("openAnalysis"), found.marks.size ? ` (${found.marks.size})` : "");
}

/** Draw the step shown, or the file picker when no game is open yet. */
export function renderReplay() {
  if (!data) {
    picker();
    return;
  }
  if (!data.deals.length) {
    app.replaceChildren(el("section", { class: "panel replay", "data-testid": "replay" },
      el("h1", {}, t("replayTitle")), el("p", {}, t("replayNoDeals"))));
    return;
  }
  const deal = data.deals[dealIndex];
  const step = deal.steps[stepIndex];
  const names = namesOf(data);
  const found = analysis();
  const marks = found && found.status === "ready" ? found.marks : null;
  const button = (id, key, enabled, onclick) =>
    el("button", { type: "button", "data-testid": id, disabled: !enabled, onclick }, t(key));
  app.replaceChildren(el("section", {
    class: "replay", "data-testid": "replay", "data-deal": dealIndex, "data-step": stepIndex,
    "data-phase": step.phase, "data-marks": marks ? marks.size : "",
  },
  el("div", { class: "panel replay-head" },
    el("h1", {}, t("replayTitle"), " · ", t("dealOf", { n: dealIndex + 1, total: data.deals.length }),
      deal.redeal ? ` · ${t("phase_redeal")}` : ""),
    el("p", { "data-testid": "replay-position" }, t("stepOf", { n: stepIndex + 1, total: deal.steps.length })),
    el("div", { class: "replay-controls", role: "group", "aria-label": t("replayControls") },
      button("prev-deal", "prevDeal", dealIndex > 0, () => dealBy(-1)),
      button("prev-step", "prevStep", stepIndex > 0, () => stepBy(-1)),
      button("next-step", "nextStep", stepIndex < deal.steps.length - 1, () => stepBy(1)),
      button("next-deal", "nextDeal", dealIndex < data.deals.length - 1, () => dealBy(1)),
      analysisButton(found)),
    el("p", { class: "muted" }, t("replayKeysAll")),
    el("p", { class: "next-move", "data-testid": "next-move" }, moveText(step.next, names),
      step.next ? markNode(marks, step.next.index) : null)),
  stepView(data, deal, step, names, marks)));
}

async function openRecordFile(e) {
  const file = e.target.files[0];
  if (!file) return;
  try {
    data = await api("/api/replay", await file.text());
    tableId = null;
    dealIndex = 0;
    stepIndex = 0;
    rerender();
  } catch (err) {
    showError(err.code, err.message);
  }
}

const KEYS = {
  ArrowRight: () => stepBy(1), ArrowLeft: () => stepBy(-1),
  Home: () => stepBy(-Infinity), End: () => stepBy(Infinity),
  PageDown: () => dealBy(1), PageUp: () => dealBy(-1),
};

document.addEventListener("keydown", (e) => {
  if (!data || !data.deals.length || !KEYS[e.key] || e.altKey || e.ctrlKey || e.metaKey) return;
  if (!document.querySelector("[data-testid=replay]")) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) || e.target.isContentEditable) return;
  e.preventDefault();
  KEYS[e.key]();
});

/** Show the replay of finished table ``id``, or the record-file picker when none. */
export async function replay(id) {
  if (id) {
    data = await api(`/api/tables/${id}/replay`);
    tableId = id;
  }
  renderReplay();
}
