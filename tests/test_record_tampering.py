"""The record reader rejects broken deals (the dealer, the deck, hands and prikup, the first
bidder, the auction, the play, the discard and the trump), naming the deal index, the
action index and the rule."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from helpers import ALL_CODES, hands_of
from paston.actions import Kind
from paston.cards import Card
from paston.deal import Deal, Phase
from paston.match import Match
from paston.rules import Rules
from record_helpers import (
    LADDER,
    Change,
    Pick,
    RuleCheck,
    Tamper,
    cards,
    check_tampering,
    expect_error,
    expect_error_in_deal,
    finished_game,
    first_dealt,
    first_index,
    first_played,
    good,
    later_deal,
    make_deck,
    played_where,
    random_game,
    rec,
    second_dealt,
    states,
)

# --------------------------------------------------------------------------------------
# The reader rejects broken records. One test case per kind of tampering, so that a
# failure names it; the valid records tampered with are built once (see good()).


def _bump_first_dealer(t: Tamper) -> None:
    t.put_top("first_dealer", value=(t.obj["first_dealer"] + 1) % 3)


@pytest.mark.parametrize(
    ("deal", "change", "rule"),
    [
        # first deal: the record's first_dealer deals (R1.1)
        pytest.param(0, lambda t: t.bump("dealer"), "R1.1", id="first-deal-dealer"),
        pytest.param(0, _bump_first_dealer, "R1.1", id="first_dealer"),
        # second deal: the first bidder of the first deal deals (R2.2)
        pytest.param(second_dealt, lambda t: t.bump("dealer"), "R2.2", id="second-deal-dealer"),
        # later: the deal passes one seat clockwise (R2.3)
        pytest.param(later_deal, lambda t: t.bump("dealer"), "R2.3", id="later-deal-dealer"),
    ],
)
def test_wrong_dealer(deal: int | Pick, change: Change, rule: str) -> None:
    check_tampering(change, rule, deal=deal)


@pytest.mark.parametrize(
    "deal",
    [
        pytest.param(1, id="after-jack-seven-prikup"),
        pytest.param(2, id="after-spade-sequence"),
        pytest.param(4, id="after-no-jack-no-seven"),
    ],
)
def test_wrong_dealer_after_redeals(deal: int) -> None:
    """Each of these deals follows a redeal: the same dealer deals again (R1.6)."""
    check_tampering(lambda t: t.bump("dealer"), "R1.6", which="redeal", deal=deal)


def test_wrong_dealer_rotate_variant() -> None:
    m = random_game(3, Rules(target=40, second_dealer="rotate"), first_dealer=2)
    valid = rec(m)
    i = next(k for k, d in enumerate(m.deals) if d.redeal is None) + 1
    assert valid["deals"][i]["dealer"] == 0  # R2.2 rotate: the first dealer's left
    obj = copy.deepcopy(valid)
    obj["deals"][i]["dealer"] = valid["deals"][i - 1]["first_bidder"]
    if obj["deals"][i]["dealer"] == 0:
        obj["deals"][i]["dealer"] = 1
    expect_error(obj, i, None, "R2.2")


def rewrite_deck(entry: dict[str, Any], deck: list[str]) -> None:
    entry["deck"] = deck
    entry["hands"] = hands_of(deck, entry["dealer"])
    entry["prikup"] = deck[6:8]


def _seven_of_spades_at_the_bottom(t: Tamper) -> None:
    deck = list(t.entry["deck"])
    k = deck.index("7S")
    deck[k], deck[31] = deck[31], deck[k]
    rewrite_deck(t.entry, deck)  # hands and prikup consistent with the new deck


@pytest.mark.parametrize("deal", [0, 2], ids=["deal-0", "deal-2"])
def test_bottom_card_seven_of_spades(deal: int) -> None:
    check_tampering(_seven_of_spades_at_the_bottom, "R1.2", deal=deal)


def _card_twice_in_deck(t: Tamper) -> None:
    deck = list(t.entry["deck"])
    deck[5] = deck[4]
    rewrite_deck(t.entry, deck)


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        pytest.param(_card_twice_in_deck, {"R0.2", "R1.2"}, id="card-twice"),
        pytest.param(
            lambda t: t.put("deck", value=t.get("deck")[:31]), {"R0.2", "R1.2", "R1.3"}, id="31-cards"
        ),
    ],
)
def test_duplicate_card_in_deck(change: Change, rule: RuleCheck) -> None:
    check_tampering(change, rule, deal=1)


@pytest.mark.parametrize(
    ("deal", "change"),
    [
        pytest.param(0, lambda t: t.swap(("hands", 0, 0), ("hands", 1, 0)), id="hands-swap-a-card"),
        pytest.param(2, lambda t: t.swap(("prikup", 0), ("hands", 1, 3)), id="prikup-swaps-with-a-hand"),
        pytest.param(1, lambda t: t.put("hands", 2, value=t.get("hands", 2)[:9]), id="hand-of-nine"),
        pytest.param(
            1, lambda t: t.put("hands", 2, 4, value=t.get("hands", 2, 3)), id="card-twice-in-a-hand"
        ),
        # a deck consistent with hands and prikup but not the one the hands came from
        pytest.param(0, lambda t: t.swap(("deck", 0), ("deck", 2)), id="deck-moves-a-card-from-L-to-M"),
    ],
)
def test_hands_and_prikup_must_match_the_deck(deal: int, change: Change) -> None:
    check_tampering(change, "R1.3", deal=deal)


@pytest.mark.parametrize(
    ("deal", "change", "rule"),
    [
        pytest.param(first_dealt, lambda t: t.bump("first_bidder"), "R2.1", id="first-deal-another-seat"),
        pytest.param(first_dealt, lambda t: t.drop("first_bidder"), "R2.1", id="first-deal-missing"),
        pytest.param(second_dealt, lambda t: t.bump("first_bidder"), "R2.3", id="later-deal-another-seat"),
    ],
)
def test_wrong_first_bidder(deal: Pick, change: Change, rule: str) -> None:
    check_tampering(change, rule, deal=deal)


# An illegal auction: (index, replacement) for a deal's actions, or None where it does not apply.
AuctionTamper = Callable[[list[dict[str, Any]]], tuple[int, dict[str, Any]] | None]


def _first_bid_clubs(acts: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    k = first_index(acts, lambda a: a["type"] in ("bid", "pass"))
    return k, {"seat": acts[k]["seat"], "type": "bid", "value": "clubs"}


def _last_bid_moved(step: int) -> AuctionTamper:
    def tamper(acts: list[dict[str, Any]]) -> tuple[int, dict[str, Any]] | None:
        bids = [k for k, a in enumerate(acts) if a["type"] == "bid"]
        if not bids:
            return None
        k = bids[-1]
        wrong = LADDER.index(acts[k]["value"]) + step
        if not 0 <= wrong < 5 or (wrong == 0 and k == bids[0]):
            return None
        return k, {**acts[k], "value": LADDER[wrong]}

    return tamper


def _whist_in_the_auction(acts: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    return 0, {"seat": acts[0]["seat"], "type": "whist"}


@pytest.mark.parametrize(
    ("tamper", "rule"),
    [
        pytest.param(_first_bid_clubs, "R3.2", id="first-bid-not-spades"),  # the first bid is spades
        pytest.param(_last_bid_moved(-1), "R3.2", id="bid-repeated-or-lower"),  # no repeats (R3.2)
        pytest.param(_last_bid_moved(+1), "R3.2", id="bid-jumps"),  # no jumps (R3.2)
        pytest.param(_whist_in_the_auction, {"R3.2", "R3.3"}, id="whist-in-the-auction"),
    ],
)
def test_illegal_bids(tamper: AuctionTamper, rule: RuleCheck) -> None:
    """Every deal with an auction, tampered with in the same way."""
    n = 0
    for i, entry in enumerate(good()["deals"]):
        if entry["redeal"] is not None or not entry["actions"]:
            continue
        found = tamper(entry["actions"])
        if found is None:
            continue
        k, action = found
        obj = good()
        obj["deals"][i]["actions"][k] = action
        expect_error(obj, i, k, rule)
        n += 1
    assert n > 0, "the game has no deal to tamper with in this way"


def test_best_spades_ends_the_auction() -> None:
    """R3.3 (a): after a best-spades bid nobody bids again; the declarer discards next."""
    rng = random.Random(4)
    m = Match(first_dealer=0)
    m.deal_next(cards(make_deck(rng, 0)))
    d = m.deal
    assert d is not None
    for _ in range(5):
        d.apply(next(a for a in d.legal_actions() if a.kind is Kind.BID))
    assert d.phase is Phase.DISCARD
    obj = rec(m)
    seat = obj["deals"][0]["actions"][-1]["seat"]
    obj["deals"][0]["actions"].append({"seat": (seat + 1) % 3, "type": "pass"})
    expect_error(obj, 0, 5, lambda r: r is not None and r[:3] in ("R3.", "R4."))


def _revoke(st: Deal, must: str) -> str | None:
    """A card the seat to move may not play because it must follow suit (``must`` is
    "follow") or must trump ("trump") (R6.2); None where the position has none."""
    if st.phase is not Phase.PLAY or not st.current_trick:
        return None
    assert st.to_move is not None
    lead = st.current_trick[0][1].suit
    hand = list(st.hand(st.to_move))
    follow = [c for c in hand if c.suit == lead]
    trumps = [c for c in hand if c.suit == st.trump_suit]
    other = [c for c in hand if c.suit != lead]
    if must == "follow" and follow and other:
        return str(other[0])
    if must == "trump" and not follow and trumps and len(trumps) < len(hand):
        return str(next(c for c in hand if c not in trumps))
    return None


@pytest.mark.parametrize("must", ["follow", "trump"], ids=["must-follow-suit", "must-trump"])
def test_revoke_in_play(must: str) -> None:
    """R6.2: the first 12 plays of the game where the seat had to follow suit (or to
    trump), each replaced by a card of another suit."""
    m = finished_game()
    n = 0
    for i, _deal in enumerate(m.deals):
        for k, st in enumerate(states(m, i)):
            card = _revoke(st, must)
            if card is None:
                continue
            obj = good()
            obj["deals"][i]["actions"][k]["card"] = card
            expect_error(obj, i, k, "R6.2")
            n += 1
            if n >= 12:
                return
    assert n > 0


def _card_of_another_seat(t: Tamper) -> int | None:
    k = t.first("play")
    st = states(t.match, t.i)[k]
    assert st.to_move is not None
    elsewhere = next(str(c) for c in Deal(st.deck, dealer=st.dealer).hand((st.to_move + 1) % 3))
    return t.put("actions", k, "card", value=elsewhere)


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        pytest.param(_card_of_another_seat, {"R6.2", "R6.1"}, id="card-of-another-seat"),
        pytest.param(
            lambda t: t.insert(t.first("play") + 1, dict(t.acts[t.first("play")])),
            lambda r: r is not None and r.startswith("R6"),
            id="card-played-twice",
        ),
    ],
)
def test_card_not_held(change: Change, rule: RuleCheck) -> None:
    check_tampering(change, rule)


WRONG_SEAT_RULES = {
    "bid": {"R3.2"},
    "pass": {"R3.2", "R5.1"},
    "discard": {"R4.1"},
    "trump": {"R4.2"},
    "surrender": {"R4.3", "R4.2"},
    "whist": {"R5.1"},
    "play": {"R6.1", "R6.2", "R6.3"},
}


@pytest.mark.parametrize("step", [1, 2], ids=["seat+1", "seat+2"])
@pytest.mark.parametrize("kind", ["bid", "pass", "discard", "trump", "whist", "play"])
def test_wrong_seat_for_an_action(kind: str, step: int) -> None:
    """The first action of each kind (every play but the last two) made by another seat."""
    t = Tamper()
    acts = t.acts
    if kind == "play":
        ks = [k for k, a in enumerate(acts) if a["type"] == "play" and k <= len(acts) - 3]
    else:
        ks = [t.first(kind)]
    assert ks
    for k in ks:
        obj = good()
        obj["deals"][t.i]["actions"][k]["seat"] = (acts[k]["seat"] + step) % 3
        rules = WRONG_SEAT_RULES[kind]
        if kind == "pass" and any(x["type"] == "trump" for x in acts[:k]):
            rules = {"R5.1"}
        expect_error(obj, t.i, k, rules)


def _discard_not_held(t: Tamper) -> int | None:
    k = t.first("discard")
    st = states(t.match, t.i)[k]
    assert st.to_move is not None
    not_held = next(c for c in ALL_CODES if Card.parse(c) not in st.hand(st.to_move))
    return t.put("actions", k, "cards", 0, value=not_held)


def _trump_one_below_the_bid(t: Tamper) -> int | None:
    kt = t.first("trump")
    bids = [a["value"] for a in t.acts[:kt] if a["type"] == "bid"]
    return t.put("actions", kt, "value", value=LADDER[LADDER.index(bids[-1]) - 1])


def _bid_in_the_middle(bids: list[str]) -> bool:
    return bool(bids) and bids[-1] not in ("spades", "best-spades")


def _bid_best_spades(bids: list[str]) -> bool:
    return bool(bids) and bids[-1] == "best-spades"


@pytest.mark.parametrize(
    ("deal", "change", "rule"),
    [
        pytest.param(first_played, _discard_not_held, "R4.1", id="discard-card-not-held"),
        pytest.param(
            first_played,
            lambda t: t.put(
                "actions", t.first("discard"), "cards", value=t.acts[t.first("discard")]["cards"][:1]
            ),
            lambda r: r is None or r == "R4.1",
            id="discard-one-card",
        ),
        pytest.param(
            first_played,
            lambda t: t.put(
                "actions", t.first("discard"), "cards", value=[t.acts[t.first("discard")]["cards"][0]] * 2
            ),
            lambda r: r is None or r == "R4.1",
            id="discard-one-card-twice",
        ),
        # a discard skipped: trump named with 12 cards in hand
        pytest.param(
            first_played, lambda t: t.drop("actions", t.first("discard")), "R4.1", id="discard-skipped"
        ),
        # trump: below the bid, or best spades not bid, or another after best spades (R4.2)
        pytest.param(
            played_where(_bid_in_the_middle), _trump_one_below_the_bid, "R4.2", id="trump-below-the-bid"
        ),
        pytest.param(
            played_where(lambda bids: not _bid_best_spades(bids)),
            lambda t: t.put("actions", t.first("trump"), "value", value="best-spades"),
            "R4.2",
            id="trump-best-spades-not-bid",
        ),
        pytest.param(
            played_where(_bid_best_spades),
            lambda t: t.put("actions", t.first("trump"), "value", value="hearts"),
            "R4.2",
            id="trump-hearts-after-best-spades",
        ),
    ],
)
def test_discard_and_trump_breakage(deal: Pick, change: Change, rule: RuleCheck) -> None:
    check_tampering(change, rule, deal=deal)


def test_action_after_the_deal_is_over() -> None:
    t = Tamper()
    n = len(t.acts)
    k = t.insert(n, {"seat": t.entry["result"]["declarer"], "type": "pass"})
    expect_error(t.obj, t.i, k, {"R6.3", "R5.3", "R4.3"})


def test_unfinished_deal_that_is_not_the_last() -> None:
    obj = good()
    obj["deals"][0]["actions"] = obj["deals"][0]["actions"][:-1]
    expect_error_in_deal(obj, 0)
