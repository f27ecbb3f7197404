// paston-deck/1 in the page (docs/FAIRNESS.md): the browser checks each deal it helped to
// shuffle. SHA-256 and HMAC-SHA256 come from crypto.subtle; the deck derivation is the
// document's, step by step (the byte stream, uniform(n) without bias, Fisher–Yates from
// the top index down, the cut, both again while 7♠ is at the bottom). The tests run it in
// chromium against the Python verifier (paston.fairness) on the document's vectors and on
// real records. Pure functions of their arguments, apart from crypto.subtle.

export const VERSION = "paston-deck/1";
/** Card codes by index: index = 8 × suit + rank, suits S C D H, ranks 7 8 9 T J Q K A. */
export const CARDS = [..."SCDH"].flatMap((s) => [..."789TJQKA"].map((r) => r + s));
const SEVEN_OF_SPADES = 0;
const HEX64 = /^[0-9a-f]{64}$/;
const text = new TextEncoder();

/** The 32 bytes of 64 hexadecimal digits. */
function bytesOf(hex) {
  if (!HEX64.test(hex)) throw new Error("not 64 lowercase hexadecimal digits");
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function hexOf(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** hex(SHA-256(data)); ``data`` is bytes or text (UTF-8). */
export async function sha256(data) {
  const bytes = typeof data === "string" ? text.encode(data) : data;
  return hexOf(await crypto.subtle.digest("SHA-256", bytes));
}

/** The HMAC-SHA256 key of a secret (64 hex digits). */
function keyOf(secret) {
  return crypto.subtle.importKey("raw", bytesOf(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function mac(key, data) {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
}

/** The commitment to a secret: hex(SHA-256 of its 32 bytes). */
export function commitment(secret) {
  return sha256(bytesOf(secret));
}

/** The server's seed for ``seat``: hex(HMAC-SHA256(secret, "paston-deck/1 server seed <seat>")). */
export async function serverSeed(secret, seat) {
  return hexOf(await mac(await keyOf(secret), text.encode(`${VERSION} server seed ${seat}`)));
}

/** The HMAC message of a deal: the lines version, table, deal, previous ("" for null) and
 * the three seeds, joined by "\n" (no final newline). */
function message(table, deal, previous, seeds) {
  return text.encode([VERSION, table, String(deal), previous || "", ...seeds].join("\n"));
}

/** The byte stream: block i = HMAC-SHA256(secret, message ‖ i as 8 bytes big-endian). */
function stream(key, msg) {
  let block = new Uint8Array(0), at = 0, counter = 0n;
  const data = new Uint8Array(msg.length + 8);
  data.set(msg);
  return async () => {
    if (at === block.length) {
      new DataView(data.buffer).setBigUint64(msg.length, counter);
      block = await mac(key, data);
      at = 0;
      counter += 1n;
    }
    return block[at++];
  };
}

/** uniform(n), 1 ≤ n ≤ 256: bytes at or above 256 − (256 mod n) are skipped. */
async function uniform(next, n) {
  const limit = 256 - (256 % n);
  for (;;) {
    const b = await next();
    if (b < limit) return b % n;
  }
}

/** The deck of a deal (card indices, deck[0] dealt first), as paston.fairness.derive_deck. */
export async function deriveDeck(secret, table, deal, previous, seeds) {
  const next = stream(await keyOf(secret), message(table, deal, previous, seeds));
  let deck = Array.from({ length: 32 }, (_, i) => i);
  for (;;) {
    for (let i = 31; i >= 1; i--) {
      const j = await uniform(next, i + 1);
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    const cut = 1 + (await uniform(next, 31));
    deck = [...deck.slice(cut), ...deck.slice(0, cut)];
    if (deck[31] !== SEVEN_OF_SPADES) return deck;
  }
}

/** The link of a fairness object (the next deal's ``previous``): hex(SHA-256 of the lines
 * version, table, deal, previous or "", commitment, secret, then each seat's seed and by). */
export function link(entry) {
  const seeds = entry.seeds.flatMap((s) => [s.seed, s.by]);
  const lines = [entry.version, entry.table, String(entry.deal), entry.previous || "", entry.commitment, entry.secret];
  return sha256([...lines, ...seeds].join("\n"));
}

// Deck positions of the hands of L (dealer+1), M (dealer+2), D (dealer); the prikup (R1.3).
const POSITIONS = [
  [0, 1, 8, 9, 14, 15, 20, 21, 26, 27],
  [2, 3, 10, 11, 16, 17, 22, 23, 28, 29],
  [4, 5, 12, 13, 18, 19, 24, 25, 30, 31],
];

/** What a deck deals (R1.3) when ``dealer`` deals: each seat's hand and the prikup, as
 * sorted card codes. */
export function dealOf(deck, dealer) {
  const codes = (positions) => positions.map((p) => CARDS[deck[p]]).sort();
  const hands = [null, null, null];
  POSITIONS.forEach((positions, offset) => { hands[(dealer + 1 + offset) % 3] = codes(positions); });
  return { hands, prikup: codes([6, 7]) };
}

function sameCards(a, b) {
  const x = [...a].sort(), y = [...b].sort();
  return x.length === y.length && x.every((c, i) => c === y[i]);
}

/**
 * Check one finished deal in the page. ``entry`` is its fairness object (the record's
 * form); ``dealt`` what was dealt: ``{dealer, hands: [3 × codes or null], prikup: codes}``
 * (a hand the page does not know is null); ``seat`` this page's seat (null: watching);
 * ``seed`` the seed this browser sent for the entry's commitment (null: it sent none);
 * ``asked`` the commitment it was asked for (null: unknown); ``previous`` the link the
 * entry's ``previous`` must be (undefined: not checked). Answers every check by name
 * (true, false, or null where there is nothing to check) and ``ok``: all checks passed
 * and, for a seat, its seed was used.
 */
export async function checkDeal(entry, { dealt, seat = null, seed = null, asked = null, previous = undefined }) {
  const out = { commitment: false, serverSeeds: false, chain: null, asked: null, seedUsed: null, deck: false, hand: null, ok: false };
  try {
    if (entry.version !== VERSION) return { ...out, error: "version" };
    const seeds = entry.seeds.map((s) => s.seed);
    out.commitment = (await commitment(entry.secret)) === entry.commitment;
    const derived = await Promise.all(entry.seeds.map((s, i) => (s.by === "server" ? serverSeed(entry.secret, i) : s.seed)));
    out.serverSeeds = derived.every((s, i) => s === seeds[i]);
    if (previous !== undefined) out.chain = (entry.previous || null) === (previous || null);
    if (asked !== null) out.asked = asked === entry.commitment;
    if (seat !== null && seed !== null) out.seedUsed = entry.seeds[seat].seed === seed && entry.seeds[seat].by === "seat";
    const deck = await deriveDeck(entry.secret, entry.table, entry.deal, entry.previous, seeds);
    out.cards = deck.map((c) => CARDS[c]);
    const got = dealOf(deck, dealt.dealer);
    const known = dealt.hands.map((h, i) => (h === null ? null : sameCards(h, got.hands[i])));
    out.deck = known.every((k) => k !== false) && (!dealt.prikup || sameCards(dealt.prikup, got.prikup));
    if (seat !== null && dealt.hands[seat] !== null) out.hand = known[seat];
  } catch (err) {
    return { ...out, error: String(err && err.message ? err.message : err) };
  }
  out.ok = out.commitment && out.serverSeeds && out.deck && out.chain !== false && out.asked !== false
    && out.hand !== false && (seat === null || out.seedUsed === true);
  return out;
}
