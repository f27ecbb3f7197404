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

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final, NamedTuple

from paston.contracts import Contract
from paston.rules import Rules

_DEFAULT = Rules()

#: R6.3: the tricks the declarer needs.
DECLARER_NEEDS = 6

_TWO_DEFENDERS = (-10, -9, 0)
_LONE_GRADED = (-10, -9, -8, -7, 0)
_LONE_FLAT = (-10, -9, -9, -9, 0)

Scores = tuple[int, int, int]


#: The words of each kind of R7 line, in English, by key; a deal's numbers fill them in.
#: The browser shows them in its languages under the same keys (``static/i18n-score.js``).
LINE_WORDS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "declarer-made": "declarer, {tricks} of the {needed} tricks needed: made, +10 × {m}",
        "declarer-failed": "declarer, {tricks} of the {needed} tricks needed: failed, -10 × {m}",
        "best-made": "declarer, {tricks} of the {needed} tricks needed: made best spades scores only +10",
        "best-failed": "declarer, {tricks} of the {needed} tricks needed: failed best spades, -10 × {m}",
        "uncontested-declarer": "uncontested: the declarer scores a made contract, +10 × {m}",
        "uncontested-best": "uncontested: the declarer scores a made contract, +10 (best spades)",
        "uncontested-opponent": "uncontested: an opponent scores 0",
        "defender": "defender (both whisted), {tricks} of the {needed} tricks needed: {base} × {m}",
        "lone-defender": "lone defender, {tricks} of the {needed} tricks needed: {base} × {m}",
        "lone-defender-flat": (
            "lone defender, {tricks} of the {needed} tricks needed (flat table): {base} × {m}"
        ),
        "passer": "passed and did not play: 0",
        "surrendered": "surrendered: -10, no multiplier",
        "surrender-opponent": "the declarer surrendered: {bonus} to each opponent, no multiplier",
    }
)


class ScoreLine(NamedTuple):
    """One seat's score of a deal with the line of R7 that gives it: the rule, and the
    key of its words in :data:`LINE_WORDS` with this deal's numbers (``values``).

    >>> line = declarer_line(Contract.CLUBS, 5)
    >>> line.score, line.rule, line.words, line.params
    (-20, 'R7.1', 'declarer-failed', {'tricks': 5, 'needed': 6, 'm': 2})
    >>> line.text
    'declarer, 5 of the 6 tricks needed: failed, -10 × 2'
    """

    score: int
    rule: str
    words: str
    values: tuple[tuple[str, int | str], ...] = ()

    @property
    def params(self) -> dict[str, int | str]:
        """The numbers that fill in the words."""
        return dict(self.values)

    @property
    def text(self) -> str:
        """The line in English words."""
        return LINE_WORDS[self.words].format(**self.params)


Lines = tuple[ScoreLine, ScoreLine, ScoreLine]


def whist_quota(*, lone: bool) -> int:
    """R5.2: the tricks a defender needs: 2 each when both whist, 4 for a lone defender.

    >>> whist_quota(lone=False), whist_quota(lone=True)
    (2, 4)
    """
    return 4 if lone else 2


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
    table = (_LONE_FLAT if rules.lone_defender == "flat" else _LONE_GRADED) if lone else _TWO_DEFENDERS
    quota = whist_quota(lone=lone)
    base = table[tricks] if tricks <= quota else 10 * (tricks - quota)
    return base * contract.multiplier


def declarer_line(contract: Contract, tricks: int | None) -> ScoreLine:
    """R7.1 and R7.5 for a played contract; ``tricks=None``: uncontested (R7.6)."""
    m = contract.multiplier
    best = contract is Contract.BEST_SPADES
    if tricks is None:
        words = "uncontested-best" if best else "uncontested-declarer"
        return ScoreLine(declarer_score(contract, True), "R7.6", words, () if best else (("m", m),))
    made = tricks >= DECLARER_NEEDS
    values: tuple[tuple[str, int | str], ...] = (("tricks", tricks), ("needed", DECLARER_NEEDS), ("m", m))
    if best:
        words = "best-made" if made else "best-failed"
        return ScoreLine(declarer_score(contract, made), "R7.5", words, values[:2] if made else values)
    words = "declarer-made" if made else "declarer-failed"
    return ScoreLine(declarer_score(contract, made), "R7.1", words, values)


def defender_line(contract: Contract, tricks: int, *, lone: bool, rules: Rules = _DEFAULT) -> ScoreLine:
    """R7.2 (two defenders) or R7.3 (a lone defender), times m.

    >>> defender_line(Contract.HEARTS, 3, lone=True).text
    'lone defender, 3 of the 4 tricks needed: -7 × 4'
    """
    score = defender_score(contract, tricks, lone=lone, rules=rules)
    m = contract.multiplier
    words = (
        ("lone-defender-flat" if rules.lone_defender == "flat" else "lone-defender") if lone else "defender"
    )
    rule = "R7.3" if lone else "R7.2"
    base = f"{score // m:+d}" if score else "0"
    values = (("tricks", tricks), ("needed", whist_quota(lone=lone)), ("base", base), ("m", m))
    return ScoreLine(score, rule, words, values)


_PASSER = ScoreLine(0, "R7.4", "passer")


def played_lines(
    contract: Contract,
    *,
    declarer: int,
    defenders: Sequence[int],
    tricks: Sequence[int],
    rules: Rules = _DEFAULT,
) -> Lines:
    """Each seat's line of R7.1–R7.5 for a played deal (see :func:`played_scores`)."""
    lines = [
        declarer_line(contract, tricks[s])
        if s == declarer
        else defender_line(contract, tricks[s], lone=len(defenders) == 1, rules=rules)
        if s in defenders
        else _PASSER
        for s in range(3)
    ]
    return lines[0], lines[1], lines[2]


def uncontested_lines(contract: Contract, *, declarer: int) -> Lines:
    """R7.6: each seat's line when both opponents passed."""
    other = ScoreLine(0, "R7.6", "uncontested-opponent")
    lines = [declarer_line(contract, None) if s == declarer else other for s in range(3)]
    return lines[0], lines[1], lines[2]


def surrender_lines(*, declarer: int, rules: Rules = _DEFAULT) -> Lines:
    """R7.7: each seat's line after a surrender."""
    scores = surrender_scores(declarer=declarer, rules=rules)
    lines = [
        ScoreLine(scores[s], "R7.7", "surrendered")
        if s == declarer
        else ScoreLine(scores[s], "R7.7", "surrender-opponent", (("bonus", f"{scores[s]:+d}"),))
        for s in range(3)
    ]
    return lines[0], lines[1], lines[2]


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
    scores[declarer] = declarer_score(contract, tricks[declarer] >= DECLARER_NEEDS)
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
