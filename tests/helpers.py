"""Helpers for the tests: decks built from desired hands, scripted actions,
snapshots for "an illegal action changes nothing", generators of whole deals
whose trick-by-trick outcome is fixed by construction, and the seeded random player
that the record, property and golden tests share (``weighted_choice`` and ``play_out``
from :mod:`paston.randomplay`, imported here for them, and ``play_deal_out``).

The dealing positions below are written out from RULES.md R1.3 on purpose (not taken
from the engine), so that the tests check the engine's dealing against the rule text.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import pytest

from paston import record
from paston.actions import Action
from paston.deal import Deal
from paston.errors import IllegalActionError
from paston.match import Match
from paston.randomplay import play_out as play_out
from paston.randomplay import weighted_choice
from paston.rules import Rules

T = TypeVar("T")

# R1.3: deck[0:2] -> L, [2:4] -> M, [4:6] -> D, [6:8] -> prikup, then rounds of 6: 2 L, 2 M, 2 D.
L_POSITIONS = (0, 1, 8, 9, 14, 15, 20, 21, 26, 27)
M_POSITIONS = (2, 3, 10, 11, 16, 17, 22, 23, 28, 29)
D_POSITIONS = (4, 5, 12, 13, 18, 19, 24, 25, 30, 31)
PRIKUP_POSITIONS = (6, 7)
# The three groups in dealing order: the dealer's left, the dealer's right, the dealer.
DEAL_GROUPS = (L_POSITIONS, M_POSITIONS, D_POSITIONS)

ALL_CODES = [r + s for s in "SCDH" for r in "789TJQKA"]  # index order: suit * 8 + rank


def idx(code: str) -> int:
    """Card index of a code, computed from R0.2 independently of the engine."""
    code = code.strip().upper()
    return ALL_CODES.index(code)


def cards(text: str) -> list[int]:
    """Card indices of a space separated list of codes."""
    return [idx(c) for c in text.split()]


def positions_of(seat: int, dealer: int) -> tuple[int, ...]:
    """Deck positions of seat's cards when dealer deals (R1.3)."""
    offset = (seat - dealer) % 3
    return {1: L_POSITIONS, 2: M_POSITIONS, 0: D_POSITIONS}[offset]


def hands_of(deck: Sequence[T], dealer: int) -> list[list[T]]:
    """The three seats' hands (in dealing order) of a deck when ``dealer`` deals (R1.3).

    >>> hands_of(ALL_CODES, dealer=2)[0][:4]
    ['7S', '8S', '7C', '8C']
    """
    return [[deck[p] for p in positions_of(seat, dealer)] for seat in range(3)]


def make_deck(
    *,
    dealer: int,
    hands: dict[int, str] | None = None,
    prikup: str | None = None,
) -> list[int]:
    """A 32-card deck (card indices in dealing order) that deals ``hands`` (seat -> 10
    codes) and ``prikup`` (2 codes) when ``dealer`` deals. Hands or prikup left out get
    the remaining cards, handed out round-robin. 7S is never put at the bottom (R1.2).
    """
    hands = dict(hands or {})
    wanted: dict[object, list[int]] = {}
    used: set[int] = set()
    for seat, text in hands.items():
        wanted[seat] = cards(text)
    if prikup is not None:
        wanted["prikup"] = cards(prikup)
    for key, lst in wanted.items():
        size = 2 if key == "prikup" else 10
        assert len(lst) == size, f"{key} needs {size} cards, got {len(lst)}"
        for c in lst:
            assert c not in used, f"card {ALL_CODES[c]} given twice"
            used.add(c)
    rest = [c for c in range(32) if c not in used]
    open_slots: list[object] = [s for s in range(3) if s not in wanted]
    if "prikup" not in wanted:
        open_slots.append("prikup")
    for key in open_slots:
        wanted[key] = []
    i = 0
    while rest:
        key = open_slots[i % len(open_slots)]
        size = 2 if key == "prikup" else 10
        if len(wanted[key]) < size:
            wanted[key].append(rest.pop(0))
        i += 1
    deck = [-1] * 32
    for seat in range(3):
        hand = list(wanted[seat])
        if seat == dealer and idx("7S") in hand:
            hand.remove(idx("7S"))
            hand.insert(0, idx("7S"))  # never the bottom card
        for pos, c in zip(positions_of(seat, dealer), hand, strict=True):
            deck[pos] = c
    for pos, c in zip(PRIKUP_POSITIONS, wanted["prikup"], strict=True):
        deck[pos] = c
    assert sorted(deck) == list(range(32))
    assert deck[31] != idx("7S")
    return deck


def make_deal(
    *,
    dealer: int,
    hands: dict[int, str] | None = None,
    prikup: str | None = None,
    rules: Rules | None = None,
    first_deal: bool = False,
) -> Deal:
    """A Deal built from explicit hands (see :func:`make_deck`)."""
    return Deal(
        make_deck(dealer=dealer, hands=hands, prikup=prikup),
        dealer=dealer,
        rules=rules,
        first_deal=first_deal,
    )


def act(deal: Deal, actions: str | Iterable[str]) -> Deal:
    """Apply actions given as strings; a single string is split on ';'."""
    if isinstance(actions, str):
        actions = [a for a in actions.split(";") if a.strip()]
    for text in actions:
        deal.apply(Action.parse(text.strip()))
    return deal


def play_cards(deal: Deal, codes: str) -> Deal:
    """Play space separated cards in order."""
    for code in codes.split():
        deal.apply(Action.parse(code))
    return deal


def hand_codes(deal: Deal, seat: int) -> set[str]:
    return {str(c) for c in deal.hand(seat)}


def code_set(text: str) -> set[str]:
    return {ALL_CODES[idx(c)] for c in text.split()}


def legal_strs(deal: Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything observable about a deal's state."""
    return (
        deal.legal_actions(),
        deal.to_move,
        deal.phase,
        tuple(deal.hand_mask(s) for s in range(3)),
        deal.events,
        deal.tricks,
        deal.current_trick,
        deal.completed_tricks,
        deal.discard,
        deal.declarer,
        deal.high_bid,
        deal.in_auction,
        deal.contract,
        deal.whist_answers,
        deal.defenders,
        deal.result,
        deal.redeal,
    )


def assert_illegal(
    deal: Deal,
    action: str | Action,
    rule: str,
    code: str,
    *,
    seat: int | None = None,
    message_start: str | None = None,
) -> IllegalActionError:
    """``action`` raises IllegalActionError(rule, code) and leaves the deal unchanged."""
    a = Action.parse(action) if isinstance(action, str) else action
    before = snapshot(deal)
    if seat is None:  # with a seat, the action may be legal for the seat to move
        assert not deal.is_legal(a)
        assert a not in deal.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        deal.apply(a, seat)
    err = info.value
    assert err.rule == rule, str(err)
    assert err.code == code, str(err)
    assert str(err).startswith(f"{rule}: "), str(err)
    if message_start is not None:
        assert str(err).startswith(message_start), str(err)
    assert snapshot(deal) == before
    return err


# --- the seeded random player (paston.randomplay) -------------------------------------------------


def play_deal_out(deal: Deal, rng: random.Random, *, bid_prob: float = 0.55) -> Deal:
    """Let :func:`weighted_choice` play ``deal`` to its end."""
    while not deal.is_over:
        deal.apply(weighted_choice(rng, deal, bid_prob=bid_prob))
    return deal


def round_trip(match: Match) -> Match:
    """``match`` written as a record and read back; the text must come back unchanged.

    >>> round_trip(Match(first_dealer=1)).next_dealer
    1
    """
    text = record.dumps(match)
    again = record.loads(text)
    assert record.dumps(again) == text
    return again


# --- whole deals whose outcome is fixed by construction ---------------------------------------

SUITS = "SCDH"
RANKS_HIGH_TO_LOW = "AKQJT98"  # 7 handled separately below


@dataclass
class Scripted:
    """A scripted deal: the deck, the actions up to the first card, the card plays."""

    dealer: int
    deck: list[int]
    setup: list[str]
    plays: list[str]
    winners: list[int]

    def deal(self, rules: Rules | None = None) -> Deal:
        d = Deal(self.deck, dealer=self.dealer, rules=rules)
        act(d, self.setup)
        for code in self.plays:
            d.apply(Action.parse(code))
        return d


def auction_for(declarer: int, contract: str, dealer: int | None = None) -> list[str]:
    """Auction actions that make ``declarer`` the declarer and leave ``contract`` as a
    choice of trump (R3.2, R4.2). Without ``dealer`` the declarer speaks first; with it
    (not the first deal), the players before the declarer pass."""
    if dealer is not None:
        assert contract != "best-spades"
        p = (declarer - dealer - 1) % 3  # the declarer's place in the order of speaking
        return ["pass"] * p + ["bid spades"] + ["pass"] * (2 - p)
    if contract != "best-spades":
        return ["bid spades", "pass", "pass"]
    # D spades, L clubs, M pass, D diamonds, L hearts, D best spades (ends at once).
    return ["bid spades", "bid clubs", "pass", "bid diamonds", "bid hearts", "bid best-spades"]


def _trump_suit_letter(contract: str) -> str:
    return {"spades": "S", "clubs": "C", "diamonds": "D", "hearts": "H", "best-spades": "S"}[contract]


def scripted_lone(
    *,
    declarer: int,
    defender: int,
    declarer_tricks: int,
    contract: str = "spades",
    dealer: int | None = None,
) -> Scripted:
    """A deal with one defender (R5.2): ``declarer`` takes ``declarer_tricks`` of 10.

    Ten same-suit pairs (a declarer card and a defender card) in the three suits other
    than the trump suit: both always follow suit, the higher card of the pair wins. The
    declarer wins the first ``declarer_tricks`` tricks and the defender the rest.
    The passer holds the 8 trumps and 2 low cards; the prikup holds 2 low cards that
    the declarer discards.
    """
    assert declarer != defender
    passer = 3 - declarer - defender
    auction = auction_for(declarer, contract, dealer)
    if dealer is None:
        dealer = (declarer - 1) % 3  # declarer bids first (not the first deal: R2.3)
    trump = _trump_suit_letter(contract)
    others = [s for s in SUITS if s != trump]
    pairs = [(f"A{s}", f"K{s}") for s in others]
    pairs += [(f"Q{s}", f"J{s}") for s in others]
    pairs += [(f"T{s}", f"9{s}") for s in others]
    pairs += [(f"8{others[0]}", f"7{others[0]}")]
    assert len(pairs) == 10
    d_cards, x_cards, plays, winners = [], [], [], []
    leader = declarer
    for i, (high, low) in enumerate(pairs):
        win = declarer if i < declarer_tricks else defender
        dc, xc = (high, low) if win == declarer else (low, high)
        d_cards.append(dc)
        x_cards.append(xc)
        first, second = (dc, xc) if leader == declarer else (xc, dc)
        plays += [first, second]
        winners.append(win)
        leader = win
    used = set(d_cards) | set(x_cards)
    rest = [c for c in ALL_CODES if c not in used]  # 8 trumps + 8/7 of two suits
    prikup = [c for c in rest if c[1] != trump][:2]
    passer_cards = [c for c in rest if c not in prikup]
    deck = make_deck(
        dealer=dealer,
        hands={declarer: " ".join(d_cards), defender: " ".join(x_cards), passer: " ".join(passer_cards)},
        prikup=" ".join(prikup),
    )
    left = (declarer + 1) % 3
    answers = ["whist", "pass"] if defender == left else ["pass", "whist"]
    setup = [*auction, f"discard {prikup[0]} {prikup[1]}", f"trump {contract}", *answers]
    return Scripted(dealer, deck, setup, plays, winners)


def scripted_three(
    *, declarer: int, split: Sequence[int], contract: str = "spades", dealer: int | None = None
) -> Scripted:
    """A deal with two defenders (R5.2) where seat s takes ``split[s]`` tricks.

    Tricks 1-8 are same-suit triples (A K Q and J T 9 of each suit): everyone follows,
    the highest card wins. The 8 and 7 of the trump suit are the prikup (discarded), so
    after trick 8 nobody holds a trump. The winner X of trick 8 holds the 8 and 7 of a
    plain suit and takes tricks 9 and 10: the others are void in it and have no trump.
    """
    assert sum(split) == 10 and len(split) == 3
    auction = auction_for(declarer, contract, dealer)
    if dealer is None:
        dealer = (declarer - 1) % 3
    trump = _trump_suit_letter(contract)
    x = max(range(3), key=lambda s: split[s])
    assert split[x] >= 3
    triple_winners: list[int] = []
    for s in range(3):
        triple_winners += [s] * (split[s] - (2 if s == x else 0))
    triple_winners.remove(x)
    triple_winners.append(x)  # trick 8 goes to x
    triples = [(f"A{s}", f"K{s}", f"Q{s}") for s in SUITS] + [(f"J{s}", f"T{s}", f"9{s}") for s in SUITS]
    held: dict[int, list[str]] = {0: [], 1: [], 2: []}
    plays: list[str] = []
    leader = declarer
    for (top, mid, low), win in zip(triples, triple_winners, strict=True):
        losers = [s for s in range(3) if s != win]
        card_of = {win: top, losers[0]: mid, losers[1]: low}
        for s in range(3):
            held[s].append(card_of[s])
        plays += [card_of[(leader + k) % 3] for k in range(3)]
        leader = win
    plain = [s for s in SUITS if s != trump]
    held[x] += [f"8{plain[0]}", f"7{plain[0]}"]
    o1, o2 = [s for s in range(3) if s != x]
    held[o1] += [f"8{plain[1]}", f"7{plain[1]}"]
    held[o2] += [f"8{plain[2]}", f"7{plain[2]}"]
    prikup = [f"8{trump}", f"7{trump}"]
    # Tricks 9 and 10: x leads its plain-suit cards; the others throw theirs.
    for k in range(2):
        lead = held[x][8 + k]
        order = [(x + j) % 3 for j in range(3)]
        plays += [lead if s == x else held[s][8 + k] for s in order]
    winners = [*triple_winners, x, x]
    deck = make_deck(dealer=dealer, hands={s: " ".join(held[s]) for s in range(3)}, prikup=" ".join(prikup))
    setup = [*auction, f"discard {prikup[0]} {prikup[1]}", f"trump {contract}", "whist", "whist"]
    return Scripted(dealer, deck, setup, plays, winners)
