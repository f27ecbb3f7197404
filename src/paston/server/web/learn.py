"""The scoring facts the Learn to play page shows (``GET /api/scores``): the ladder with
its multipliers (R3.1, R7) and the R7 scores table, every number computed by
:mod:`paston.scoring` so that the page copies none of them.

>>> facts = score_table()
>>> [c["word"] for c in facts["contracts"]][-1], facts["rows"][0]["scores"]
('paston grkha', [10, 20, 30, 40, 10])
>>> facts["surrender"], facts["reset"]["after"], facts["reset"]["below"]["after"]
({'declarer': -10, 'opponent': 2, 'rule': 'R7.7'}, 0, -131)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paston.contracts import LADDER, Contract
from paston.rules import Rules
from paston.scoring import (
    apply_totals,
    declarer_score,
    defender_score,
    played_scores,
    surrender_scores,
    uncontested_scores,
)

TWO_DEFENDER_TRICKS = range(0, 6)  # rows of R7.2 shown: 0 to 5 tricks
LONE_DEFENDER_TRICKS = range(0, 7)  # rows of R7.3 shown: 0 to 6 tricks
_SUITS = "SCDH"


def _row(key: str, rule: str, score: Callable[[Contract], int], **extra: Any) -> dict[str, Any]:
    return {"key": key, "rule": rule, **extra, "scores": [score(c) for c in LADDER]}


def _defender_rows(key: str, rule: str, counts: range, *, lone: bool, rules: Rules) -> list[dict[str, Any]]:
    def score(tricks: int) -> Callable[[Contract], int]:
        return lambda c: defender_score(c, tricks, lone=lone, rules=rules)

    return [_row(key, rule, score(t), tricks=t) for t in counts]


def _total_after(before: int, score: int, rules: Rules) -> int:
    """A seat's total after a deal's score (R8.1), reset at exactly −target (R8.2)."""
    return apply_totals((before, 0, 0), (score, 0, 0), rules=rules)[0]


def _example(contract: Contract, tricks: tuple[int, int, int], rules: Rules) -> dict[str, Any]:
    scores = played_scores(contract, declarer=0, defenders=(1, 2), tricks=tricks, rules=rules)
    return {"contract": contract.name_in_record, "tricks": list(tricks), "scores": list(scores)}


def quotas(rules: Rules | None = None) -> dict[str, int]:
    """The tricks each side needs (R6.3, R5.2), read off the scores: the fewest tricks
    with which the declarer scores a plus, and a defender no minus.

    >>> quotas()
    {'declarer': 6, 'two-defenders': 2, 'lone-defender': 4}
    """
    rules = rules or Rules()
    spades = Contract.SPADES
    return {
        "declarer": min(
            t
            for t in range(11)
            if played_scores(spades, declarer=0, defenders=(1,), tricks=(t, 10 - t, 0), rules=rules)[0] > 0
        ),
        "two-defenders": min(t for t in range(11) if defender_score(spades, t, lone=False, rules=rules) >= 0),
        "lone-defender": min(t for t in range(11) if defender_score(spades, t, lone=True, rules=rules) >= 0),
    }


def score_table(rules: Rules | None = None) -> dict[str, Any]:
    """The ladder and the R7 scores of one deal under ``rules`` (default: the default
    rules), one column per contract; the surrender, the passer, the worked example of
    R7.8 and the −target reset of R8.2 with the totals it is and is not applied to."""
    rules = rules or Rules()
    rows = [
        _row("declarer-made", "R7.1", lambda c: declarer_score(c, True)),
        _row("declarer-failed", "R7.1", lambda c: declarer_score(c, False)),
        *_defender_rows("two-defenders", "R7.2", TWO_DEFENDER_TRICKS, lone=False, rules=rules),
        *_defender_rows("lone-defender", "R7.3", LONE_DEFENDER_TRICKS, lone=True, rules=rules),
        _row("uncontested", "R7.6", lambda c: uncontested_scores(c, declarer=0)[0]),
    ]
    surrender = surrender_scores(declarer=0, rules=rules)
    # a declarer who makes 6 against a lone defender: the seat that passed scores 0 (R7.4)
    passer = played_scores(Contract.SPADES, declarer=0, defenders=(1,), tricks=(6, 4, 0), rules=rules)[2]
    near = -rules.target + 10
    return {
        "contracts": [
            {
                "contract": c.name_in_record,
                "word": c.word,
                "multiplier": c.multiplier,
                "trump": _SUITS[c.trump_suit],
            }
            for c in LADDER
        ],
        "rows": rows,
        "quotas": quotas(rules),
        "surrender": {"declarer": surrender[0], "opponent": surrender[1], "rule": "R7.7"},
        "passer": {"score": passer, "rule": "R7.4"},
        "example": {
            "rule": "R7.8",
            "deals": [_example(c, (6, 3, 1), rules) for c in (Contract.BEST_SPADES, Contract.SPADES)],
        },
        "target": rules.target,
        "reset": {
            "rule": "R8.2",
            "before": near,
            "score": -10,
            "after": _total_after(near, -10, rules),
            "below": {"before": near, "score": -20, "after": _total_after(near, -20, rules)},
        },
        "rules": rules.to_dict(),
    }
