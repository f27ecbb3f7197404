"""R7: the scores of one deal — by the scoring functions and by whole deals played out.

Expected values are written out by hand from RULES.md, not computed from the engine.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import act, make_deal, scripted_lone, scripted_three
from paston.contracts import Contract
from paston.deal import Deal
from paston.rules import Rules
from paston.scoring import (
    declarer_score,
    defender_score,
    played_scores,
    surrender_scores,
    uncontested_scores,
)

S, C, D, H, BS = (Contract.SPADES, Contract.CLUBS, Contract.DIAMONDS, Contract.HEARTS, Contract.BEST_SPADES)
NAMES = {S: "spades", C: "clubs", D: "diamonds", H: "hearts", BS: "best-spades"}
M = {S: 1, C: 2, D: 3, H: 4, BS: 4}
GRADED = Rules()
FLAT = Rules(lone_defender="flat")
NO_BONUS = Rules(surrender_bonus=0)

# Tables of R7.2 and R7.3 for m = 1, by tricks 0..10.
TWO_DEFENDERS = [-10, -9, 0, 10, 20, 30, 40, 50, 60, 70, 80]
LONE_GRADED = [-10, -9, -8, -7, 0, 10, 20, 30, 40, 50, 60]
LONE_FLAT = [-10, -9, -9, -9, 0, 10, 20, 30, 40, 50, 60]


# --- multipliers --------------------------------------------------------------------------------------


def test_r7_multipliers():
    assert [c.multiplier for c in (S, C, D, H, BS)] == [1, 2, 3, 4, 4]


# --- R7.1 declarer -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "made", "failed"), [(S, 10, -10), (C, 20, -20), (D, 30, -30), (H, 40, -40)]
)
def test_r7_1_declarer_plus_or_minus_ten_times_m(contract, made, failed):
    assert declarer_score(contract, True) == made
    assert declarer_score(contract, False) == failed


@pytest.mark.parametrize("contract", [S, C, D, H])
@pytest.mark.parametrize("tricks", range(11))
def test_r7_1_six_tricks_make_the_contract(contract, tricks):
    other = 10 - tricks
    scores = played_scores(contract, declarer=0, defenders=(1,), tricks=(tricks, other, 0))
    assert scores[0] == (10 if tricks >= 6 else -10) * M[contract]


# --- R7.2 two defenders ----------------------------------------------------------------------------------


@pytest.mark.parametrize("contract", [S, C, D, H, BS])
@pytest.mark.parametrize("t", range(11))
def test_r7_2_two_defenders_table(contract, t):
    assert defender_score(contract, t, lone=False) == TWO_DEFENDERS[t] * M[contract]
    assert defender_score(contract, t, lone=False, rules=FLAT) == TWO_DEFENDERS[t] * M[contract]


def test_r7_2_two_defenders_literal_values():
    two = [defender_score(S, t, lone=False) for t in range(11)]
    assert two == [-10, -9, 0, 10, 20, 30, 40, 50, 60, 70, 80]
    assert [defender_score(H, t, lone=False) for t in (0, 1, 2, 3, 5)] == [-40, -36, 0, 40, 120]
    assert [defender_score(D, t, lone=False) for t in (0, 1, 2, 4)] == [-30, -27, 0, 60]


@pytest.mark.parametrize("contract", [S, H, BS])
@pytest.mark.parametrize("t", range(11))
def test_r7_2_two_defenders_every_count_in_a_played_deal(contract, t):
    # Seat 1 defends with t tricks; the declarer is seat 0 or, when the defenders take
    # most tricks, seat 2.
    if t <= 7:
        split, declarer, other = (10 - t, t, 0), 0, 2
    else:
        split, declarer, other = (0, t, 10 - t), 2, 0
    deal = scripted_three(declarer=declarer, split=split, contract=NAMES[contract]).deal()
    m = M[contract]
    assert deal.tricks == split
    assert deal.result.defenders == tuple(sorted((1, other)))
    assert deal.scores[1] == TWO_DEFENDERS[t] * m
    assert deal.scores[other] == TWO_DEFENDERS[split[other]] * m
    made = 10 if contract is BS else 10 * m
    assert deal.scores[declarer] == (made if split[declarer] >= 6 else -10 * m)


# --- R7.3 lone defender ----------------------------------------------------------------------------------


@pytest.mark.parametrize("contract", [S, C, D, H, BS])
@pytest.mark.parametrize("t", range(11))
def test_r7_3_lone_defender_graded_table(contract, t):
    assert defender_score(contract, t, lone=True) == LONE_GRADED[t] * M[contract]
    assert defender_score(contract, t, lone=True, rules=GRADED) == LONE_GRADED[t] * M[contract]


@pytest.mark.parametrize("contract", [S, C, D, H, BS])
@pytest.mark.parametrize("t", range(11))
def test_r7_3_lone_defender_flat_table(contract, t):
    assert defender_score(contract, t, lone=True, rules=FLAT) == LONE_FLAT[t] * M[contract]


def test_r7_3_lone_defender_literal_values():
    graded = [defender_score(S, t, lone=True) for t in range(11)]
    assert graded == [-10, -9, -8, -7, 0, 10, 20, 30, 40, 50, 60]
    flat = [defender_score(S, t, lone=True, rules=FLAT) for t in range(11)]
    assert flat == [-10, -9, -9, -9, 0, 10, 20, 30, 40, 50, 60]
    assert [defender_score(C, t, lone=True) for t in (2, 3, 4, 6)] == [-16, -14, 0, 40]
    assert [defender_score(C, t, lone=True, rules=FLAT) for t in (2, 3)] == [-18, -18]


@pytest.mark.parametrize("variant", ["graded", "flat"])
@pytest.mark.parametrize("t", range(11))
def test_r7_3_lone_defender_every_count_in_a_played_deal(variant, t):
    rules = Rules(lone_defender=variant)
    table = LONE_GRADED if variant == "graded" else LONE_FLAT
    deal = scripted_lone(declarer=1, defender=2, declarer_tricks=10 - t).deal(rules)
    assert deal.tricks == (0, 10 - t, t)
    assert deal.result.outcome == "played"
    assert deal.result.defenders == (2,)
    assert deal.scores == (0, 10 if t <= 4 else -10, table[t])


@pytest.mark.parametrize("variant", ["graded", "flat"])
@pytest.mark.parametrize("t", range(11))
def test_r7_3_lone_defender_every_count_in_diamonds(variant, t):
    rules = Rules(lone_defender=variant)
    table = LONE_GRADED if variant == "graded" else LONE_FLAT
    deal = scripted_lone(declarer=0, defender=2, declarer_tricks=10 - t, contract="diamonds").deal(rules)
    assert deal.scores == (30 if t <= 4 else -30, 0, table[t] * 3)


def test_r7_3_lone_defender_needs_four_tricks_not_two():
    # With two tricks a pair defender scores 0 but a lone defender -8 (graded) / -9 (flat).
    assert defender_score(S, 2, lone=False) == 0
    assert defender_score(S, 2, lone=True) == -8
    assert defender_score(S, 2, lone=True, rules=FLAT) == -9


# --- R7.4 the passer scores 0 ----------------------------------------------------------------------------


@pytest.mark.parametrize("contract", [S, C, D, H, BS])
def test_r7_4_passer_scores_zero(contract):
    for d_tricks in (0, 4, 6, 10):
        s = scripted_lone(declarer=2, defender=0, declarer_tricks=d_tricks, contract=NAMES[contract])
        deal = s.deal()
        assert deal.scores[1] == 0
        assert deal.tricks[1] == 0
    assert played_scores(contract, declarer=0, defenders=(2,), tricks=(6, 0, 4))[1] == 0


# --- R7.5 best spades ------------------------------------------------------------------------------------


def test_r7_5_best_spades_declarer_made_scores_only_ten():
    assert declarer_score(BS, True) == 10
    assert declarer_score(BS, False) == -40


@pytest.mark.parametrize(
    ("split", "expected"),
    [
        ((6, 3, 1), (10, 40, -36)),  # R7.8
        ((8, 1, 1), (10, -36, -36)),
        ((10, 0, 0), (10, -40, -40)),
        ((7, 2, 1), (10, 0, -36)),
        ((5, 3, 2), (-40, 40, 0)),  # failed
        ((3, 4, 3), (-40, 80, 40)),
        ((0, 7, 3), (-40, 200, 40)),
    ],
)
def test_r7_5_best_spades_two_defenders_played(split, expected):
    assert played_scores(BS, declarer=0, defenders=(1, 2), tricks=split) == expected
    deal = scripted_three(declarer=0, split=split, contract="best-spades").deal()
    assert deal.contract is BS
    assert deal.tricks == split
    assert deal.scores == expected


@pytest.mark.parametrize(
    ("d_tricks", "expected_graded", "expected_flat"),
    [
        (10, (0, 10, -40), (0, 10, -40)),
        (8, (0, 10, -32), (0, 10, -36)),
        (7, (0, 10, -28), (0, 10, -36)),
        (6, (0, 10, 0), (0, 10, 0)),
        (5, (0, -40, 40), (0, -40, 40)),
        (0, (0, -40, 240), (0, -40, 240)),
    ],
)
def test_r7_5_best_spades_lone_defender_played(d_tricks, expected_graded, expected_flat):
    s = scripted_lone(declarer=1, defender=2, declarer_tricks=d_tricks, contract="best-spades")
    assert s.deal(GRADED).scores == expected_graded
    assert s.deal(FLAT).scores == expected_flat


# --- R7.6 uncontested -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("contract", "score"), [(S, 10), (C, 20), (D, 30), (H, 40), (BS, 10)])
@pytest.mark.parametrize("declarer", [0, 1, 2])
def test_r7_6_uncontested_scores(contract, score, declarer):
    expected = [0, 0, 0]
    expected[declarer] = score
    assert uncontested_scores(contract, declarer=declarer) == tuple(expected)


@pytest.mark.parametrize(("contract", "score"), [(S, 10), (C, 20), (D, 30), (H, 40), (BS, 10)])
def test_r7_6_uncontested_deal(contract, score):
    s = scripted_lone(declarer=2, defender=0, declarer_tricks=5, contract=NAMES[contract])
    setup = [*s.setup[:-2], "pass", "pass"]
    deal = Deal(s.deck, dealer=s.dealer)
    act(deal, setup)
    assert deal.is_over
    assert deal.result.outcome == "uncontested"
    assert deal.result.contract is contract
    assert deal.scores == (0, 0, score)


# --- R7.7 surrender ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("declarer", [0, 1, 2])
def test_r7_7_surrender_scores(declarer):
    expected = [2, 2, 2]
    expected[declarer] = -10
    assert surrender_scores(declarer=declarer) == tuple(expected)
    zero = [0, 0, 0]
    zero[declarer] = -10
    assert surrender_scores(declarer=declarer, rules=NO_BONUS) == tuple(zero)


@pytest.mark.parametrize("bonus", [2, 0])
@pytest.mark.parametrize("contract", ["spades", "hearts", "best-spades"])
def test_r7_7_surrender_deal_has_no_multiplier(bonus, contract):
    s = scripted_lone(declarer=1, defender=2, declarer_tricks=5, contract=contract)
    setup = [*s.setup[:-3], "surrender"]  # in place of naming trump
    deal = Deal(s.deck, dealer=s.dealer, rules=Rules(surrender_bonus=bonus))
    act(deal, setup)
    assert deal.result.outcome == "surrender"
    assert deal.result.contract is None
    assert deal.scores == (bonus, -10, bonus)


def test_r7_7_surrender_after_all_pass():
    deal = make_deal(dealer=0, hands={2: "JS AH KH QH JH TH 9H 8H AC KC"})
    act(deal, "pass; pass; pass; discard AC KC; surrender")
    assert deal.scores == (2, 2, -10)


def test_r7_7_surrender_variant_zero_after_all_pass():
    deal = make_deal(dealer=0, hands={2: "JS AH KH QH JH TH 9H 8H AC KC"}, rules=NO_BONUS)
    act(deal, "pass; pass; pass; discard AC KC; surrender")
    assert deal.scores == (0, 0, -10)


# --- R7.8 worked examples and hand-worked deals ------------------------------------------------------------


def test_r7_8_worked_example_best_spades():
    assert played_scores(BS, declarer=0, defenders=(1, 2), tricks=(6, 3, 1)) == (10, 40, -36)


def test_r7_8_worked_example_spades():
    assert played_scores(S, declarer=0, defenders=(1, 2), tricks=(6, 3, 1)) == (10, 10, -9)


@pytest.mark.parametrize(("contract", "expected"), [("best-spades", (10, 40, -36)), ("spades", (10, 10, -9))])
def test_r7_8_worked_examples_played_out(contract, expected):
    deal = scripted_three(declarer=0, split=(6, 3, 1), contract=contract).deal()
    assert deal.tricks == (6, 3, 1)
    assert deal.scores == expected
    assert sum(deal.scores) != 0  # scores need not sum to zero


@pytest.mark.parametrize("declarer", [0, 1, 2])
def test_r7_8_worked_example_any_declarer_seat(declarer):
    split = [0, 0, 0]
    split[declarer] = 6
    split[(declarer + 1) % 3] = 3
    split[(declarer + 2) % 3] = 1
    expected = [0, 0, 0]
    expected[declarer] = 10
    expected[(declarer + 1) % 3] = 40
    expected[(declarer + 2) % 3] = -36
    deal = scripted_three(declarer=declarer, split=split, contract="best-spades").deal()
    assert deal.scores == tuple(expected)


# Hand-worked whole deals: (contract, declarer, split or lone, expected scores)
HAND_WORKED_THREE = [
    ("spades", 0, (6, 2, 2), (10, 0, 0)),
    ("spades", 0, (5, 4, 1), (-10, 20, -9)),
    ("clubs", 0, (5, 4, 1), (-20, 40, -18)),
    ("diamonds", 1, (1, 7, 2), (-27, 30, 0)),
    ("hearts", 2, (0, 0, 10), (-40, -40, 40)),
    ("hearts", 0, (4, 3, 3), (-40, 40, 40)),
    ("clubs", 2, (3, 3, 4), (20, 20, -20)),
    ("diamonds", 0, (8, 0, 2), (30, -30, 0)),
]


@pytest.mark.parametrize(("contract", "declarer", "split", "expected"), HAND_WORKED_THREE)
def test_r7_8_hand_worked_two_defender_deals(contract, declarer, split, expected):
    s = scripted_three(declarer=declarer, split=split, contract=contract)
    deal = s.deal()
    assert [t.winner for t in deal.completed_tricks] == s.winners
    assert deal.tricks == split
    assert deal.scores == expected
    c = Contract.parse(contract)
    defenders = tuple(x for x in range(3) if x != declarer)
    assert played_scores(c, declarer=declarer, defenders=defenders, tricks=split) == expected


# (contract, declarer, defender, declarer tricks, graded scores, flat scores)
HAND_WORKED_LONE = [
    ("hearts", 0, 1, 7, (40, -28, 0), (40, -36, 0)),
    ("hearts", 0, 2, 3, (-40, 0, 120), (-40, 0, 120)),
    ("spades", 2, 0, 0, (60, 0, -10), (60, 0, -10)),
    ("spades", 2, 0, 10, (-10, 0, 10), (-10, 0, 10)),
    ("clubs", 1, 0, 6, (0, 20, 0), (0, 20, 0)),
    ("clubs", 1, 0, 8, (-16, 20, 0), (-18, 20, 0)),
    ("diamonds", 0, 2, 9, (30, 0, -27), (30, 0, -27)),
    ("diamonds", 0, 2, 8, (30, 0, -24), (30, 0, -27)),
    ("diamonds", 0, 2, 7, (30, 0, -21), (30, 0, -27)),
    ("diamonds", 0, 2, 5, (-30, 0, 30), (-30, 0, 30)),
]


@pytest.mark.parametrize(("contract", "declarer", "defender", "dt", "graded", "flat"), HAND_WORKED_LONE)
def test_r7_8_hand_worked_lone_defender_deals(contract, declarer, defender, dt, graded, flat):
    s = scripted_lone(declarer=declarer, defender=defender, declarer_tricks=dt, contract=contract)
    assert s.deal(GRADED).scores == graded
    assert s.deal(FLAT).scores == flat
    tricks = [0, 0, 0]
    tricks[declarer] = dt
    tricks[defender] = 10 - dt
    c = Contract.parse(contract)
    assert played_scores(c, declarer=declarer, defenders=(defender,), tricks=tricks) == graded
    assert played_scores(c, declarer=declarer, defenders=(defender,), tricks=tricks, rules=FLAT) == flat


@pytest.mark.parametrize(("contract", "m"), [("spades", 1), ("clubs", 2), ("diamonds", 3), ("hearts", 4)])
def test_r7_multiplier_in_played_deals(contract, m):
    deal = scripted_three(declarer=1, split=(1, 6, 3), contract=contract).deal()
    assert deal.scores == (-9 * m, 10 * m, 10 * m)
    lone = scripted_lone(declarer=1, defender=0, declarer_tricks=4, contract=contract).deal()
    assert lone.scores == (20 * m, -10 * m, 0)


# --- properties --------------------------------------------------------------------------------------------


def _expected_defender(t: int, lone: bool, flat: bool) -> int:
    if lone:
        return (LONE_FLAT if flat else LONE_GRADED)[t]
    return TWO_DEFENDERS[t]


@given(
    contract=st.sampled_from([S, C, D, H, BS]),
    declarer=st.integers(0, 2),
    lone=st.booleans(),
    flat=st.booleans(),
    data=st.data(),
)
def test_r7_played_scores_property(contract, declarer, lone, flat, data):
    rules = FLAT if flat else GRADED
    others = [(declarer + 1) % 3, (declarer + 2) % 3]
    defenders = (data.draw(st.sampled_from(others)),) if lone else tuple(others)
    dt = data.draw(st.integers(0, 10))
    tricks = [0, 0, 0]
    tricks[declarer] = dt
    if lone:
        tricks[defenders[0]] = 10 - dt
    else:
        a = data.draw(st.integers(0, 10 - dt))
        tricks[others[0]] = a
        tricks[others[1]] = 10 - dt - a
    scores = played_scores(contract, declarer=declarer, defenders=defenders, tricks=tricks, rules=rules)
    m = M[contract]
    if dt >= 6:
        assert scores[declarer] == (10 if contract is BS else 10 * m)
    else:
        assert scores[declarer] == -10 * m
    for seat in defenders:
        assert scores[seat] == _expected_defender(tricks[seat], lone, flat) * m
    for seat in others:
        if seat not in defenders:
            assert scores[seat] == 0
