// The analysis of a finished table's deal, for the replay's marks: GET
// /api/tables/<id>/deals/<n>/analysis answers 200 (ready), 202 (being prepared: asked
// again a little later) or anything else (none). Whatever it answers, the replay works:
// no analysis, or a malformed one, means no marks and no error.

const RETRY_MS = 3000;
const MAX_TRIES = 40;
const found = new Map(); // "<table>/<deal>" → {status: "pending" | "ready" | "none", marks, tries}

const isNumber = (x) => typeof x === "number" && Number.isFinite(x);
const isIndex = (x) => Number.isInteger(x) && x >= 0;

function costOfDecision(d) {
  if (isNumber(d.cost_points)) return { points: d.cost_points, tricks: isNumber(d.cost_tricks) ? d.cost_tricks : null };
  if (!Array.isArray(d.options)) return null;
  const chosen = d.options.find((o) => o && typeof o === "object" && (o.action === d.chosen || o.option === d.chosen));
  return chosen && isNumber(chosen.cost_points)
    ? { points: chosen.cost_points, tricks: isNumber(chosen.cost_tricks) ? chosen.cost_tricks : null } : null;
}

/** The marks of an analysis: action index → {points, tricks, best, bot}, only for the
 * actions that cost points. Anything malformed is left out. */
export function marksOf(analysis) {
  const marks = new Map();
  if (!analysis || typeof analysis !== "object") return marks;
  const add = (index, cost, entry) => {
    if (!isIndex(index) || !cost || !isNumber(cost.points) || cost.points <= 0 || marks.has(index)) return;
    const best = Array.isArray(entry.best) ? entry.best.filter((c) => typeof c === "string").slice(0, 8) : [];
    const bot = typeof entry.bot === "string" ? entry.bot : null;
    marks.set(index, { points: cost.points, tricks: cost.tricks, best, bot });
  };
  for (const c of Array.isArray(analysis.cards) ? analysis.cards : []) {
    if (!c || typeof c !== "object") continue;
    add(c.index, { points: c.cost_points, tricks: isNumber(c.cost_tricks) ? c.cost_tricks : null }, c);
  }
  const decisions = new Map();
  for (const d of Array.isArray(analysis.decisions) ? analysis.decisions : []) {
    if (!d || typeof d !== "object") continue;
    decisions.set(d.index, d);
    add(d.index, costOfDecision(d), d);
  }
  // a decision's cost (the expected points its choice gave up) is in the mistakes
  for (const m of Array.isArray(analysis.mistakes) ? analysis.mistakes : []) {
    if (m && typeof m === "object") add(m.index, costOfDecision(m), { bot: decisions.get(m.index)?.bot, ...m });
  }
  return marks;
}

async function ask(tableId, dealIndex) {
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/deals/${dealIndex}/analysis`);
    if (res.status === 202) return { status: "pending" };
    if (res.status !== 200) return { status: "none" };
    return { status: "ready", marks: marksOf(await res.json()) };
  } catch {
    return { status: "none" };
  }
}

/** What is known of the analysis of deal ``dealIndex`` of table ``tableId``: {status,
 * marks}. The first call asks the server; ``changed`` is called when an answer comes
 * (a pending one is asked again every few seconds while ``wanted()`` says so). */
export function analysisOf(tableId, dealIndex, changed, wanted) {
  const key = `${tableId}/${dealIndex}`;
  let entry = found.get(key);
  if (!entry) {
    entry = { status: "asking", marks: new Map(), tries: 0 };
    found.set(key, entry);
    const poll = async () => {
      entry.tries += 1;
      const answer = await ask(tableId, dealIndex);
      entry.status = answer.status;
      entry.marks = answer.marks || new Map();
      if (answer.status === "pending" && entry.tries < MAX_TRIES) {
        setTimeout(() => (wanted() ? poll() : found.delete(key)), RETRY_MS);
      } else if (answer.status === "pending") {
        entry.status = "none";
      }
      changed();
    };
    poll();
  }
  return entry;
}
