"""R3: the auction — the ladder, bidding, the end of the auction, all-pass."""

from __future__ import annotations

import pytest

from helpers import act, assert_illegal, legal_strs, make_deal, make_deck
from paston.actions import Action
from paston.contracts import Contract
from paston.deal import Phase
from paston.match import Match
from paston.rules import Rules

JACK_HAND = "JS AH KH QH JH TH 9H 8H AC KC"
SEVEN_HAND = "7S AH KH QH JH TH 9H 8H AC KC"
LADDER = ["spades", "clubs", "diamonds", "hearts", "best-spades"]


# --- R3.1 the ladder -------------------------------------------------------------------------


def test_r3_1_ladder_order():
    assert sorted(Contract) == [
        Contract.SPADES,
        Contract.CLUBS,
        Contract.DIAMONDS,
        Contract.HEARTS,
        Contract.BEST_SPADES,
    ]
    assert [c.word for c in sorted(Contract)] == ["paston", "glitch", "dineri", "gupa", "paston grkha"]
    assert Contract.SPADES < Contract.CLUBS < Contract.DIAMONDS < Contract.HEARTS < Contract.BEST_SPADES


def test_r3_1_ladder_is_climbed_step_by_step():
    deal = make_deal(dealer=2)  # seat 0 bids first
    expected_next = iter(LADDER)
    for _ in range(5):
        nxt = next(expected_next)
        assert legal_strs(deal) == ["pass", f"bid {nxt}"]
        act(deal, f"bid {nxt}")
    assert deal.high_bid is Contract.BEST_SPADES


def test_r3_1_trump_suits_of_the_ladder():
    assert [c.trump_suit for c in Contract] == [0, 1, 2, 3, 0]


# --- R3.2 bidding ----------------------------------------------------------------------------


@pytest.mark.parametrize("contract", LADDER[1:])
def test_r3_2_first_bid_must_be_spades(contract):
    deal = make_deal(dealer=0)
    assert_illegal(
        deal,
        f"bid {contract}",
        "R3.2",
        "first-bid-spades",
        message_start=f"R3.2: the first bid of a deal must be spades, not {contract}",
    )


def test_r3_2_first_bid_must_be_spades_also_after_passes():
    deal = make_deal(dealer=0)
    act(deal, "pass; pass")
    assert legal_strs(deal) == ["pass", "bid spades"]
    assert_illegal(deal, "bid clubs", "R3.2", "first-bid-spades")


@pytest.mark.parametrize(
    ("before", "bad"),
    [
        ("bid spades", "bid diamonds"),
        ("bid spades", "bid hearts"),
        ("bid spades", "bid best-spades"),
        ("bid spades", "bid spades"),
        ("bid spades; bid clubs", "bid clubs"),
        ("bid spades; bid clubs", "bid spades"),
        ("bid spades; bid clubs", "bid hearts"),
        ("bid spades; bid clubs; bid diamonds", "bid best-spades"),
        ("bid spades; pass", "bid diamonds"),
    ],
)
def test_r3_2_each_later_bid_is_exactly_the_next_step(before, bad):
    deal = make_deal(dealer=0)
    act(deal, before)
    err = assert_illegal(deal, bad, "R3.2", "bid-not-next-step")
    assert "no jumps" in str(err)


def test_r3_2_a_player_who_passes_is_out_of_the_auction():
    deal = make_deal(dealer=0)  # seat 1 bids first
    act(deal, "bid spades")  # 1
    act(deal, "pass")  # 2 is out
    act(deal, "bid clubs")  # 0
    assert deal.in_auction == (True, True, False)
    assert deal.to_move == 1
    act(deal, "bid diamonds")  # 1
    assert deal.to_move == 0  # seat 2 is skipped
    act(deal, "bid hearts")  # 0
    assert deal.to_move == 1


def test_r3_2_passing_first_bidder_is_skipped_later():
    deal = make_deal(dealer=0)
    act(deal, "pass")  # seat 1 out
    act(deal, "bid spades")  # 2
    act(deal, "bid clubs")  # 0
    assert deal.to_move == 2
    act(deal, "bid diamonds")  # 2
    assert deal.to_move == 0


@pytest.mark.parametrize("action", ["discard 7H 8H", "trump spades", "whist", "surrender", "AH", "7S"])
def test_r3_2_only_bids_and_passes_in_the_auction(action):
    deal = make_deal(dealer=0)
    assert_illegal(deal, action, "R3.2", "wrong-phase")


def test_r3_2_not_your_turn_in_the_auction():
    deal = make_deal(dealer=0)
    err = assert_illegal(deal, "pass", "R3.2", "not-your-turn", seat=2)
    assert err.seat == 2
    assert deal.apply(Action.parse("pass"), seat=1).seat == 1


# --- R3.3 the end of the auction -----------------------------------------------------------------


def test_r3_3_a_best_spades_bid_ends_the_auction_at_once():
    deal = make_deal(dealer=0)  # 1 first
    act(deal, "bid spades; bid clubs; bid diamonds; bid hearts")  # 1 2 0 1; everybody still in
    assert deal.in_auction == (True, True, True)
    act(deal, "bid best-spades")  # seat 2
    assert deal.phase is Phase.DISCARD
    assert deal.declarer == 2
    assert deal.to_move == 2
    assert deal.high_bid is Contract.BEST_SPADES


def test_r3_3_best_spades_declarer_gets_no_other_trump():
    deal = make_deal(dealer=0)
    act(deal, "bid spades; bid clubs; bid diamonds; bid hearts; bid best-spades")
    low = sorted(deal.hand(2), key=lambda c: c.index)
    act(deal, f"discard {low[0]} {low[1]}")
    assert legal_strs(deal) == ["trump best-spades", "surrender"]


@pytest.mark.parametrize("first", [0, 1, 2])
def test_r3_3_two_others_pass_high_bidder_declares_without_speaking_again(first):
    deal = make_deal(dealer=(first - 1) % 3)
    act(deal, "bid spades; pass; pass")
    assert deal.phase is Phase.DISCARD
    assert deal.declarer == first
    assert deal.high_bid is Contract.SPADES
    assert len(deal.hand(first)) == 12
    assert [e.seat for e in deal.events] == [first, (first + 1) % 3, (first + 2) % 3]


def test_r3_3_high_bidder_declares_when_the_last_other_passes():
    deal = make_deal(dealer=0)
    act(deal, "bid spades")  # 1
    act(deal, "bid clubs")  # 2
    act(deal, "pass")  # 0 out
    act(deal, "bid diamonds")  # 1
    act(deal, "pass")  # 2 out -> 1 declares diamonds
    assert deal.phase is Phase.DISCARD
    assert deal.declarer == 1
    assert deal.high_bid is Contract.DIAMONDS


def test_r3_3_outbid_player_passing_makes_the_other_declarer():
    deal = make_deal(dealer=0)
    act(deal, "pass")  # 1
    act(deal, "bid spades")  # 2
    act(deal, "bid clubs")  # 0
    act(deal, "pass")  # 2 -> 0 holds clubs and both others are out
    assert deal.declarer == 0
    assert deal.high_bid is Contract.CLUBS


def test_r3_3_last_player_after_two_passes_may_still_bid():
    deal = make_deal(dealer=0)
    act(deal, "pass; pass")
    assert deal.to_move == 0
    assert deal.phase is Phase.AUCTION
    act(deal, "bid spades")
    assert deal.phase is Phase.DISCARD
    assert deal.declarer == 0


def test_r3_3_all_three_pass_ends_the_auction():
    deal = make_deal(dealer=0, hands={2: JACK_HAND})
    act(deal, "pass; pass; pass")
    assert deal.phase is Phase.DISCARD
    assert deal.high_bid is None
    assert deal.declarer == 2


# --- R3.4 all pass ---------------------------------------------------------------------------------


@pytest.mark.parametrize("holder", [0, 1, 2])
@pytest.mark.parametrize("first_deal", [False, True])
def test_r3_4_all_pass_jack_holder_declares(holder, first_deal):
    deal = make_deal(dealer=0, hands={holder: JACK_HAND}, first_deal=first_deal)
    act(deal, "pass; pass; pass")
    assert deal.declarer == holder
    assert deal.phase is Phase.DISCARD
    assert deal.to_move == holder
    assert len(deal.hand(holder)) == 12


@pytest.mark.parametrize("holder", [0, 1, 2])
@pytest.mark.parametrize("first_deal", [False, True])
def test_r3_4_all_pass_jack_in_prikup_seven_holder_declares(holder, first_deal):
    deal = make_deal(dealer=1, hands={holder: SEVEN_HAND}, prikup="JS AD", first_deal=first_deal)
    act(deal, "pass; pass; pass")
    assert deal.declarer == holder
    assert deal.phase is Phase.DISCARD


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_r3_4_all_pass_jack_and_seven_in_prikup_redeal(dealer):
    deal = make_deal(dealer=dealer, prikup="JS 7S", first_deal=False)
    assert deal.phase is Phase.AUCTION  # R1.5 is for the first deal only
    act(deal, "pass; pass; pass")
    assert deal.phase is Phase.REDEAL
    assert deal.redeal == "no-jack-no-seven"
    assert deal.declarer is None
    assert deal.to_move is None
    assert deal.legal_actions() == ()
    assert deal.result is None
    assert [str(e.action) for e in deal.events] == ["pass", "pass", "pass"]
    assert_illegal(deal, "pass", "R3.4", "redeal")


def test_r3_4_jack_and_seven_in_prikup_with_a_bid_is_played():
    deal = make_deal(dealer=0, prikup="JS 7S")
    act(deal, "pass; bid spades; pass")
    assert deal.declarer == 2
    assert deal.redeal is None


def test_r3_4_applies_in_later_deals_of_a_match():
    match = Match(first_dealer=0)
    match.deal_next(make_deck(dealer=0, hands={1: JACK_HAND}))
    for text in ("bid spades", "pass", "pass", "discard AH KH", "surrender"):
        match.apply(Action.parse(text))
    assert match.next_dealer == 1
    for k in range(2):  # twice in a row
        deal = match.deal_next(make_deck(dealer=1, prikup="7S JS"))
        for _ in range(3):
            match.apply(Action.parse("pass"))
        assert deal.redeal == "no-jack-no-seven", k
        assert match.next_dealer == 1
        assert match.completed_deals == 1
    deal = match.deal_next(make_deck(dealer=1, hands={0: SEVEN_HAND}, prikup="JS 8S"))
    for _ in range(3):
        match.apply(Action.parse("pass"))
    assert deal.declarer == 0


# --- R3.4 variant all_pass_declarer = first-bidder -------------------------------------------------

FIRST_BIDDER = Rules(all_pass_declarer="first-bidder")


@pytest.mark.parametrize("dealer", [0, 1, 2])
@pytest.mark.parametrize("holder", [0, 1, 2])
def test_r3_4_variant_first_bidder_declares_from_second_deal(dealer, holder):
    deal = make_deal(dealer=dealer, hands={holder: JACK_HAND}, rules=FIRST_BIDDER)
    act(deal, "pass; pass; pass")
    assert deal.declarer == (dealer + 1) % 3
    assert deal.phase is Phase.DISCARD
    assert deal.high_bid is None


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_r3_4_variant_first_bidder_no_redeal_with_jack_and_seven_in_prikup(dealer):
    deal = make_deal(dealer=dealer, prikup="JS 7S", rules=FIRST_BIDDER)
    act(deal, "pass; pass; pass")
    assert deal.redeal is None
    assert deal.declarer == (dealer + 1) % 3


@pytest.mark.parametrize("holder", [0, 1, 2])
def test_r3_4_variant_first_bidder_first_deal_uses_spade_jack(holder):
    deal = make_deal(dealer=0, hands={holder: JACK_HAND}, rules=FIRST_BIDDER, first_deal=True)
    act(deal, "pass; pass; pass")
    assert deal.declarer == holder


def test_r3_4_variant_first_bidder_in_a_match():
    match = Match(first_dealer=0, rules=FIRST_BIDDER)
    first = match.deal_next(make_deck(dealer=0, hands={2: JACK_HAND}))
    for _ in range(3):
        match.apply(Action.parse("pass"))
    assert first.declarer == 2  # first deal: spade-jack rule (the jack holder bid first)
    for text in ("discard AH KH", "surrender"):
        match.apply(Action.parse(text))
    assert match.next_dealer == 2
    second = match.deal_next(make_deck(dealer=2, hands={1: JACK_HAND}, prikup="7S 8S"))
    for _ in range(3):
        match.apply(Action.parse("pass"))
    assert second.declarer == 0  # the first bidder (dealer 2's left), not the jack holder


def test_r3_4_all_pass_declarer_may_name_any_suit_but_not_best_spades():
    deal = make_deal(dealer=0, hands={1: JACK_HAND})
    act(deal, "pass; pass; pass; discard AC KC")
    assert legal_strs(deal) == ["trump spades", "trump clubs", "trump diamonds", "trump hearts", "surrender"]
