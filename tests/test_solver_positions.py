"""Hand-built play positions with known double-dummy answers, and invariants.

Each position says in a comment why its answer is what it is; the compiled solver and
the pure-Python reference must both give it. Seats play clockwise 0 → 1 → 2 (R0.1), so
with the declarer on seat 0 the defender on seat 1 plays second to the declarer's
leads. ``trick=`` lists the cards already played to the current trick, from its leader.

The invariants (hypothesis) hold for any position: the value does not depend on the
names of the non-trump suits, nor on the exact ranks of the cards as long as their
order in each suit is kept, touching cards of one hand are worth the same, and the
answer does not depend on which solver (fresh or warm, tiny or large table) is asked.
"""

from __future__ import annotations

import itertools
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paston.cards import Card
from paston.contracts import Contract
from paston.rules import Rules
from paston.solver import MAXN_MIN_MEMORY_MB, Position, Solver, default_solver, reference
from solver_helpers import (
    cards_of,
    in_play,
    random_position,
    rank_preserving_map,
    relabel,
    suit_permutation,
)

SOLVER = Solver(memory_mb=4)


def values(pos: Position) -> dict[str, int]:
    """Card code → declarer's total tricks after it; checked against the reference."""
    solution = SOLVER.solve(pos)
    got = {str(c): v for c, v in solution.card_values.items()}
    ref = {str(Card(c)): v for c, v in reference.card_values(pos).items()}
    assert got == ref
    assert solution.value == reference.declarer_tricks(pos)
    return got


def value(pos: Position) -> int:
    v = SOLVER.tricks(pos)
    assert v == reference.declarer_tricks(pos) == SOLVER.solve(pos).value
    return v


def pos_(hands: list[str], trump: str, *, leader: int = 0, trick: str = "", tricks=(0, 0, 0)) -> Position:
    """Declarer on seat 0; the seats holding cards defend (an empty hand passed)."""
    return Position.from_text(hands=hands, trump=trump, declarer=0, leader=leader, trick=trick, tricks=tricks)


# --- squeeze ------------------------------------------------------------------------------
SQUEEZE = ["JS AC 8C AH", "AS KS QC 7C", "KD TD 8D 7D"]


def test_squeeze_on_a_defender_guarding_two_suits() -> None:
    # Hearts are trump and only the declarer has one (AH, the squeeze card). Defender 1
    # guards clubs (QC 7C against the declarer's AC 8C: after AC the queen still beats
    # the 8) and holds spades (AS KS against JS). Defender 2's diamonds are useless.
    # Cashing AH first forces defender 1 to discard from four busy cards:
    #   - a club (7C or QC): AC then drops QC, and 8C is the last club: 3 tricks;
    #   - a spade: one spade is left, so JS throws defender 1 in, and it must lead a
    #     club into AC 8C (7C is beaten by 8C, QC by AC): 3 tricks.
    # Without the squeeze card first the defence keeps everything: leading AC or 8C
    # gives up a club trick; leading JS lets defender 1 win and lead the other spade,
    # which the declarer must ruff with AH (R6.2), after which QC still guards.
    assert values(pos_(SQUEEZE, "hearts")) == {"JS": 2, "AC": 2, "8C": 2, "AH": 3}


@pytest.mark.parametrize("discard", ["AS", "KS", "QC", "7C"])
def test_squeeze_every_discard_loses(discard: str) -> None:
    # After AH and any discard of defender 1 the declarer takes all three tricks.
    hands = [SQUEEZE[0].replace("AH", ""), SQUEEZE[1].replace(discard, ""), SQUEEZE[2]]
    pos = pos_(hands, "hearts", trick=f"AH {discard}")
    assert pos.to_move == 2
    assert set(values(pos).values()) == {3}


# --- throw-in (endplay) ---------------------------------------------------------------------
@pytest.mark.parametrize("passer", [False, True], ids=["three-hand", "two-hand"])
def test_throw_in(passer: bool) -> None:
    # Clubs: the declarer's AC 8C against defender 1's QC 7C, a tenace. Spades: JS
    # against AS. Exiting with JS is the only card that takes two: defender 1 wins AS
    # and must lead a club into the tenace (7C under 8C, or QC under AC). Cashing AC
    # first (7C follows) or leading 8C (QC wins) leaves the defender a club and AS: one
    # trick. Defender 2's diamonds (or a passer) change nothing.
    hands = ["JS AC 8C", "AS QC 7C", "" if passer else "KD TD 8D"]
    pos = pos_(hands, "hearts")
    assert len(pos.active) == (2 if passer else 3)
    assert values(pos) == {"JS": 2, "AC": 1, "8C": 1}


# --- trump promotion ------------------------------------------------------------------------
def test_uppercut_promotes_partners_trump() -> None:
    # Spades are trump. Defender 1 led AC; defender 2 and the declarer have no clubs, so
    # both must trump (R6.2). If defender 2 ruffs with QS, the declarer must overruff
    # with KS (or lose the trick to QS) and is left with TS under defender 1's JS, now
    # promoted: defender 1 trumps the AD with it (void in diamonds, it must), and the
    # TS makes only by overruffing defender 2's 8S when KC is led: 2 tricks. If
    # defender 2 ruffs low with 8S, the declarer overruffs with TS and keeps KS over
    # QS and JS (they fall together), and AD also wins: 3.
    pos = pos_(["KS TS AD", "JS KC", "QS 8S 7D"], "spades", leader=1, trick="AC")
    assert pos.to_move == 2
    assert values(pos) == {"QS": 2, "8S": 3}


# --- ruff and sluff -----------------------------------------------------------------------------
def test_ruff_and_sluff_given_by_the_declarer() -> None:
    # Hearts trump. Both defenders are void in diamonds; defender 1 holds the 8H,
    # defender 2 no trump. Leading QD gives the defence a ruff and a sluff: defender 1
    # must ruff with 8H (R6.2), defender 2 discards, and the declarer, void in both of
    # defender 1's suits, must then ruff its exit: AH and 9H win the last two, 2 tricks.
    # Drawing the trump first (9H or AH: defender 1 must follow with 8H) and cashing
    # the other heart leaves QD good, as nobody can follow or ruff it: 3 tricks.
    pos = pos_(["QD AH 9H", "AS KC 8H", "QS 9S 9C"], "hearts")
    assert values(pos) == {"QD": 2, "9H": 3, "AH": 3}


def test_giving_a_ruff_in_a_two_hand_ending() -> None:
    # Two-hand ending (seat 2 passed). Hearts are trump; the declarer holds only 7H and
    # the lone defender 8H. Defender 1 is on lead. Leading KD, a suit the declarer is
    # void in, gives the declarer a ruff with the 7H (R6.2 makes the ruff compulsory,
    # and here it is welcome): 1 trick. Leading 8H draws the 7H, and leading 8S wins
    # the trick and the defender can then draw trump: the declarer takes nothing.
    pos = pos_(["7H AC 7S", "8H KD 8S", ""], "hearts", leader=1)
    assert pos.defenders == (1,)
    assert values(pos) == {"KD": 1, "8H": 0, "8S": 0}


# --- two-hand endings: the passer's cards are out of play ---------------------------------
def test_two_hand_passer_cards_are_out_of_play() -> None:
    # Clubs are trump. Lone defender 1 holds QS QD against the declarer's KS KD: both
    # kings win. Had seat 2 (who passed) been in play with AS AD, it would have won
    # both tricks; but a passer's hand takes no part (R5.2), so the solver must not see
    # it: the two-hand position is the right one to ask, and the answer is 2.
    two = pos_(["KS KD", "QS QD", ""], "clubs")
    assert two.active == (0, 1)
    assert values(two) == {"KS": 2, "KD": 2}
    three = pos_(["KS KD", "QS QD", "AS AD"], "clubs")
    assert values(three) == {"KS": 0, "KD": 0}


def test_two_hand_passer_cards_do_not_separate_touching_cards() -> None:
    # Spades trump, seat 1 passed. The declarer's KS and JS are touching once QS is out
    # of play (it is in the passer's hand, not in play): either card is as good. The
    # defender's TS and 9S lose both tricks: 2. In three hands, with seat 1 holding QS
    # and 7H in play, the cards are not equivalent: KS first drops the bare QS (2
    # tricks), JS first loses to it (1).
    two = pos_(["KS JS", "", "TS 9S"], "spades")
    assert two.defenders == (2,)
    assert values(two) == {"KS": 2, "JS": 2}
    three = pos_(["KS JS", "QS 7H", "TS 9S"], "spades")
    assert values(three) == {"KS": 2, "JS": 1}


def test_two_hand_defender_on_lead_mid_play() -> None:
    # Diamonds trump, seat 0 passed: declarer seat 2 against lone defender 1, who is on
    # lead after 3 tricks each. The defender's AH KH win their tricks (the declarer
    # must follow with 7H 8H); its clubs are ruffed by the declarer's AD KD (void in
    # clubs, the declarer must trump, R6.2). Whatever the order, each side takes two
    # of the last four tricks: the declarer ends with 5 and fails (6 needed, R6.3).
    pos = Position.from_text(
        hands=["", "AH KH 7C 8C", "7H 8H AD KD"],
        trump="diamonds",
        declarer=2,
        leader=1,
        tricks=(0, 3, 3),
    )
    assert pos.active == (1, 2)
    assert values(pos) == {"AH": 5, "KH": 5, "7C": 5, "8C": 5}
    assert SOLVER.makes(pos) is False
    assert SOLVER.makes(pos, 5) is True
    # max^n with the real scores: the declarer fails (diamonds, ×3: −30), the
    # lone defender takes 5 → +10·(5−4)·3 = +30 (R7.3), the passer 0 (R7.4).
    m = SOLVER.maxn(pos)
    assert m.tricks == (0, 5, 5)
    assert m.scores == (0, 30, -30) == reference.maxn_scores(pos)


# --- obligatory trumping (R6.2) ---------------------------------------------------------------
def test_obligatory_trump_over_partners_winner() -> None:
    # Spades trump. Defender 1 led AD, a winner. Defender 2 has no diamond but holds 7S,
    # so it must trump its partner's winning ace (R6.2): 7S is its only legal card.
    # Defender 2 then wins the trick and must lead its 8C into the declarer's AC:
    # the declarer takes 1. (Were a discard of 8C allowed, defender 1 would keep the
    # lead and lead 7C for defender 2 to ruff: 0.)
    pos = pos_(["AC KC", "7C", "7S 8C"], "spades", leader=1, trick="AD")
    assert [str(Card(c)) for c in pos.legal_cards()] == ["7S"]
    assert values(pos) == {"7S": 1}


def test_obligatory_trump_by_the_declarer() -> None:
    # Hearts trump. Defender 1 led AS and defender 2 followed... with a diamond (it has
    # no spade and no trump). The declarer has no spade but holds 7H and KC: it must
    # trump with 7H (R6.2), which wins; it then leads KC and loses to AC: 1 trick.
    pos = pos_(["7H KC", "AC", "9D"], "hearts", leader=1, trick="AS 8D")
    assert pos.to_move == 0
    assert [str(Card(c)) for c in pos.legal_cards()] == ["7H"]
    assert values(pos) == {"7H": 1}


# --- best spades ---------------------------------------------------------------------------------
def test_best_spades_is_played_with_spades_as_trump() -> None:
    # The declarer holds 7S and AD; the defenders have no spade. With spades as trump
    # (best spades and spades, R4.2) the 7S is a trump nobody can beat (a defender void
    # in spades and without trump discards), and AD wins too: 2 tricks. With hearts as
    # trump, a defender void in spades must trump the 7S with a heart (R6.2): 1 trick.
    hands = ["7S AD", "8H KD", "9H QD"]
    assert values(pos_(hands, "best-spades")) == values(pos_(hands, "spades")) == {"7S": 2, "AD": 2}
    assert values(pos_(hands, "hearts")) == {"7S": 1, "AD": 1}
    assert pos_(hands, "best-spades").trump == 0


def test_best_spades_worked_example_of_r7_8() -> None:
    # Best spades, tricks 6/3/1 → declarer +10, defenders +40 and −36; the same split
    # in ordinary spades → +10, +10, −9. Tricks 5/2/1 so far; the declarer's AS wins the
    # ninth trick (KS and QS follow) and defender 1's 8H the tenth. Leading 7H first
    # instead lets defender 2 (void in hearts) ruff with QS, and the declarer's AS then
    # ruffs the 7D: 6/2/2, everyone's score but the declarer's is 0. The declarer
    # makes either way and takes 6 either way: the lower card, AS, is its choice.
    hands = ["AS 7H", "KS 8H", "QS 7D"]
    for contract, expected in (("best-spades", (10, 40, -36)), ("spades", (10, 10, -9))):
        pos = pos_(hands, contract, tricks=(5, 2, 1))
        m = SOLVER.maxn(pos)
        assert m.tricks == (6, 3, 1)
        assert m.scores == expected == reference.maxn_scores(pos)
        assert m.card_scores == {Card.parse("AS"): expected, Card.parse("7H"): (10, 0, 0)}


# --- invariants -------------------------------------------------------------------------------
def _random_pos(seed: int, cards: int, three_hand: bool, contract: Contract, trick_len: int) -> Position:
    return random_position(
        random.Random(seed), cards=cards, three_hand=three_hand, contract=contract, trick_len=trick_len
    )


shapes = {
    "seed": st.integers(0, 2**32 - 1),
    "cards": st.integers(1, 6),
    "three_hand": st.booleans(),
    "contract": st.sampled_from(list(Contract)),
    "trick_len": st.integers(0, 2),
}
fast = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _card_values(solver: Solver, pos: Position) -> dict[int, int]:
    return {c.index: v for c, v in solver.solve(pos).card_values.items()}


@fast
@given(perm_seed=st.integers(0, 10**6), **shapes)
def test_permuting_non_trump_suits_keeps_values(
    perm_seed: int, seed: int, cards: int, three_hand: bool, contract: Contract, trick_len: int
) -> None:
    pos = _random_pos(seed, cards, three_hand, contract, trick_len)
    others = [s for s in range(4) if s != pos.trump]
    shuffled = random.Random(perm_seed).sample(others, 3)
    perm = {pos.trump: pos.trump, **dict(zip(others, shuffled, strict=True))}
    card_map = suit_permutation(perm)
    moved = relabel(pos, card_map)
    before, after = SOLVER.solve(pos), SOLVER.solve(moved)
    assert after.value == before.value
    assert _card_values(SOLVER, moved) == {card_map[c]: v for c, v in _card_values(SOLVER, pos).items()}
    for need in (5, 6, 7):
        assert SOLVER.makes(moved, need) == SOLVER.makes(pos, need)


@fast
@given(map_seed=st.integers(0, 10**6), **shapes)
def test_rank_order_preserving_relabel_keeps_values(
    map_seed: int, seed: int, cards: int, three_hand: bool, contract: Contract, trick_len: int
) -> None:
    # Only the order of the cards in play within each suit matters: moving them to
    # other ranks in the same order (closing or opening gaps left by played cards)
    # changes nothing, max^n included (its last tie-break, the lowest card, sees the
    # same order).
    pos = _random_pos(seed, cards, three_hand, contract, trick_len)
    card_map = rank_preserving_map(pos, random.Random(map_seed))
    moved = relabel(pos, card_map)
    assert SOLVER.solve(moved).value == SOLVER.solve(pos).value
    assert _card_values(SOLVER, moved) == {card_map[c]: v for c, v in _card_values(SOLVER, pos).items()}
    if sum(pos.tricks) + pos.cards_left == 10:
        for rules in (Rules(), Rules(lone_defender="flat")):
            a, b = SOLVER.maxn(pos, rules), SOLVER.maxn(moved, rules)
            assert (b.scores, b.tricks) == (a.scores, a.tricks)
            assert {card_map[c.index]: v for c, v in a.card_scores.items()} == {
                c.index: v for c, v in b.card_scores.items()
            }


@fast
@given(**shapes)
def test_touching_cards_of_one_hand_are_worth_the_same(
    seed: int, cards: int, three_hand: bool, contract: Contract, trick_len: int
) -> None:
    # Two legal cards of the player to move with no other card in play between them
    # (in any hand or in the trick) are interchangeable.
    pos = _random_pos(seed, cards, three_hand, contract, trick_len)
    vals = _card_values(SOLVER, pos)
    live = in_play(pos)
    legal = sorted(vals)
    for a, b in itertools.pairwise(legal):
        if a >> 3 == b >> 3 and not any(live >> c & 1 for c in range(a + 1, b)):
            assert vals[a] == vals[b], (repr(pos), a, b)


@fast
@given(**shapes)
def test_touching_cards_swapped_between_hand_and_gap(
    seed: int, cards: int, three_hand: bool, contract: Contract, trick_len: int
) -> None:
    # Swapping a card in play for an out-of-play card of the same suit next to it (no
    # card in play between them) is a rank-preserving relabel: same value.
    pos = _random_pos(seed, cards, three_hand, contract, trick_len)
    live = in_play(pos)
    rng = random.Random(seed ^ 0x5EED)
    candidates = [
        (c, d)
        for c in cards_of(live)
        for d in (c - 1, c + 1)
        if d >> 3 == c >> 3 and 0 <= d < 32 and not live >> d & 1
    ]
    if not candidates:
        return
    c, d = rng.choice(candidates)
    card_map = {x: x for x in cards_of(live)}
    card_map[c] = d
    moved = relabel(pos, card_map)
    assert SOLVER.tricks(moved) == SOLVER.tricks(pos)


WARM_SOLVERS = [Solver(memory_mb=0.05), Solver(memory_mb=256)]
SMALLEST_MAXN = Solver(memory_mb=MAXN_MIN_MEMORY_MB)  # warm, for max^n


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**shapes)
def test_same_value_from_any_solver(
    seed: int, cards: int, three_hand: bool, contract: Contract, trick_len: int
) -> None:
    pos = _random_pos(seed, cards, three_hand, contract, trick_len)
    solvers = [Solver(memory_mb=0.05), Solver(memory_mb=64), Solver(memory_mb=0.01), *WARM_SOLVERS, SOLVER]
    answers = set()
    for solver in solvers:
        s = solver.solve(pos)
        answers.add(
            (
                s.value,
                tuple(sorted((c.index, v) for c, v in s.card_values.items())),
                solver.tricks(pos),
                tuple(solver.makes(pos, n) for n in range(11)),
            )
        )
    assert len(answers) == 1
    if sum(pos.tricks) + pos.cards_left == 10:
        # max^n needs MAXN_MIN_MEMORY_MB: the tiny solvers are replaced by the smallest it takes
        big_enough = [s for s in solvers if s.memory_bytes >= MAXN_MIN_MEMORY_MB * 2**20]
        maxn = {
            (m.scores, m.tricks, tuple(m.card_scores.items()))
            for m in (
                solver.maxn(pos, Rules(lone_defender="flat"))
                for solver in (*big_enough, Solver(memory_mb=MAXN_MIN_MEMORY_MB), SMALLEST_MAXN)
            )
        }
        assert len(maxn) == 1


def test_default_memory_and_bounds() -> None:
    assert Solver().memory_bytes == 32 * 1024 * 1024
    for bad in (0, 0.001, 5000, -1):
        with pytest.raises(ValueError):
            Solver(memory_mb=bad)


def test_shared_solver_across_threads() -> None:
    # A solver may be shared by threads (calls run one at a time): same answers.
    assert default_solver() is default_solver()
    rng = random.Random("threads")
    positions = [random_position(rng, cards=rng.randint(3, 7)) for _ in range(40)]
    alone = [Solver(memory_mb=1).solve(p).card_values for p in positions]
    shared = Solver(memory_mb=1)
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda p: shared.solve(p).card_values, positions))
    assert together == alone
