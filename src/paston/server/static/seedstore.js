// The seeds this browser sent (docs/FAIRNESS.md), kept in localStorage so that the page
// can check each deal it helped to shuffle, after a reload too, and send the same seed
// again when the same commitment is asked again (a reconnection). One entry per table
// ("paston-seeds-<id>": {at, seeds: [{seat, deal, commit, seed}]}), at most
// MAX_PER_TABLE seeds each (the newest), and at most MAX_TABLES tables (the ones used
// last); older ones are pruned whenever a seed is kept.

const PREFIX = "paston-seeds-";
export const MAX_PER_TABLE = 100;
export const MAX_TABLES = 20;

function read(key) {
  try {
    const got = JSON.parse(localStorage.getItem(key));
    return got && Array.isArray(got.seeds) ? got : null;
  } catch {
    return null;
  }
}

/** The seeds kept for table ``id``, oldest first. */
export function keptSeeds(id) {
  const got = read(PREFIX + id);
  return got ? got.seeds : [];
}

/** The seed this browser sent for commitment ``commit`` at table ``id`` (null: none). */
export function keptSeed(id, commit) {
  const found = keptSeeds(id).find((s) => s.commit === commit);
  return found ? found.seed : null;
}

/** Keep the seed sent for ``commit`` (``seat`` and ``deal`` as asked), then prune; returns
 * the seed kept for it: one kept already (another tab of this browser on the same seat
 * was asked first) stays. */
export function keepSeed(id, { seat, deal, commit, seed }) {
  const seeds = keptSeeds(id);
  const already = seeds.find((s) => s.commit === commit);
  if (already) return already.seed;
  seeds.push({ seat, deal, commit, seed });
  const entry = JSON.stringify({ at: Date.now(), seeds: seeds.slice(-MAX_PER_TABLE) });
  try {
    localStorage.setItem(PREFIX + id, entry);
  } catch { // storage full: make room, then try once more
    prune(MAX_TABLES / 2, id);
    try { localStorage.setItem(PREFIX + id, entry); } catch { /* the seed is still sent */ }
  }
  prune(MAX_TABLES, id);
  return seed;
}

/** Forget all but the ``keep`` tables used last (``current`` is never forgotten). */
function prune(keep, current) {
  const tables = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(PREFIX) && key !== PREFIX + current) tables.push([key, (read(key) || { at: 0 }).at]);
  }
  tables.sort((a, b) => b[1] - a[1]);
  for (const [key] of tables.slice(Math.max(0, keep - 1))) localStorage.removeItem(key);
}
