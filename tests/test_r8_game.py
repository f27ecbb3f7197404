"""R8: the game — running totals, the reset at exactly -target, the end and the winners;
and, across a whole match, dealer rotation (R2) and redeals that do not count (R1.6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import Scripted, make_deck, scripted_lone, scripted_three
from paston.actions import Action
from paston.deal import Deal
from paston.errors import IllegalActionError, RulesError
from paston.match import Match
from paston.rules import Rules
from paston.scoring import apply_totals, winners

JACK_HAND = "JS AH KH QH JH TH 9H 8H AC KC"
SEQUENCE_HAND = "7S 8S 9S TS JS QS AC KC QC JC"


# --- driving a match ---------------------------------------------------------------------------------


def _apply(match: Match, text: str) -> None:
    match.apply(Action.parse(text))


def _declare(match: Match, seat: int) -> Deal:
    """Everyone before ``seat`` passes, ``seat`` bids spades, the rest pass."""
    deal = match.deal
    assert deal is not None
    while deal.to_move != seat:
        _apply(match, "pass")
    _apply(match, "bid spades")
    while deal.declarer is None:
        _apply(match, "pass")
    assert deal.declarer == seat
    low = sorted(deal.hand(seat), key=lambda c: c.index)[:2]
    _apply(match, f"discard {low[0]} {low[1]}")
    return deal


def surrender(match: Match, seat: int) -> Deal:
    """``seat`` declares and surrenders (R7.7: -10, others +bonus)."""
    deal = _declare(match, seat)
    _apply(match, "surrender")
    assert deal.result is not None and deal.result.outcome == "surrender"
    return deal


def uncontested(match: Match, seat: int, contract: str = "spades") -> Deal:
    """``seat`` declares, names ``contract``, both opponents pass (R7.6: +10·m)."""
    deal = _declare(match, seat)
    for text in (f"trump {contract}", "pass", "pass"):
        _apply(match, text)
    assert deal.result is not None and deal.result.outcome == "uncontested"
    return deal


def play_scripted(match: Match, s: Scripted) -> Deal:
    assert match.next_dealer == s.dealer
    deal = match.deal_next(s.deck)
    for text in [*s.setup, *s.plays]:
        _apply(match, text)
    assert deal.is_over
    return deal


def start(match: Match, jack: int | None = None) -> Deal:
    """Deal the next deal; in the first deal ``jack`` holds J♠ and bids first."""
    dealer = match.next_dealer
    hands = {jack: JACK_HAND} if jack is not None else None
    return match.deal_next(make_deck(dealer=dealer, hands=hands))


# --- R8.1 running totals ----------------------------------------------------------------------------------


def test_r8_1_running_totals():
    match = Match(first_dealer=0)
    start(match, jack=1)
    surrender(match, 1)
    assert match.totals == (2, -10, 2)
    assert match.deal_totals == [(2, -10, 2)]
    assert match.next_dealer == 1
    start(match)
    uncontested(match, 2, "hearts")  # +40
    assert match.totals == (2, -10, 42)
    assert match.next_dealer == 2
    # dealer 2: seat 0 declares spades and takes 3 tricks against a lone defender (7 tricks)
    deal = play_scripted(match, scripted_lone(declarer=0, defender=1, declarer_tricks=3, dealer=2))
    assert deal.scores == (-10, 30, 0)  # lone defender with 7 tricks: 10·(7−4)
    assert match.totals == (-8, 20, 42)
    assert match.deal_totals == [(2, -10, 2), (2, -10, 42), (-8, 20, 42)]
    assert match.completed_deals == 3
    assert not match.is_over


def test_r8_1_totals_are_signed():
    match = Match(first_dealer=0)
    start(match, jack=0)
    surrender(match, 0)
    start(match)
    surrender(match, 0)
    assert match.totals == (-20, 4, 4)


# --- R8.2 the reset at exactly -target ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "scores", "expected"),
    [
        ((-100, 0, 0), (-21, 0, 0), (0, 0, 0)),  # from above, exactly -121
        ((-111, 5, 5), (-10, 2, 2), (0, 7, 7)),
        ((-131, 0, 0), (10, 0, 0), (0, 0, 0)),  # from below, exactly -121
        ((-161, 0, 0), (40, 0, 0), (0, 0, 0)),
        ((-120, 0, 0), (-1, 0, 0), (0, 0, 0)),
        ((-111, 0, 0), (-20, 0, 0), (-131, 0, 0)),  # passing below: no reset
        ((-120, 0, 0), (-40, 0, 0), (-160, 0, 0)),
        ((-130, 0, 0), (-9, 0, 0), (-139, 0, 0)),
        ((-125, 0, 0), (2, 0, 0), (-123, 0, 0)),
        ((0, -111, -101), (2, -10, -20), (2, 0, 0)),  # two resets in one deal
        ((100, 0, 0), (21, 0, 0), (121, 0, 0)),  # +121 is not reset
        ((-121 + 10, 0, 0), (0, 0, 0), (-111, 0, 0)),
    ],
)
def test_r8_2_apply_totals_reset_at_minus_121(totals, scores, expected):
    assert apply_totals(totals, scores) == expected


@given(
    totals=st.tuples(*[st.integers(-300, 300)] * 3),
    scores=st.tuples(*[st.integers(-400, 400)] * 3),
    target=st.sampled_from([10, 30, 61, 121, 200]),
)
def test_r8_2_apply_totals_property(totals, scores, target):
    rules = Rules(target=target)
    out = apply_totals(totals, scores, rules=rules)
    for t, s, o in zip(totals, scores, out, strict=True):
        assert o == (0 if t + s == -target else t + s)


def test_r8_2_reset_variant_target():
    rules = Rules(target=61)
    assert apply_totals((-51, 0, 0), (-10, 0, 0), rules=rules) == (0, 0, 0)
    assert apply_totals((-111, 0, 0), (-10, 0, 0), rules=rules) == (-121, 0, 0)  # -121 is not -61


def test_r8_2_reset_from_above_in_a_match():
    # target 30: the reset is at exactly -30. Seat 0 surrenders three times: -10, -20, -30 -> 0.
    match = Match(first_dealer=0, rules=Rules(target=30))
    start(match, jack=0)
    surrender(match, 0)
    assert match.totals == (-10, 2, 2)
    start(match)
    surrender(match, 0)
    assert match.totals == (-20, 4, 4)
    start(match)
    surrender(match, 0)
    assert match.totals == (0, 6, 6)
    assert match.deal_totals[-1] == (0, 6, 6)
    assert not match.is_over


def test_r8_2_passing_below_then_reset_from_below_in_a_match():
    match = Match(first_dealer=0, rules=Rules(target=30))
    start(match, jack=0)
    surrender(match, 0)  # (-10, 2, 2); seat 0 deals the second deal
    start(match)
    surrender(match, 0)  # (-20, 4, 4); dealer 1 next
    assert match.next_dealer == 1
    # seat 0 declares clubs and fails against a lone defender (seat 1, 5 tricks): -20
    s = scripted_lone(declarer=0, defender=1, declarer_tricks=5, contract="clubs", dealer=1)
    deal = play_scripted(match, s)
    assert deal.scores == (-20, 20, 0)
    assert match.totals == (-40, 24, 4)  # passed below -30: not reset
    assert match.next_dealer == 2
    # seat 0 wins spades uncontested: -40 + 10 = -30 exactly: reset from below
    start(match)
    uncontested(match, 0)
    assert match.totals == (0, 24, 4)
    assert not match.is_over


def test_r8_2_reset_at_121_in_a_match():
    # Default target: seat 0 goes down to -111 in played deals, then surrenders: -121 -> 0.
    match = Match(first_dealer=0)
    start(match, jack=0)
    surrender(match, 0)
    assert match.totals == (-10, 2, 2)
    # dealer 0: seat 0 fails hearts against a lone defender (seat 1, 5 tricks: +40)
    play_scripted(
        match, scripted_lone(declarer=0, defender=1, declarer_tricks=5, contract="hearts", dealer=0)
    )
    assert match.totals == (-50, 42, 2)
    # dealer 1: again, against seat 2
    play_scripted(
        match, scripted_lone(declarer=0, defender=2, declarer_tricks=5, contract="hearts", dealer=1)
    )
    assert match.totals == (-90, 42, 42)
    # dealer 2: seat 1 makes diamonds (7 tricks); seat 0 defends alone with 3 tricks: -7·3
    play_scripted(
        match, scripted_lone(declarer=1, defender=0, declarer_tricks=7, contract="diamonds", dealer=2)
    )
    assert match.totals == (-111, 72, 42)
    start(match)
    surrender(match, 0)  # -111 - 10 = -121 exactly
    assert match.totals == (0, 74, 44)
    assert match.deal_totals[-1] == (0, 74, 44)


# --- R8.3 the end of the game --------------------------------------------------------------------------


def test_r8_3_reaching_the_target_ends_the_game():
    match = Match(first_dealer=0, rules=Rules(target=10))
    start(match, jack=2)
    uncontested(match, 2)
    assert match.totals == (0, 0, 10)  # exactly the target
    assert match.is_over
    assert match.winners == (2,)
    assert not match.needs_deck
    with pytest.raises(IllegalActionError) as info:
        match.deal_next(make_deck(dealer=0))
    assert (info.value.rule, info.value.code) == ("R8.3", "game-over")
    with pytest.raises(IllegalActionError) as info:
        match.apply(Action.parse("pass"))
    assert (info.value.rule, info.value.code) == ("R8.3", "game-over")


def test_r8_3_below_the_target_the_game_goes_on():
    match = Match(first_dealer=0, rules=Rules(target=21))
    start(match, jack=2)
    uncontested(match, 2, "clubs")  # 20
    assert not match.is_over and match.winners == ()
    start(match)
    uncontested(match, 2)  # 30
    assert match.winners == (2,)


def test_r8_3_simultaneous_highest_wins():
    # target 20; seat 0 wins spades uncontested (10), then fails spades against two
    # defenders who take 5 and 4 tricks: +30 and +20, both reach 20; the highest wins alone.
    match = Match(first_dealer=0, rules=Rules(target=20))
    start(match, jack=0)
    uncontested(match, 0)
    assert match.totals == (10, 0, 0)
    assert match.next_dealer == 0
    play_scripted(match, scripted_three(declarer=0, split=(1, 5, 4), dealer=0))
    assert match.totals == (0, 30, 20)
    assert match.is_over
    assert match.winners == (1,)


def test_r8_3_equal_highest_share_the_victory():
    match = Match(first_dealer=0, rules=Rules(target=20))
    start(match, jack=0)
    uncontested(match, 0)
    play_scripted(match, scripted_three(declarer=0, split=(2, 4, 4), dealer=0))
    assert match.totals == (0, 20, 20)
    assert match.is_over
    assert match.winners == (1, 2)


def test_r8_3_shared_victory_at_121():
    # Seat 2 surrenders (2, 2, -10), then fails best spades taking no trick while the
    # defenders take 5 each: 4·10·(5−2) = 120 each -> 122 and 122.
    match = Match(first_dealer=0)
    start(match, jack=1)
    surrender(match, 2)
    assert match.totals == (2, 2, -10)
    assert match.next_dealer == 1  # the first bidder of the first deal (R2.2)
    s = scripted_three(declarer=2, split=(5, 5, 0), contract="best-spades")
    deal = play_scripted(match, s)
    assert deal.scores == (120, 120, -40)
    assert match.totals == (122, 122, -50)
    assert match.is_over
    assert match.winners == (0, 1)


def test_r8_3_only_totals_at_or_above_121_win():
    match = Match(first_dealer=0)
    start(match, jack=2)
    uncontested(match, 2)  # 10
    s = scripted_three(declarer=0, split=(0, 5, 5), contract="best-spades")  # dealer 2 -> 0 bids first
    deal = play_scripted(match, s)
    assert deal.scores == (-40, 120, 120)
    assert match.totals == (-40, 120, 130)
    assert match.winners == (2,)


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ((121, 0, 0), (0,)),
        ((120, 120, 120), ()),
        ((130, 125, 0), (0,)),
        ((125, 130, 0), (1,)),
        ((130, 0, 130), (0, 2)),
        ((122, 122, 122), (0, 1, 2)),
        ((-121, 0, 0), ()),
        ((200, 150, 121), (0,)),
    ],
)
def test_r8_3_winners_function(totals, expected):
    assert winners(totals) == expected


def test_r8_3_winners_with_target_variant():
    rules = Rules(target=61)
    assert winners((61, 60, 0), rules=rules) == (0,)
    assert winners((60, 60, 60), rules=rules) == ()
    assert winners((70, 70, 61), rules=rules) == (0, 1)


# --- the whole match: dealer rotation (R2.2, R2.3) and redeals that do not count (R1.6) ---------------


def test_r8_match_rotation_with_every_kind_of_redeal():
    match = Match(first_dealer=0)
    d = match.deal_next(make_deck(dealer=0, prikup="JS 7S"))  # R1.5
    assert d.redeal == "jack-seven-prikup"
    d = match.deal_next(make_deck(dealer=0, hands={2: SEQUENCE_HAND}))  # R1.4
    assert d.redeal == "spade-sequence"
    assert match.next_dealer == 0 and match.completed_deals == 0
    d = start(match, jack=0)  # the real first deal: the dealer holds J♠ and bids first
    assert d.first_deal and d.first_bidder == 0
    surrender(match, 0)
    assert match.next_dealer == 0  # the first bidder deals the second deal, though they dealt the first
    d = match.deal_next(make_deck(dealer=0, prikup="7S JS"))
    assert not d.first_deal
    for _ in range(3):
        _apply(match, "pass")
    assert d.redeal == "no-jack-no-seven"  # R3.4
    assert match.next_dealer == 0 and match.completed_deals == 1
    d = match.deal_next(make_deck(dealer=0, hands={1: SEQUENCE_HAND}))
    assert d.redeal == "spade-sequence"  # R1.4 in a later deal
    d = start(match)
    assert (d.dealer, d.first_bidder) == (0, 1)
    surrender(match, 1)
    dealers = []
    for _ in range(4):
        d = start(match)
        dealers.append(d.dealer)
        assert d.first_bidder == (d.dealer + 1) % 3
        surrender(match, d.first_bidder)
    assert dealers == [1, 2, 0, 1]
    assert match.completed_deals == 6
    assert len(match.deals) == 10
    assert [t is None for t in match.deal_totals] == [True, True, False, True, True] + [False] * 5


def test_r8_match_rotate_variant():
    match = Match(first_dealer=1, rules=Rules(second_dealer="rotate"))
    d = match.deal_next(make_deck(dealer=1, prikup="JS 7S"))
    assert d.redeal == "jack-seven-prikup"
    d = start(match, jack=0)
    assert d.dealer == 1 and d.first_bidder == 0
    surrender(match, 0)
    dealers = []
    for _ in range(3):
        d = start(match)
        dealers.append(d.dealer)
        surrender(match, d.first_bidder)
    assert dealers == [2, 0, 1]


def test_r8_match_all_pass_first_bidder_variant():
    match = Match(first_dealer=2, rules=Rules(all_pass_declarer="first-bidder"))
    d = start(match, jack=1)
    for _ in range(3):
        _apply(match, "pass")
    assert d.declarer == 1  # first deal: the J♠ holder
    _apply(match, "discard AC KC")
    _apply(match, "surrender")
    assert match.next_dealer == 1
    # second deal: J♠ and 7♠ in the prikup, all pass: the first bidder declares, no redeal
    d = match.deal_next(make_deck(dealer=1, prikup="JS 7S"))
    for _ in range(3):
        _apply(match, "pass")
    assert d.redeal is None
    assert d.declarer == 2
    # third deal: J♠ elsewhere, still the first bidder
    _apply(match, "discard " + " ".join(str(c) for c in sorted(d.hand(2), key=lambda c: c.index)[:2]))
    _apply(match, "surrender")
    d = match.deal_next(make_deck(dealer=2, hands={1: JACK_HAND}))
    for _ in range(3):
        _apply(match, "pass")
    assert d.declarer == 0


# --- the variant switches of RULES.md --------------------------------------------------------------------


def test_r8_3_variant_switches_and_defaults():
    rules = Rules()
    assert rules.to_dict() == {
        "lone_defender": "graded",
        "surrender_bonus": 2,
        "all_pass_declarer": "spade-jack",
        "second_dealer": "first-bidder",
        "target": 121,
    }
    assert Rules.parse("target=10").target == 10
    assert Rules.parse("lone_defender=flat,surrender_bonus=0").to_dict()["surrender_bonus"] == 0
    assert Rules.from_dict({"second_dealer": "rotate"}).second_dealer == "rotate"
    assert Rules.from_dict({"all_pass_declarer": "first-bidder"}).all_pass_declarer == "first-bidder"


@pytest.mark.parametrize(
    "bad",
    [
        {"lone_defender": "steep"},
        {"surrender_bonus": 1},
        {"surrender_bonus": "2"},
        {"all_pass_declarer": "dealer"},
        {"second_dealer": "random"},
        {"target": 0},
        {"target": "121"},
        {"no_trump": True},
    ],
)
def test_r8_3_variant_values_are_checked(bad):
    with pytest.raises(RulesError):
        Rules.from_dict(bad)
