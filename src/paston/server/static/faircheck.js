// The end-of-deal panel's check of the shuffle (docs/FAIRNESS.md, "Checked in your
// browser"): once a deal is over the state carries its fairness object (the secret
// revealed, the three seeds and who chose them); the page checks with fairness.js that
// the secret is the one committed to, the server's seeds are the ones its secret gives,
// the chain holds, the deck derived from them deals the cards shown, and that the seed
// this browser sent for that commitment (seedstore.js) is the seat's seed. The result is
// shown in the panel and said once in the live log (polite).
import { rerender } from "./chrome.js";
import { el } from "./dom.js";
import { checkDeal, link } from "./fairness.js";
import { live } from "./live.js";
import { logNote } from "./livelog.js";
import { keptSeed } from "./seedstore.js";
import { t } from "./text.js";

const results = new Map(); // what was checked (table, deal, seat, seed) -> its result, or "pending"
const said = new Set(); // the checks already told to the live log

/** The verdict of a check of ``entry`` for ``seat``: ok, no-seed (this browser sent no
 * seed and the server's stood in), other-seed (this browser sent none, but the seat's
 * seed came from its client: another browser on the same seat), not-used (the seed sent
 * is not the seat's) or mismatch (the data do not prove the deck). */
export function verdict(r, seat, entry) {
  if (seat !== null && r.seedUsed === false) return "not-used";
  const sound = r.commitment && r.serverSeeds && r.deck && r.chain !== false && r.hand !== false && !r.error;
  if (!sound) return "mismatch";
  if (seat !== null && r.seedUsed === null) return entry.seeds[seat].by === "seat" ? "other-seed" : "no-seed";
  return "ok";
}

const WORDS = {
  ok: (seat) => (seat === null ? "fairOkWatching" : "fairOk"),
  "no-seed": () => "fairNoSeed",
  "other-seed": () => "fairOtherSeed",
  "not-used": () => "fairNotUsed",
  mismatch: () => "fairMismatch",
};

function run(key, state, s, entry, seat, seed) {
  results.set(key, "pending");
  const before = state.deals[s.deal - 1];
  const previous = before && before.fairness ? link(before.fairness) : Promise.resolve(null);
  previous
    .then((prev) => checkDeal(entry, {
      dealt: { dealer: s.dealer, hands: s.seats.map((line) => line.hand), prikup: s.prikup },
      seat, seed, previous: prev,
    }))
    .catch((err) => ({ error: String(err) }))
    .then((r) => {
      results.set(key, verdict(r, seat, entry));
      if (!said.has(key)) {
        said.add(key);
        const words = WORDS[results.get(key)](seat);
        logNote(() => `${t("fairLogDeal", { n: state.sheet.length })} ${t(words)}`, { type: "fairness", result: results.get(key) });
      }
      rerender();
    });
}

/** The check's line of the end-of-deal panel for summary ``s`` of ``state`` (null when the
 * deal has no fairness data: a deal dealt before paston-deck/1). */
export function fairnessView(state, s) {
  const deal = state.deals && state.deals[s.deal];
  const entry = deal && deal.fairness;
  if (!entry) return null;
  const seat = state.you;
  const seed = seat === null ? null : keptSeed(live.tableId, entry.commitment);
  const key = JSON.stringify([live.tableId, s.deal, entry.commitment, seat, seed]);
  if (!results.has(key)) run(key, state, s, entry, seat, seed);
  const result = results.get(key);
  const over = state.winners.length > 0;
  const bad = result === "not-used" || result === "mismatch";
  return el("div", { class: `fair-check ${result}`, "data-testid": "fair-check", "data-result": result },
    el("p", { class: "fair-verdict" },
      result === "pending" ? t("fairChecking") : [
        el("span", { class: "fair-mark", "aria-hidden": "true" }, bad ? "✗" : result === "ok" ? "✓" : "•"), " ",
        t(WORDS[result](seat))]),
    el("p", { class: "muted fair-record" }, over
      ? el("a", {
        href: `/api/tables/${live.tableId}/record`, download: `paston-${live.tableId}.json`,
        "data-testid": "fair-record",
      }, t("fairRecord"))
      : t("fairRecordLater")));
}
