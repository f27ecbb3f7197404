"""Scores of one deal (R7) and running totals (R8).

>>> from paston.contracts import Contract
>>> played_scores(Contract.BEST_SPADES, declarer=0, defenders=(1, 2), tricks=(6, 3, 1))
(10, 40, -36)
>>> played_scores(Contract.SPADES, declarer=0, defenders=(1, 2), tricks=(6, 3, 1))
(10, 10, -9)
>>> played_scores(Contract.HEARTS, declarer=0, defenders=(1,), tricks=(7, 3, 0))
(40, -28, 0)
>>> surrender_scores(declarer=2), uncontested_scores(Contract.CLUBS, declarer=1)
((2, 2, -10), (0, 20, 0))
>>> apply_totals((100, -111, 0), (20, -10, 0))
(120, 0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

from paston.contracts import Contract
from paston.rules import Rules

_DEFAULT = Rules()

_TWO_DEFENDERS = (-10, -9, 0)
_LONE_GRADED = (-10, -9, -8, -7, 0)
_LONE_FLAT = (-10, -9, -9, -9, 0)

Scores = tuple[int, int, int]


def declarer_score(contract: Contract, made: bool) -> int:
    """R7.1 and R7.5: ±10·m, except that made best spades scores only +10."""
    if made:
        return 10 if contract is Contract.BEST_SPADES else 10 * contract.multiplier
    return -10 * contract.multiplier


def defender_score(contract: Contract, tricks: int, *, lone: bool, rules: Rules = _DEFAULT) -> int:
    """R7.2 (two defenders) and R7.3 (a lone defender), times m.

    >>> [defender_score(Contract.SPADES, t, lone=True) for t in range(6)]
    [-10, -9, -8, -7, 0, 10]
    """
    if not 0 <= tricks <= 10:
        raise ValueError(f"a defender takes 0 to 10 tricks, not {tricks}")
    table: tuple[int, ...]
    if lone:
        table = _LONE_FLAT if rules.lone_defender == "flat" else _LONE_GRADED
        quota = 4
    else:
        table = _TWO_DEFENDERS
        quota = 2
    base = table[tricks] if tricks <= quota else 10 * (tricks - quota)
    return base * contract.multiplier


def played_scores(
    contract: Contract,
    *,
    declarer: int,
    defenders: Sequence[int],
    tricks: Sequence[int],
    rules: Rules = _DEFAULT,
) -> Scores:
    """Scores of a played deal: R7.1–R7.5. ``tricks`` is per seat (10 in all)."""
    if sum(tricks) != 10 or len(tricks) != 3 or min(tricks) < 0:
        raise ValueError(f"tricks per seat must be three counts that sum to 10, not {list(tricks)}")
    if not defenders or len(defenders) > 2 or declarer in defenders:
        raise ValueError("a played deal has one or two defenders other than the declarer")
    scores = [0, 0, 0]
    scores[declarer] = declarer_score(contract, tricks[declarer] >= 6)
    lone = len(defenders) == 1
    for seat in defenders:
        scores[seat] = defender_score(contract, tricks[seat], lone=lone, rules=rules)
    for seat in range(3):
        if seat != declarer and seat not in defenders and tricks[seat]:
            raise ValueError(f"seat {seat} passed and took no part, so took no tricks")
    return scores[0], scores[1], scores[2]


def uncontested_scores(contract: Contract, *, declarer: int) -> Scores:
    """R7.6: the declarer scores what making the contract would; the others 0."""
    scores = [0, 0, 0]
    scores[declarer] = declarer_score(contract, True)
    return scores[0], scores[1], scores[2]


def surrender_scores(*, declarer: int, rules: Rules = _DEFAULT) -> Scores:
    """R7.7: declarer −10, each opponent +bonus, no multiplier."""
    scores = [rules.surrender_bonus] * 3
    scores[declarer] = -10
    return scores[0], scores[1], scores[2]


def apply_totals(totals: Sequence[int], scores: Sequence[int], *, rules: Rules = _DEFAULT) -> Scores:
    """R8.1–R8.2: add the deal's scores; a total of exactly −target becomes 0."""
    if len(totals) != 3 or len(scores) != 3:
        raise ValueError("totals and scores are three numbers each, one per seat")
    reset = reset_seats(totals, scores, rules=rules)
    out = [0 if seat in reset else totals[seat] + scores[seat] for seat in range(3)]
    return out[0], out[1], out[2]


def reset_seats(before: Sequence[int], scores: Sequence[int], *, rules: Rules = _DEFAULT) -> tuple[int, ...]:
    """R8.2: the seats whose total the deal's scores bring to exactly −target (reset to 0).

    >>> reset_seats((-111, 5, 0), (-10, 0, 0))
    (0,)
    """
    return tuple(s for s in range(3) if before[s] + scores[s] == -rules.target)


def winners(totals: Sequence[int], *, rules: Rules = _DEFAULT) -> tuple[int, ...]:
    """R8.3: seats with the highest total among those at or above the target.

    >>> winners((130, 125, 130)), winners((120, 0, 0))
    ((0, 2), ())
    """
    reached = [t for t in totals if t >= rules.target]
    if not reached:
        return ()
    best = max(reached)
    return tuple(s for s, t in enumerate(totals) if t == best)
