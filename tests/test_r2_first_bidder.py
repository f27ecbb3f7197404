"""R2: the first bidder and the rotation of the deal."""

from __future__ import annotations

import pytest

from helpers import act, make_deal, make_deck
from paston.actions import Action
from paston.match import Match
from paston.rules import Rules

JACK_HAND = "JS AH KH QH JH TH 9H 8H AC KC"
SEVEN_HAND = "7S AH KH QH JH TH 9H 8H AC KC"


def _surrender(match: Match) -> None:
    """Finish the current deal quickly: the first bidder bids, the others pass, the
    declarer discards and surrenders (R4.3)."""
    deal = match.deal
    assert deal is not None
    for text in ("bid spades", "pass", "pass"):
        match.apply(Action.parse(text))
    low = sorted(deal.hand(deal.declarer), key=lambda c: c.index)[:2]
    match.apply(Action.parse(f"discard {low[0]} {low[1]}"))
    match.apply(Action.parse("surrender"))
    assert deal.is_over and deal.result is not None


# --- R2.1 first deal: the holder of J♠ (or 7♠) bids first -------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
@pytest.mark.parametrize("holder", [0, 1, 2])
def test_r2_1_first_deal_jack_of_spades_holder_bids_first(dealer, holder):
    deal = make_deal(dealer=dealer, hands={holder: JACK_HAND}, first_deal=True)
    assert deal.first_bidder == holder
    assert deal.to_move == holder
    assert [str(a) for a in deal.legal_actions()] == ["pass", "bid spades"]


@pytest.mark.parametrize("dealer", [0, 1, 2])
@pytest.mark.parametrize("holder", [0, 1, 2])
def test_r2_1_first_deal_jack_in_prikup_seven_holder_bids_first(dealer, holder):
    deal = make_deal(dealer=dealer, hands={holder: SEVEN_HAND}, prikup="JS 8S", first_deal=True)
    assert deal.redeal is None
    assert deal.first_bidder == holder
    assert deal.to_move == holder


def test_r2_1_first_deal_dealer_may_bid_first():
    deal = make_deal(dealer=1, hands={1: JACK_HAND}, first_deal=True)
    assert deal.first_bidder == deal.dealer == 1


def test_r2_1_first_deal_jack_holder_beats_seven_holder():
    deal = make_deal(dealer=0, hands={2: JACK_HAND, 1: "7S 8S 9S AD KD QD JD TD 9D 8D"}, first_deal=True)
    assert deal.first_bidder == 2


def test_r2_1_first_deal_auction_continues_clockwise_from_first_bidder():
    deal = make_deal(dealer=0, hands={2: JACK_HAND}, first_deal=True)
    act(deal, "pass")
    assert deal.to_move == 0
    act(deal, "pass")
    assert deal.to_move == 1


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_r2_1_later_deals_ignore_the_jack(dealer):
    holder = (dealer + 2) % 3
    deal = make_deal(dealer=dealer, hands={holder: JACK_HAND}, first_deal=False)
    assert deal.first_bidder == (dealer + 1) % 3


# --- R2.2 the second dealer ---------------------------------------------------------------------


@pytest.mark.parametrize("first_dealer", [0, 1, 2])
@pytest.mark.parametrize("holder", [0, 1, 2])
def test_r2_2_first_bidder_deals_the_second_deal(first_dealer, holder):
    match = Match(first_dealer=first_dealer)
    deal = match.deal_next(make_deck(dealer=first_dealer, hands={holder: JACK_HAND}))
    assert deal.first_bidder == holder
    _surrender(match)
    assert match.completed_deals == 1
    assert match.next_dealer == holder  # even when holder == first_dealer
    second = match.deal_next(make_deck(dealer=holder))
    assert second.dealer == holder
    assert not second.first_deal
    assert second.first_bidder == (holder + 1) % 3


def test_r2_2_first_dealer_who_bid_first_deals_again():
    match = Match(first_dealer=2)
    match.deal_next(make_deck(dealer=2, hands={2: JACK_HAND}))
    _surrender(match)
    assert match.next_dealer == 2


@pytest.mark.parametrize("first_dealer", [0, 1, 2])
@pytest.mark.parametrize("holder", [0, 1, 2])
def test_r2_2_variant_rotate_passes_the_deal_left(first_dealer, holder):
    match = Match(first_dealer=first_dealer, rules=Rules(second_dealer="rotate"))
    match.deal_next(make_deck(dealer=first_dealer, hands={holder: JACK_HAND}))
    _surrender(match)
    assert match.next_dealer == (first_dealer + 1) % 3
    second = match.deal_next(make_deck(dealer=0))
    assert second.dealer == (first_dealer + 1) % 3


def test_r2_2_first_bidder_variant_with_seven_holder():
    match = Match(first_dealer=0)
    deal = match.deal_next(make_deck(dealer=0, hands={2: SEVEN_HAND}, prikup="JS 8S"))
    assert deal.first_bidder == 2
    _surrender(match)
    assert match.next_dealer == 2


# --- R2.3 from the second deal on ---------------------------------------------------------------


@pytest.mark.parametrize("variant", ["first-bidder", "rotate"])
def test_r2_3_deal_passes_one_seat_clockwise(variant):
    match = Match(first_dealer=0, rules=Rules(second_dealer=variant))
    match.deal_next(make_deck(dealer=0, hands={2: JACK_HAND}))
    _surrender(match)
    second_dealer = 2 if variant == "first-bidder" else 1
    dealers, bidders = [], []
    for _ in range(6):
        deal = match.deal_next(make_deck(dealer=0, hands={0: JACK_HAND}))
        dealers.append(deal.dealer)
        bidders.append(deal.first_bidder)
        assert deal.to_move == (deal.dealer + 1) % 3
        _surrender(match)
    assert dealers == [(second_dealer + k) % 3 for k in range(6)]
    assert bidders == [(d + 1) % 3 for d in dealers]


def test_r2_3_first_bidder_of_a_later_deal_is_dealers_left_and_deals_next():
    match = Match(first_dealer=1)
    match.deal_next(make_deck(dealer=1, hands={1: JACK_HAND}))
    _surrender(match)
    deal = match.deal_next(make_deck(dealer=1))
    assert deal.first_bidder == 2
    _surrender(match)
    assert match.next_dealer == 2  # the first bidder of this deal deals the next one
