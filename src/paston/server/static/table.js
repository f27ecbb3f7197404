// A live table on the page: the seats around it, the trick, the prikup, this person's
// hand and moves, the auction log, the invite link and the end of the game.
import { focusDiscard, handKeys, handStop, noteHandFocus, skipLink } from "./access.js";
import { cardBack, cardName, cardNode, sortCards } from "./cards.js";
import { hintView, markHint } from "./hint.js";
import { app, rerender } from "./chrome.js";
import { coachPanel } from "./coach.js";
import { el } from "./dom.js";
import { endDealView } from "./enddeal.js";
import { act, live, rematch, savedName, takeSeat } from "./live.js";
import { animateTable, snapshot } from "./motion.js";
import { tableSounds } from "./sounds.js";
import { SEAT_COLORS, botDescription, botLabel, seatNames } from "./players.js";
import { connectionNote, seatLostNote } from "./notices.js";
import { outcomeText, sheetView } from "./sheet.js";
import { GAME, actionLabel, num, signed, t, word } from "./text.js";

let state = null; // the state being drawn: live.state, set by renderTable
let heard = null; // the state last drawn, for the sounds of what changed since

function names() {
  return seatNames(state.table);
}

/** Seats around the table as this page sees them: [bottom (you), left, right]. */
function layout() {
  const me = state.you === null ? 0 : state.you;
  return [me, (me + 1) % 3, (me + 2) % 3];
}

/** What each seat last said in this deal (a bid, pass, trump, whist…). */
function calls(v) {
  const said = [null, null, null];
  for (const h of v.history) {
    if (h.type === "bid" || h.type === "trump") said[h.seat] = word(h.value);
    else if (h.type === "pass") said[h.seat] = t("pass");
    else if (h.type === "surrender") said[h.seat] = t("surrender");
    else if (h.type === "whist") said[h.seat] = GAME.whist;
  }
  return said;
}

/** Tricks a seat needs (R6.3, R5.2), or null when it does not play. */
function needs(v, seat) {
  if (v.declarer === null || v.phase !== "play") return null;
  if (seat === v.declarer) return 6;
  if (v.defenders.includes(seat)) return v.defenders.length === 2 ? 2 : 4;
  return null;
}

/** A seat's part in this deal once the contract is known: declarer, whister, or out (R6.1). */
function role(v, seat) {
  if (v.declarer === null) return null;
  if (seat === v.declarer) return { key: "declarer", cls: "declarer" };
  if (v.phase !== "play" && v.phase !== "over") return null;
  return v.defenders.includes(seat) ? { key: "roleWhister", cls: "whister" } : { key: "roleOut", cls: "out" };
}

/** An opponent's cards as a fan of overlapping backs, one per card (decorative: the
 * count is said in words to screen readers). */
function fan(count) {
  const shown = Math.min(count, 12);
  return [
    el("span", { class: "fan", "aria-hidden": "true", style: `--n: ${Math.max(shown, 1)}` },
      Array.from({ length: shown }, (_, i) => el("span", { class: "card back fan-card", style: `--i: ${i}` })),
      shown ? el("span", { class: "fan-count" }, num(count)) : null),
    el("span", { class: "sr-only" }, t("cardsInHand", { n: count })),
  ];
}

function seatPanel(s, v, position, said) {
  const n = names();
  const isTurn = v.to_move === s.seat;
  const status = s.kind === "bot" ? "bot" : !s.taken ? "free" : s.online ? "online" : s.standin ? "standin" : "offline";
  const statusText = {
    bot: t("statusBot", { bot: botLabel(s.bot) }), free: t("statusFree"),
    online: t("statusOnline"), offline: t("statusOffline"), standin: t("statusStandin"),
  }[status];
  const badges = [];
  if (v.dealer === s.seat) badges.push(el("span", { class: "badge dealer", title: t("dealer") }, t("dealerShort")));
  const part = role(v, s.seat);
  if (part) badges.push(el("span", { class: `badge role ${part.cls}`, "data-role": part.cls }, t(part.key)));
  const need = needs(v, s.seat);
  // the score at a glance: the total as a chip (its words for screen readers)
  const stats = [el("span", { class: "score-chip", "data-testid": "seat-total", title: t("totalShort", { n: num(v.totals[s.seat]) }) },
    el("span", { "aria-hidden": "true" }, num(v.totals[s.seat])),
    el("span", { class: "sr-only" }, t("totalShort", { n: num(v.totals[s.seat]) })))];
  if (v.phase === "play" || v.tricks.some((x) => x > 0)) {
    stats.push(el("span", { class: `taken ${need && v.tricks[s.seat] >= need ? "enough" : ""}`, "data-testid": "seat-tricks" },
      need ? t("tricksOfNeeded", { n: v.tricks[s.seat], need }) : t("tricksShort", { n: v.tricks[s.seat] })));
  }
  const backs = position === "me" && state.you === s.seat ? null : fan(v.hand_sizes[s.seat]);
  let form = null;
  if (state.you === null && !s.taken && s.kind === "human") {
    form = el("form", { class: "seat-form", "data-testid": "seat-form", onsubmit: (e) => takeSeat(s.seat, e) },
      el("label", { for: `seat-name-${s.seat}`, class: "sr-only" }, t("yourName")),
      el("input", {
        id: `seat-name-${s.seat}`, "data-testid": "seat-name", maxlength: 40, autocomplete: "nickname",
        placeholder: t("yourName"), value: live.seatNames[s.seat] || savedName(),
        oninput: (e) => { live.seatNames[s.seat] = e.target.value; },
      }),
      el("button", { type: "submit", class: "primary", "data-testid": "take-seat" }, t("takeSeat")));
  }
  const mine = state.you === s.seat;
  return el("div", {
    class: `seat-panel ${position} ${isTurn ? "turn" : ""} ${mine ? "mine" : ""}`,
    "data-seat": s.seat, "data-status": status, "aria-current": isTurn ? "true" : null,
  },
  backs ? el("div", { class: "seat-cards" }, backs) : null,
  el("div", { class: "seat-head" },
    el("span", { class: "dot", style: `background:${SEAT_COLORS[s.seat]}`, "aria-hidden": "true" }),
    el("strong", { class: "seat-name" }, n[s.seat]),
    mine ? el("span", { class: "badge you" }, t("you")) : null,
    badges,
    isTurn && !mine ? el("span", { class: "badge turn-badge" }, t("toPlay")) : null),
  el("div", { class: "seat-line" }, el("span", {
    class: `presence ${status}`, title: s.kind === "bot" ? botDescription(s.bot) || null : null,
  }, statusText), stats),
  // in the play the role says what the last call did (whist, pass; the marker the contract)
  said && !(part && v.phase === "play") ? el("div", { class: "seat-extra" }, el("span", { class: "bubble" }, said)) : null,
  form);
}

function turnText(v) {
  const n = names();
  if (state.winners.length) return t("gameOver"); // the panel above says who won
  if (v.to_move === null || state.shuffling || state.sealed) return ""; // the first deal's note says why
  if (state.you !== null && v.to_move === state.you) return t(`yourTurn_${v.phase}`);
  return t("waitingFor", { name: n[v.to_move], what: t(`phase_${v.phase}`) });
}

function trickView(v) {
  const [me, left, right] = layout();
  const pos = { [me]: "me", [left]: "left", [right]: "right" };
  const n = names();
  let plays = v.trick, caption = null, previous = false;
  if (!plays.length && v.last_trick && v.phase === "play") {
    plays = v.last_trick.plays;
    previous = true;
    caption = t("wonBy", { name: n[v.last_trick.winner] });
  }
  return el("div", {
    class: `trick ${previous ? "previous piled" : ""}`, "data-testid": "trick", role: "group", "aria-label": t("trick"),
    "data-winner": previous ? v.last_trick.winner : null, "data-winner-at": previous ? pos[v.last_trick.winner] : null,
  },
    plays.map((p, i) => el("div", { class: `play at-${pos[p.seat]}`, "data-seat": p.seat, style: `--k: ${i}` }, cardNode(p.card),
      el("span", { class: "who" }, n[p.seat]))),
    caption ? el("div", { class: "caption" }, caption) : null);
}

function lastTrickView(v) {
  // before the first card of a deal, the last trick is the previous deal's final one
  const last = v.last_trick || (v.history.some((h) => h.type === "play") ? null : state.previous_trick);
  if (!last) return null;
  v = { ...v, last_trick: last };
  const n = names();
  return el("div", { class: "last-trick" },
    el("button", {
      type: "button", "data-testid": "last-trick-toggle", "aria-expanded": String(live.showLast),
      onclick: () => { live.showLast = !live.showLast; rerender(); },
    }, live.showLast ? t("hideLastTrick") : t("showLastTrick")),
    live.showLast ? el("div", { class: "last-trick-cards", "data-testid": "last-trick" },
      v.last_trick.plays.map((p) => el("div", { class: "play" }, cardNode(p.card, { size: "small" }),
        el("span", { class: "who" }, n[p.seat]))),
      el("span", { class: "caption" }, t("wonBy", { name: n[v.last_trick.winner] }))) : null);
}

const TRUMP = { spades: ["S", "♠"], clubs: ["C", "♣"], diamonds: ["D", "♦"], hearts: ["H", "♥"], "best-spades": ["S", "♠"] };

/** The contract and trump, always in view at the top of the table: who plays what, the
 * trump suit as a large symbol, and in the play each side's tricks against its need. */
function contractMarker(v) {
  const n = names();
  let what = null;
  if (v.contract) what = t("declares", { name: n[v.declarer], contract: word(v.contract) });
  else if (v.declarer !== null) what = t("declarerIs", { name: n[v.declarer], contract: v.high_bid ? word(v.high_bid) : t("allPassed") });
  else if (v.high_bid) what = t("highestBid", { contract: word(v.high_bid) });
  if (!what) return null;
  const trump = v.contract ? TRUMP[v.contract] : null;
  const playing = v.phase === "play" && v.declarer !== null;
  const tally = playing ? [v.declarer, ...v.defenders].map((seat) => el("span", { class: "tally", "data-seat": seat },
    el("span", { class: "dot", style: `background:${SEAT_COLORS[seat]}`, "aria-hidden": "true" }),
    t("markerTricks", { name: n[seat], n: v.tricks[seat], need: needs(v, seat) }))) : null;
  return el("div", { class: "marker", "data-testid": "marker", role: "group", "aria-label": t("markerLabel") },
    trump ? el("span", { class: `trump-mark card-colour suit-${trump[0]}`, title: t("trumpWord", { contract: word(v.contract) }) },
      el("span", { "aria-hidden": "true" }, trump[1]),
      el("span", { class: "sr-only" }, t("trumpWord", { contract: word(v.contract) }))) : null,
    el("span", { class: "contract", "data-testid": "contract" }, what),
    tally ? el("span", { class: "tallies" }, tally) : null);
}

function centerView(v) {
  const parts = [];
  const n = names();
  if (v.phase === "auction") {
    parts.push(el("div", { class: "prikup-backs" }, el("span", { class: "label" }, GAME.prikup), cardBack(), cardBack()));
    if (state.sheet.length) parts.push(lastDealSummary());
  } else if (v.phase === "discard" || v.phase === "trump") {
    if (v.prikup) {
      parts.push(el("div", { class: "prikup", "data-testid": "prikup" }, el("span", { class: "label" }, GAME.prikup),
        sortCards(v.prikup).map((c) => cardNode(c))));
    } else {
      parts.push(el("p", {}, t(v.phase === "discard" ? "takesPrikup" : "namingTrump", { name: n[v.declarer], prikup: GAME.prikup })));
    }
  } else if (v.phase === "defence") {
    parts.push(el("p", {}, t("defenceNow")));
  } else if (v.phase === "play") {
    parts.push(trickView(v));
  } else if (v.phase === "over" && state.sheet.length) {
    parts.push(lastDealSummary());
  }
  return el("div", { class: "center" }, parts);
}

function lastDealSummary() {
  const row = state.sheet[state.sheet.length - 1];
  const n = names();
  return el("div", { class: "deal-summary", "data-testid": "last-deal" },
    el("strong", {}, t("dealNOver", { n: row.deal })), " ", outcomeText(row, n),
    el("ul", {}, row.scores.map((sc, i) => el("li", {}, `${n[i]}: ${signed(sc)}`))));
}

function handView(v) {
  const you = state.you;
  if (you === null) return null;
  if (state.sealed) { // the first deal waits for everyone's seed: no hand to show yet (F6)
    return el("div", { class: "hand-area" },
      el("h2", { class: "sr-only" }, t("yourHand")),
      el("p", { class: "muted", "data-testid": "hand-sealed" }, t("handSealed")));
  }
  const myTurn = v.to_move === you;
  const legal = new Set(v.legal);
  const prikup = new Set(v.prikup || []);
  const cards = sortCards(v.hand);
  const discarding = myTurn && v.phase === "discard";
  const idle = live.pending || !live.connected; // nothing can be sent now
  const usable = (c) => discarding || (myTurn && v.phase === "play" && legal.has(`play ${c}`));
  const stop = handStop(cards, usable);
  let lastSuit = null;
  const nodes = [];
  for (const c of cards) {
    if (lastSuit !== null && c[1] !== lastSuit) nodes.push(el("span", { class: "suit-gap", "aria-hidden": "true" }));
    lastSuit = c[1];
    const fromPrikup = discarding && prikup.has(c);
    const common = {
      button: true, tabindex: c === stop ? 0 : -1, onfocus: () => noteHandFocus(c),
      extra: fromPrikup ? "from-prikup" : "",
      label: fromPrikup ? t("fromPrikup", { card: cardName(c), prikup: GAME.prikup }) : null,
    };
    if (discarding) {
      nodes.push(cardNode(c, {
        ...common, selected: live.selected.includes(c), legal: !idle, disabled: idle,
        onclick: () => {
          live.selected = live.selected.includes(c) ? live.selected.filter((x) => x !== c) : [...live.selected, c].slice(-2);
          rerender();
          if (live.selected.length === 2) focusDiscard();
        },
      }));
    } else {
      const playable = usable(c);
      nodes.push(cardNode(c, {
        ...common, legal: playable && !idle, disabled: !playable || idle,
        onclick: playable ? () => act(`play ${c}`) : undefined,
      }));
    }
  }
  return el("div", { class: "hand-area" },
    el("h2", { class: "sr-only" }, t("yourHand")),
    el("div", { class: "hand", id: "hand", "data-testid": "hand", role: "group", "aria-label": t("yourHand"),
      "aria-describedby": "hand-keys", onkeydown: handKeys, style: `--n: ${Math.max(cards.length, 2)}` },
      nodes.length ? nodes : el("span", { class: "muted" }, t("noCards"))),
    el("p", { id: "hand-keys", class: "sr-only" }, t("handKeys")));
}

function actionsView(v) {
  const you = state.you;
  if (you === null || v.to_move !== you || v.phase === "play") {
    return el("div", { class: "actions", "data-testid": "actions" });
  }
  const box = el("div", { class: "actions", "data-testid": "actions", role: "group", "aria-label": t("yourMove") });
  if (v.phase === "discard") {
    box.append(el("p", { class: "hint" }, t("discardHint", { n: live.selected.length, prikup: GAME.prikup })),
      el("button", {
        type: "button", class: "primary", "data-action": "discard", "data-testid": "confirm-discard",
        disabled: live.selected.length !== 2, "aria-disabled": live.pending || !live.connected ? "true" : null,
        onclick: () => live.connected && act(`discard ${live.selected.join(" ")}`),
      }, t("confirmDiscard")));
    return box;
  }
  const hint = { auction: "auctionHint", trump: "trumpHint", defence: "defenceHint" }[v.phase];
  if (hint) {
    box.append(el("p", { class: `hint ${v.phase}-hint` }, t(hint, {
      name: v.declarer !== null ? names()[v.declarer] : "", contract: v.contract ? word(v.contract) : "",
      whist: GAME.whist,
    })));
  }
  const row = el("div", { class: "buttons" });
  for (const a of v.legal) {
    const [kind, value] = a.split(" ");
    // naming trump on a phone: the suits side by side, each button showing only its word
    // (the line above says what they do; the name read out stays the whole label)
    const short = kind === "trump" ? [el("span", { class: "full" }, actionLabel(a)),
      el("span", { class: "short", "aria-hidden": "true" }, word(value))] : actionLabel(a);
    row.append(el("button", {
      type: "button", class: kind === "pass" || kind === "surrender" ? "secondary" : "primary",
      "data-action": a, "aria-disabled": live.pending || !live.connected ? "true" : null,
      "aria-label": kind === "trump" ? actionLabel(a) : null,
      onclick: () => live.connected && act(a),
    }, short));
  }
  if (v.phase === "trump") row.classList.add("trumps");
  box.append(row);
  return box;
}

function historyView(v) {
  const n = names();
  const bidding = [], after = [];
  for (const h of v.history) {
    if (h.type === "play") continue;
    let text;
    if (h.type === "bid") text = word(h.value);
    else if (h.type === "pass") text = t("pass");
    else if (h.type === "discard") {
      text = h.hidden ? t("discardsTwo") : [t("yourDiscard"), " ", el("span", { class: "discard-shown" },
        sortCards(h.cards).map((c) => cardNode(c, { size: "tiny" })))];
    }
    else if (h.type === "trump") text = t("namesTrump", { contract: word(h.value) });
    else if (h.type === "surrender") text = t("surrenders");
    else if (h.type === "whist") text = GAME.whist;
    // the auction's bids and passes, then what follows it: discard, trump, surrender, defence
    const list = after.length || h.type === "discard" ? after : bidding;
    list.push(el("li", { "data-event": h.type },
      el("span", { class: "dot", style: `background:${SEAT_COLORS[h.seat]}`, "aria-hidden": "true" }),
      el("span", { class: "who" }, n[h.seat]), " ", el("span", { class: "what" }, text)));
  }
  return [
    el("section", { class: "panel log" }, el("h2", {}, t("auction")),
      bidding.length ? el("ol", { "data-testid": "auction" }, bidding) : el("p", { class: "muted" }, t("noBidsYet"))),
    after.length ? el("section", { class: "panel after-log", "data-testid": "after-auction" },
      el("h2", {}, t("afterAuction", { prikup: GAME.prikup, whist: GAME.whist })), el("ol", {}, after)) : null,
  ];
}

function endView() {
  if (!state.winners.length) return null;
  const n = names();
  const who = state.winners.map((w) => n[w]).join(t("and"));
  return el("section", { class: "panel game-over", "data-testid": "game-over", role: "status" },
    el("h1", { class: "winners", "data-testid": "winners" }, // "Game over" is the turn line's
      t(state.winners.length > 1 ? "winnersShare" : "winnerWins", { names: who })),
    el("ol", { class: "final" }, [0, 1, 2].sort((a, b) => state.view.totals[b] - state.view.totals[a])
      .map((s) => el("li", {}, el("span", { class: "dot", style: `background:${SEAT_COLORS[s]}` }),
        `${n[s]}: ${num(state.view.totals[s])}`))),
    el("p", { class: "buttons" },
      el("a", {
        class: "button primary", href: `/api/tables/${live.tableId}/record`, download: `paston-${live.tableId}.json`,
        "data-testid": "record-link",
      }, t("downloadRecord")),
      el("button", { type: "button", "data-testid": "rematch", onclick: rematch },
        state.table.rematch ? t("joinRematch") : t("rematch")),
      el("a", { class: "button", href: "/" }, t("backToLobby"))));
}

function inviteView() {
  const link = `${location.origin}/t/${live.tableId}`;
  const free = state.table.seats.some((s) => !s.taken);
  return el("section", { class: "panel info" },
    el("h1", { class: "table-name" }, state.table.name),
    el("p", { class: "muted" }, state.you === null ? t("watching") : t("youAre", { name: names()[state.you] }),
      " · ", t("targetShort", { n: state.table.rules.target })),
    free ? el("div", { class: "invite" },
      el("label", { for: "invite" }, t("inviteLink")),
      el("div", { class: "invite-row" },
        el("input", { id: "invite", readonly: true, value: link, onfocus: (e) => e.target.select() }),
        el("button", {
          type: "button", "data-testid": "copy-invite",
          onclick: async () => {
            try { await navigator.clipboard.writeText(link); } catch { document.getElementById("invite").select(); }
            live.copied = true;
            rerender();
            setTimeout(() => { live.copied = false; rerender(); }, 1500);
          },
        }, live.copied ? t("copied") : t("copy")))) : null);
}

/** A note while the first deal is provisional: shuffled again, or computer players waiting. */
function firstDealNote() {
  const waiting = state.version === 0 && state.table.seats.some((s) => s.kind === "human" && !(s.taken && (s.online || s.standin)));
  if (!state.shuffling && !waiting) return null;
  // not a live region: the table's own turn cue is the first thing a screen reader says
  return el("p", { class: "muted", "data-testid": "first-deal-note" },
    t(state.shuffling ? "shuffling" : "waitingForPeople"));
}

/** Draw the table as last heard (or "connecting…" before the first state). */
export function renderTable() {
  const before = snapshot(app);
  state = live.state;
  tableSounds(heard, state);
  heard = state;
  if (!state) {
    app.replaceChildren(el("section", { class: "panel" }, el("p", {}, t("connecting"))));
    return;
  }
  const v = state.view;
  const [me, left, right] = layout();
  const seats = state.table.seats;
  const said = calls(v);
  // a provisional deal's turn is nobody's while it is shuffled again or waits for people
  const myTurn = state.you !== null && v.to_move === state.you && !state.shuffling && !state.sealed;
  skipLink(state.you !== null);
  const board = el("section", {
    class: `board panel ${myTurn ? "my-turn" : ""} ${live.connected ? "" : "offline"}`, "data-testid": "table",
    "data-connected": String(live.connected),
    "data-phase": v.phase, "data-version": state.version, "data-you": state.you === null ? "" : state.you,
    "data-to-move": v.to_move === null ? "" : v.to_move, "data-my-turn": String(myTurn),
    "data-tricks": v.tricks.reduce((a, b) => a + b, 0), "data-deals": state.sheet.length,
    "aria-label": t("tableLabel"),
  },
  el("p", { class: `turn-line ${myTurn ? "mine" : ""}`, "data-testid": "turn" }, turnText(v)),
  contractMarker(v),
  connectionNote(),
  firstDealNote(),
  el("div", { class: "felt", "data-testid": "felt" },
    seatPanel(seats[left], v, "left", said[left]), seatPanel(seats[right], v, "right", said[right]),
    el("div", { class: "center-wrap" }, centerView(v), lastTrickView(v)),
    seatPanel(seats[me], v, "me", said[me])),
  handView(v),
  state.shuffling || state.sealed ? null : actionsView(v),
  hintView(state));
  app.replaceChildren(el("div", { class: "table-layout" },
    el("div", { class: "main-col" }, seatLostNote(state, names()), endView(), endDealView(state, names()), coachPanel(state), board),
    el("div", { class: "side-col" }, inviteView(), historyView(v), sheetView(state, names()))));
  markHint(app, state); // the hint's recommended card or button (hint.js)
  animateTable(before, app);
}
