// The analysis of a finished deal (GET /api/tables/<id>/deals/<n>/analysis) in a dialog:
// points lost per player, the biggest mistakes, every card by trick with its cost marks
// and what pimc would have played, every decision with pimc's score for each option.
// Others open it with window.pastonOpenAnalysis(tableId, dealIndex).
import { api } from "./api.js";
import { cardNode, cardText } from "./cards.js";
import { el, svg } from "./dom.js";
import { SEAT_COLORS, seatNames } from "./players.js";
import { actionLabel, errorText, num, signed, t } from "./text.js";

const POLL_MS = 700; // while the server says "pending"
const POLL_LIMIT = 120; // polls before giving up (the server computes a deal in seconds)
let opened = 0; // the latest opening: an older one that answers late draws nothing

/** The stylesheet of the dialog, added once (the page's CSP allows only its own files). */
function ensureStyle() {
  if (document.getElementById("analysis-css")) return;
  document.head.append(el("link", {
    id: "analysis-css", rel: "stylesheet", href: new URL("./analysis.css", import.meta.url).href,
  }));
}

function dialog() {
  let node = document.getElementById("analysis-dialog");
  if (!node) {
    node = el("dialog", { id: "analysis-dialog", class: "analysis", "data-testid": "analysis" });
    node.addEventListener("click", (e) => { if (e.target === node) node.close(); }); // the backdrop
    document.body.append(node);
  }
  return node;
}

const isCard = (text) => /^[2-9TJQKA][SCDH]$/.test(text);

/** An action of the analysis in words: a card, "discard 7D 8H", "bid hearts", "whist"… */
export function whatText(text) {
  if (isCard(text)) return cardText(text);
  if (text.startsWith("discard ")) {
    return t("anDiscard", { cards: text.slice(8).split(" ").map(cardText).join(" ") });
  }
  return actionLabel(text);
}

function nameCell(names, seat) {
  return el("span", { class: "an-name", "data-seat": seat },
    el("span", { class: "dot", style: `background:${SEAT_COLORS[seat]}`, "aria-hidden": "true" }),
    names[seat]);
}

function totalsView(a, names) {
  return el("section", { class: "an-section" },
    el("h3", {}, t("anTotals")),
    el("table", { class: "an-totals", "data-testid": "an-totals" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("anPlayer")),
        el("th", { scope: "col" }, t("anPointsLost")))),
      el("tbody", {}, a.totals.map((lost, seat) => el("tr", { "data-seat": seat, "data-lost": lost },
        el("th", { scope: "row" }, nameCell(names, seat)),
        el("td", { class: lost > 0 ? "an-lost" : "" }, num(lost)))))));
}

function mistakesView(a, names) {
  const items = a.mistakes.map((m) => el("li", {
    "data-index": m.index, "data-seat": m.seat, "data-what": m.what, "data-cost": m.cost_points,
  }, t("anMistakeLine", { name: names[m.seat], what: whatText(m.what), points: num(-m.cost_points) })));
  return el("section", { class: "an-section" },
    el("h3", {}, t("anMistakes")),
    items.length ? el("ol", { class: "an-mistakes", "data-testid": "an-mistakes" }, items)
      : el("p", { class: "muted", "data-testid": "an-mistakes" }, t("anNoMistakes")));
}

function costMarks(c) {
  return [
    c.cost_points > 0 ? el("span", {
      class: "an-mark points", title: t("anPointsMarkTitle", { n: c.cost_points }),
    }, t("anPointsMark", { n: c.cost_points })) : null,
    c.cost_tricks > 0 ? el("span", {
      class: "an-mark tricks", title: t("anTricksMarkTitle", { n: c.cost_tricks }),
    }, t("anTricksMark", { n: c.cost_tricks })) : null,
  ];
}

function cardView(c, names) {
  const costly = c.cost_points > 0; // "best" is by points: a card may lose a trick and no point
  return el("li", {
    class: `an-card${costly ? " costly" : ""}`, "data-index": c.index, "data-seat": c.seat, "data-card": c.card,
    "data-cost-points": c.cost_points, "data-cost-tricks": c.cost_tricks, "data-bot": c.bot,
    "data-best": c.best.join(" "),
  },
  nameCell(names, c.seat),
  cardNode(c.card, { size: "small" }),
  costMarks(c),
  costly ? el("span", { class: "an-best" }, t("anBest", { cards: c.best.map(cardText).join(" ") })) : null,
  c.bot !== c.card ? el("span", { class: "an-bot" }, t("anBot", { card: cardText(c.bot) })) : null);
}

function cardsView(a, names) {
  const perTrick = new Set(a.cards.map((c) => c.seat)).size || 1;
  const tricks = [];
  for (let i = 0; i < a.cards.length; i += perTrick) tricks.push(a.cards.slice(i, i + perTrick));
  return el("section", { class: "an-section" },
    el("h3", {}, t("anCards")),
    tricks.length ? el("ol", { class: "an-tricks", "data-testid": "an-cards" }, tricks.map((trick, k) =>
      el("li", { class: "an-trick", "data-trick": k + 1 },
        el("span", { class: "an-trick-no" }, t("anTrick", { n: k + 1 })),
        el("ul", { class: "an-trick-cards" }, trick.map((c) => cardView(c, names))))))
      : el("p", { class: "muted" }, t("anNoCards")));
}

function optionsView(d) {
  if (!d.options.length) return el("span", { class: "muted" }, t("anNoOptions"));
  const best = Math.max(...d.options.map((o) => o.score));
  return el("ul", { class: "an-options" }, d.options.map((o) => el("li", {
    class: [o.score === best ? "best" : "", o.action === d.chosen ? "chosen" : ""].filter(Boolean).join(" "),
    "data-action": o.action, "data-score": o.score,
  }, el("span", {}, whatText(o.action)), " ", el("span", { class: "an-score" }, signed(o.score)))));
}

function decisionsView(a, names) {
  if (!a.decisions.length) return null;
  return el("section", { class: "an-section" },
    el("h3", {}, t("anDecisions")),
    el("table", { class: "an-decisions", "data-testid": "an-decisions" },
      el("thead", {}, el("tr", {}, [t("anPlayer"), t("anPhase"), t("anChosen"), t("anOptions"), t("anBotCol")]
        .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, a.decisions.map((d) => el("tr", {
        "data-index": d.index, "data-seat": d.seat, "data-phase": d.phase, "data-chosen": d.chosen, "data-bot": d.bot,
      },
      el("td", {}, nameCell(names, d.seat)),
      el("td", {}, t(`anPhase_${d.phase}`)),
      el("td", {}, whatText(d.chosen)),
      el("td", {}, optionsView(d)),
      el("td", { class: d.bot === d.chosen ? "" : "an-differs" }, whatText(d.bot)))))));
}

/** The whole analysis, ready to be put in the dialog. */
export function analysisView(a, names) {
  return [totalsView(a, names), mistakesView(a, names), cardsView(a, names), decisionsView(a, names)];
}

function frame(node, title, ...body) {
  const close = el("button", { type: "button", class: "an-close", "data-testid": "an-close", onclick: () => node.close() },
    t("anClose"));
  node.replaceChildren(el("header", { class: "an-head" }, el("h2", {}, title), close),
    ...body.flat(Infinity).filter(Boolean));
}

/** Open the analysis of deal ``dealIndex`` (its index in the game's deals) of a table;
 * ``number`` is the deal's number as the score sheet shows it (default: index + 1). */
export async function openAnalysis(tableId, dealIndex, number = dealIndex + 1) {
  ensureStyle();
  const node = dialog();
  const mine = ++opened;
  const title = t("anTitle", { n: number });
  node.dataset.state = "pending";
  node.dataset.deal = String(dealIndex);
  frame(node, title, el("p", { class: "muted", role: "status" }, t("anPending")));
  if (!node.open) node.showModal();
  try {
    const table = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    const names = seatNames(table);
    for (let i = 0; i < POLL_LIMIT; i++) {
      const a = await api(`/api/tables/${encodeURIComponent(tableId)}/deals/${dealIndex}/analysis`);
      if (mine !== opened) return;
      if (a.status !== "pending") {
        frame(node, title, el("p", { class: "muted" }, t("anLevel", { level: a.level })), analysisView(a, names));
        node.dataset.state = "ready";
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    frame(node, title, el("p", { class: "error" }, t("anSlow")));
    node.dataset.state = "slow";
  } catch (err) {
    if (mine !== opened) return;
    frame(node, title, el("p", { class: "error", role: "alert" },
      t("anFailed", { text: errorText(err.code, err.message) })));
    node.dataset.state = "error";
  }
}

/** A small button that opens a deal's analysis (for the score sheet's rows). */
export function analysisButton(tableId, dealIndex, number) {
  ensureStyle();
  return el("button", {
    type: "button", class: "an-open", "data-testid": "an-open", "data-deal-index": dealIndex,
    title: t("anOpenTitle", { n: number }), "aria-label": t("anOpenTitle", { n: number }),
    onclick: () => openAnalysis(tableId, dealIndex, number),
  }, svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false", class: "an-icon" },
    svg("circle", { cx: "10", cy: "10", r: "6.5", fill: "none", stroke: "currentColor", "stroke-width": "2.5" }),
    svg("path", { d: "M15 15l6 6", stroke: "currentColor", "stroke-width": "2.5", "stroke-linecap": "round" })));
}

window.pastonOpenAnalysis = (tableId, dealIndex, number) => openAnalysis(tableId, dealIndex, number);
