"""R4: the prikup and the discard, naming trump, surrender."""

from __future__ import annotations

import pytest

from helpers import act, assert_illegal, code_set, hand_codes, legal_strs, make_deal
from paston.actions import Kind
from paston.cards import CardSet
from paston.contracts import Contract
from paston.deal import Phase
from paston.errors import ParseError
from paston.rules import Rules

HANDS = {
    0: "AS KS QS JS AC KC QC AD KD AH",
    1: "TS 9S JC TC 9C JD TD 9D KH QH",
    2: "8S 7S 8C 7C QD 8D 7D JH TH 9H",
}
PRIKUP = "8H 7H"
LADDER = ["spades", "clubs", "diamonds", "hearts", "best-spades"]


AUCTIONS = {
    # contract: (dealer, auction) so that seat 0 declares holding that bid
    "spades": (2, "bid spades; pass; pass"),  # 0 1 2
    "clubs": (1, "bid spades; bid clubs; pass; pass"),  # 2 0 1 2
    "diamonds": (2, "bid spades; bid clubs; pass; bid diamonds; pass"),  # 0 1 2 0 1
    "hearts": (1, "bid spades; bid clubs; pass; bid diamonds; bid hearts; pass"),  # 2 0 1 2 0 2
    "best-spades": (2, "bid spades; bid clubs; pass; bid diamonds; bid hearts; bid best-spades"),
}


def _declared(contract: str = "spades"):
    """Seat 0 declares with ``contract`` as the highest bid."""
    dealer, auction = AUCTIONS[contract]
    deal = make_deal(dealer=dealer, hands=HANDS, prikup=PRIKUP)
    act(deal, auction)
    assert deal.declarer == 0
    assert deal.high_bid is Contract.parse(contract)
    return deal


# --- R4.1 prikup and discard ----------------------------------------------------------------------


def test_r4_1_declarer_takes_the_prikup():
    deal = _declared()
    assert deal.phase is Phase.DISCARD
    assert len(deal.hand(0)) == 12
    assert hand_codes(deal, 0) == code_set(HANDS[0] + " " + PRIKUP)
    assert hand_codes(deal, 1) == code_set(HANDS[1])
    assert hand_codes(deal, 2) == code_set(HANDS[2])


def test_r4_1_any_two_of_the_twelve_may_be_discarded():
    deal = _declared()
    legal = deal.legal_actions()
    assert len(legal) == 66  # 12 choose 2
    assert all(a.kind is Kind.DISCARD for a in legal)
    assert {c for a in legal for c in a.cards} == set(deal.hand(0))


@pytest.mark.parametrize("discard", ["8H 7H", "AS 7H", "AS KS", "QC AD"])
def test_r4_1_discard_may_include_prikup_cards(discard):
    deal = _declared()
    act(deal, f"discard {discard}")
    assert deal.phase is Phase.TRUMP
    assert len(deal.hand(0)) == 10
    assert deal.discard == CardSet.parse(discard)
    assert hand_codes(deal, 0) == code_set(HANDS[0] + " " + PRIKUP) - code_set(discard)


@pytest.mark.parametrize("discard", ["TS 7H", "9H 8H", "KH QH"])
def test_r4_1_discard_must_be_from_the_twelve(discard):
    deal = _declared()
    err = assert_illegal(deal, f"discard {discard}", "R4.1", "discard-not-held")
    assert err.seat == 0


def test_r4_1_discard_needs_two_different_cards():
    with pytest.raises(ParseError):
        act(_declared(), "discard 7H 7H")


@pytest.mark.parametrize("action", ["trump spades", "surrender", "pass", "whist", "bid clubs", "AS"])
def test_r4_1_discard_comes_first(action):
    deal = _declared()
    assert_illegal(deal, action, "R4.1", "wrong-phase")


def test_r4_1_only_the_declarer_sees_prikup_and_discard():
    deal = make_deal(dealer=2, hands=HANDS, prikup=PRIKUP)
    for seat in range(3):
        assert deal.view(seat).prikup is None
    assert deal.public_view().prikup is None
    act(deal, "bid spades; pass; pass")
    assert deal.view(0).prikup == CardSet.parse(PRIKUP)
    assert deal.view(1).prikup is None and deal.view(2).prikup is None
    act(deal, "discard AS 7H")
    assert deal.view(0).discard == CardSet.parse("AS 7H")
    for seat in (1, 2):
        view = deal.view(seat)
        assert view.discard is None
        assert not view.known_cards().mask & CardSet.parse("8H 7H AS").mask
        discard_events = [e for e in view.history if e.kind is Kind.DISCARD]
        assert len(discard_events) == 1 and discard_events[0].action is None
        assert view.hand_sizes == (10, 10, 10)
    public = deal.public_view()
    assert public.discard is None and public.prikup is None
    assert [e.action for e in public.history if e.kind is Kind.DISCARD] == [None]
    act(deal, "trump spades; whist; whist")
    for seat in (1, 2):
        assert deal.view(seat).discard is None


# --- R4.2 naming trump ----------------------------------------------------------------------------


@pytest.mark.parametrize("contract", LADDER[:4])
def test_r4_2_trump_is_the_bid_or_higher(contract):
    deal = _declared(contract)
    assert deal.high_bid is Contract.parse(contract)
    act(deal, "discard 8H 7H")
    level = LADDER.index(contract)
    assert legal_strs(deal) == [f"trump {c}" for c in LADDER[level:4]] + ["surrender"]
    for lower in LADDER[:level]:
        err = assert_illegal(deal, f"trump {lower}", "R4.2", "trump-below-bid")
        assert f"trump must be {contract} or higher" in str(err)
    assert_illegal(deal, "trump best-spades", "R4.2", "best-spades-not-bid")


@pytest.mark.parametrize("named", LADDER[:4])
def test_r4_2_any_higher_step_may_be_named(named):
    deal = _declared()
    act(deal, f"discard 8H 7H; trump {named}")
    assert deal.contract is Contract.parse(named)
    assert deal.trump_suit == LADDER.index(named)
    assert deal.phase is Phase.DEFENCE


def test_r4_2_after_best_spades_only_best_spades():
    deal = _declared("best-spades")
    act(deal, "discard 8H 7H")
    assert legal_strs(deal) == ["trump best-spades", "surrender"]
    for other in LADDER[:4]:
        err = assert_illegal(deal, f"trump {other}", "R4.2", "best-spades-bid")
        assert "best spades was bid" in str(err)
    act(deal, "trump best-spades")
    assert deal.contract is Contract.BEST_SPADES
    assert deal.trump_suit == 0  # played with spades as trump


def test_r4_2_after_all_pass_four_suits_never_best_spades():
    deal = make_deal(
        dealer=2,
        hands={0: "AS KS QS 7S AC KC QC AD KD AH", 1: HANDS[1], 2: "8S JS 8C 7C QD 8D 7D JH TH 9H"},
        prikup=PRIKUP,
    )
    act(deal, "pass; pass; pass")
    assert deal.declarer == 2  # the J♠ holder
    act(deal, "discard 8H 7H")
    assert legal_strs(deal) == [f"trump {c}" for c in LADDER[:4]] + ["surrender"]
    err = assert_illegal(deal, "trump best-spades", "R4.2", "best-spades-after-all-pass")
    assert "all-pass" in str(err)
    act(deal, "trump spades")
    assert deal.contract is Contract.SPADES


def test_r4_2_there_is_no_no_trump():
    for text in ("trump notrump", "trump no-trump", "trump nt", "bid notrump"):
        with pytest.raises(ParseError):
            act(_declared(), "discard 8H 7H; " + text)


@pytest.mark.parametrize("action", ["pass", "whist", "bid clubs", "AS", "discard AS KS"])
def test_r4_2_trump_phase_wrong_actions(action):
    deal = _declared()
    act(deal, "discard 8H 7H")
    assert_illegal(deal, action, "R4.2", "wrong-phase")


def test_r4_2_best_spades_is_played_with_spades_as_trump():
    # Best spades declared by seat 0; seat 1 is void in clubs and must ruff with a spade, and wins.
    deal = make_deal(
        dealer=2,
        hands={
            0: "AC KC QC JC TC 9C 8C 7C AD KD",
            1: "AS KS QS JS TS 9S 8S 7S AH KH",
            2: "QD JD TD 9D 8D 7D QH JH TH 9H",
        },
        prikup="8H 7H",
    )
    act(deal, "bid spades; bid clubs; pass; bid diamonds; bid hearts; bid best-spades")
    act(deal, "discard 8H 7H; trump best-spades; whist; pass")
    act(deal, "AC")
    assert legal_strs(deal) == ["play " + c for c in ("7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS")]
    act(deal, "7S")
    assert deal.completed_tricks[0].winner == 1


# --- R4.3 surrender -------------------------------------------------------------------------------


def test_r4_3_surrender_in_place_of_naming_trump():
    deal = _declared()
    act(deal, "discard 8H 7H")
    assert "surrender" in legal_strs(deal)
    act(deal, "surrender")
    assert deal.is_over
    assert deal.phase is Phase.OVER
    assert deal.contract is None
    assert deal.result.outcome == "surrender"
    assert deal.result.declarer == 0
    assert deal.scores == (-10, 2, 2)
    assert deal.legal_actions() == ()
    assert_illegal(deal, "pass", "R6.3", "deal-over")


def test_r4_3_surrender_after_all_pass():
    deal = make_deal(
        dealer=2,
        hands={0: "AS KS QS 7S AC KC QC AD KD AH", 1: HANDS[1], 2: "8S JS 8C 7C QD 8D 7D JH TH 9H"},
        prikup=PRIKUP,
    )
    act(deal, "pass; pass; pass; discard 8H 7H; surrender")
    assert deal.result.outcome == "surrender"
    assert deal.scores == (2, 2, -10)


def test_r4_3_surrender_after_best_spades_bid():
    deal = _declared("best-spades")
    act(deal, "discard 8H 7H; surrender")
    assert deal.scores == (-10, 2, 2)  # no multiplier (R7.7)


def test_r4_3_surrender_not_before_the_discard():
    deal = _declared()
    assert_illegal(deal, "surrender", "R4.1", "wrong-phase")


def test_r4_3_surrender_not_after_trump_is_named():
    deal = _declared()
    act(deal, "discard 8H 7H; trump spades")
    assert_illegal(deal, "surrender", "R5.1", "wrong-phase")


def test_r4_3_surrender_variant_bonus_zero():
    deal = make_deal(dealer=2, hands=HANDS, prikup=PRIKUP, rules=Rules(surrender_bonus=0))
    act(deal, "bid spades; pass; pass; discard 8H 7H; surrender")
    assert deal.scores == (-10, 0, 0)
