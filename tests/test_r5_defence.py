"""R5: the defence — whist or pass, one or two defenders, uncontested deals."""

from __future__ import annotations

import pytest

from helpers import act, assert_illegal, hand_codes, legal_strs, make_deal, scripted_lone, scripted_three
from paston.contracts import Contract
from paston.deal import Phase

HANDS = {
    0: "AS KS QS JS AC KC QC AD KD AH",
    1: "TS 9S JC TC 9C JD TD 9D KH QH",
    2: "8S 7S 8C 7C QD 8D 7D JH TH 9H",
}
PRIKUP = "8H 7H"


def _named(declarer: int = 0, contract: str = "spades"):
    """``declarer`` bids first and declares; the prikup is discarded; trump is named."""
    deal = make_deal(dealer=(declarer - 1) % 3, hands=HANDS, prikup=PRIKUP)
    act(deal, f"bid spades; pass; pass; discard 8H 7H; trump {contract}")
    assert deal.phase is Phase.DEFENCE
    return deal


# --- R5.1 whist or pass, left-hand opponent first ---------------------------------------------------


@pytest.mark.parametrize("declarer", [0, 1, 2])
def test_r5_1_left_hand_opponent_answers_first(declarer):
    deal = _named(declarer)
    assert deal.to_move == (declarer + 1) % 3
    assert legal_strs(deal) == ["whist", "pass"]
    act(deal, "whist")
    assert deal.to_move == (declarer + 2) % 3
    assert legal_strs(deal) == ["whist", "pass"]


@pytest.mark.parametrize("first", ["whist", "pass"])
def test_r5_1_second_opponent_hears_the_first_answer(first):
    deal = _named(0)
    act(deal, first)
    view = deal.view(2)
    assert view.whist_answers == (first == "whist",)
    assert [str(e) for e in view.history][-1] == f"seat 1: {first}"
    assert view.legal_actions == deal.legal_actions()


@pytest.mark.parametrize("action", ["bid clubs", "trump hearts", "surrender", "discard AS KS", "TS"])
def test_r5_1_only_whist_or_pass(action):
    deal = _named(0)
    assert_illegal(deal, action, "R5.1", "wrong-phase")


def test_r5_1_not_your_turn():
    deal = _named(0)
    err = assert_illegal(deal, "whist", "R5.1", "not-your-turn", seat=2)
    assert err.seat == 2
    assert_illegal(deal, "whist", "R5.1", "not-your-turn", seat=0)


# --- R5.2 two defenders or one ----------------------------------------------------------------------


def test_r5_2_both_whist_three_play():
    deal = _named(0)
    act(deal, "whist; whist")
    assert deal.phase is Phase.PLAY
    assert deal.defenders == (1, 2)
    assert deal.active == (0, 1, 2)
    assert deal.to_move == 0


@pytest.mark.parametrize(("answers", "defender", "passer"), [("whist; pass", 1, 2), ("pass; whist", 2, 1)])
def test_r5_2_one_whists_and_plays_alone(answers, defender, passer):
    deal = _named(0)
    act(deal, answers)
    assert deal.phase is Phase.PLAY
    assert deal.defenders == (defender,)
    assert deal.active == (0, defender)
    before = hand_codes(deal, passer)
    seats_to_move = []
    while not deal.is_over:
        seats_to_move.append(deal.to_move)
        act(deal, str(deal.legal_actions()[0]))
    assert passer not in seats_to_move  # the passer never takes part
    assert hand_codes(deal, passer) == before  # the whole hand stays face down
    assert len(before) == 10
    assert all(len(t.plays) == 2 for t in deal.completed_tricks)
    assert deal.tricks[passer] == 0
    assert sum(deal.tricks) == 10
    assert deal.scores[passer] == 0


@pytest.mark.parametrize("declarer", [0, 1, 2])
def test_r5_2_passer_cannot_act(declarer):
    deal = _named(declarer)
    act(deal, "whist; pass")
    passer = (declarer + 2) % 3
    own = sorted(deal.hand(passer), key=lambda c: c.index)[0]
    assert_illegal(deal, str(own), "R6.2", "not-your-turn", seat=passer)
    act(deal, str(deal.legal_actions()[0]))  # declarer leads
    assert deal.to_move == (declarer + 1) % 3  # the defender, not the passer
    assert_illegal(deal, str(own), "R6.2", "not-your-turn", seat=passer)


def test_r5_2_passer_hand_is_hidden_from_everyone():
    deal = _named(0)
    act(deal, "whist; pass")
    for seat in (0, 1):
        view = deal.view(seat)
        assert not view.known_cards().mask & deal.hand_mask(2)
    assert not deal.public_view().known_cards().mask & deal.hand_mask(2)


@pytest.mark.parametrize("t", range(11))
def test_r5_2_two_defenders_need_two_tricks_each(t):
    # Defender seat 1 takes t tricks; at 2 its score is 0 (quota met), below 2 negative.
    split = (10 - t, t, 0) if t <= 7 else (0, t, 10 - t)
    s = scripted_three(declarer=0 if t <= 7 else 2, split=split)
    deal = s.deal()
    assert deal.defenders == ((1, 2) if t <= 7 else (0, 1))
    score = deal.scores[1]
    assert (score >= 0) == (t >= 2)
    assert (score > 0) == (t > 2)


@pytest.mark.parametrize("t", range(11))
def test_r5_2_lone_defender_needs_four_tricks(t):
    s = scripted_lone(declarer=0, defender=1, declarer_tricks=10 - t)
    deal = s.deal()
    score = deal.scores[1]
    assert (score >= 0) == (t >= 4)
    assert (score > 0) == (t > 4)


# --- R5.3 both pass: uncontested -----------------------------------------------------------------------


@pytest.mark.parametrize("contract", ["spades", "clubs", "diamonds", "hearts"])
@pytest.mark.parametrize("declarer", [0, 1, 2])
def test_r5_3_both_pass_declarer_wins_without_play(declarer, contract):
    deal = _named(declarer, contract)
    act(deal, "pass; pass")
    assert deal.is_over
    assert deal.phase is Phase.OVER
    assert deal.to_move is None
    assert deal.legal_actions() == ()
    assert deal.completed_tricks == ()
    assert deal.active == ()
    result = deal.result
    assert result.outcome == "uncontested"
    assert result.declarer == declarer
    assert result.contract is Contract.parse(contract)
    assert result.defenders == ()
    assert result.tricks == (0, 0, 0)
    m = {"spades": 1, "clubs": 2, "diamonds": 3, "hearts": 4}[contract]
    expected = [0, 0, 0]
    expected[declarer] = 10 * m
    assert deal.scores == tuple(expected)
    assert_illegal(deal, "AS", "R6.3", "deal-over")
