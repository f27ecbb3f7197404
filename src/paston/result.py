"""How a deal ends: the kinds of outcome and redeal, and the scored result (R1, R4.3, R5.3, R7).

Each kind carries its rule and a sentence for people, so no other module spells them out.

>>> from paston.contracts import Contract
>>> Outcome.SURRENDER.rule, Redeal.SPADE_SEQUENCE.rule, str(Redeal.NO_JACK_NO_SEVEN)
('R4.3', 'R1.4', 'no-jack-no-seven')
>>> DealResult.played(Contract.HEARTS, declarer=0, defenders=(1,), tricks=(7, 3, 0)).scores
(40, -28, 0)
>>> DealResult.surrender(declarer=2).scores, DealResult.uncontested(Contract.CLUBS, declarer=1).scores
((2, 2, -10), (0, 20, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from paston.contracts import Contract
from paston.rules import Rules
from paston.scoring import (
    DECLARER_NEEDS,
    Lines,
    played_lines,
    played_scores,
    surrender_lines,
    surrender_scores,
    uncontested_lines,
    uncontested_scores,
)

_DEFAULT = Rules()


class Outcome(StrEnum):
    """How a scored deal ended; the value is the record's ``outcome`` word."""

    PLAYED = "played"
    UNCONTESTED = "uncontested"
    SURRENDER = "surrender"

    @property
    def rule(self) -> str:
        """The rule that defines this outcome."""
        return _OUTCOME_RULES[self]

    @property
    def text(self) -> str:
        """The outcome in words."""
        return _OUTCOME_TEXT[self]


_OUTCOME_RULES = {Outcome.PLAYED: "R6", Outcome.UNCONTESTED: "R5.3", Outcome.SURRENDER: "R4.3"}
_OUTCOME_TEXT = {
    Outcome.PLAYED: "the contract was played out",
    Outcome.UNCONTESTED: "both opponents passed: the declarer wins without play",
    Outcome.SURRENDER: "the declarer surrendered instead of naming trump",
}


class Redeal(StrEnum):
    """Why a deal is void and dealt again; the value is the record's ``redeal`` word."""

    SPADE_SEQUENCE = "spade-sequence"
    JACK_SEVEN_PRIKUP = "jack-seven-prikup"
    NO_JACK_NO_SEVEN = "no-jack-no-seven"

    @property
    def rule(self) -> str:
        """The rule that calls for this redeal."""
        return _REDEAL_RULES[self]

    @property
    def text(self) -> str:
        """The reason in words, with its rule."""
        return _REDEAL_TEXT[self]

    @property
    def at_deal_time(self) -> bool:
        """True when the deal is void as soon as it is dealt (before any bid)."""
        return self is not Redeal.NO_JACK_NO_SEVEN


_REDEAL_RULES = {
    Redeal.SPADE_SEQUENCE: "R1.4",
    Redeal.JACK_SEVEN_PRIKUP: "R1.5",
    Redeal.NO_JACK_NO_SEVEN: "R3.4",
}
_REDEAL_TEXT = {
    Redeal.SPADE_SEQUENCE: "redeal: a player holds 7♠–Q♠ without K♠ or A♠ (R1.4)",
    Redeal.JACK_SEVEN_PRIKUP: "redeal: J♠ and 7♠ both in the prikup in the first deal (R1.5)",
    Redeal.NO_JACK_NO_SEVEN: "redeal: all passed and J♠ and 7♠ are both in the prikup (R3.4)",
}


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of a finished deal (the ``result`` object of a record).

    Build it with :meth:`played`, :meth:`uncontested` or :meth:`surrender`, which score
    it by R7; the engine, the score sheet and the record reader all do.
    """

    declarer: int
    outcome: Outcome
    contract: Contract | None
    defenders: tuple[int, ...]
    tricks: tuple[int, int, int]
    scores: tuple[int, int, int]

    @classmethod
    def played(
        cls,
        contract: Contract,
        *,
        declarer: int,
        defenders: Sequence[int],
        tricks: Sequence[int],
        rules: Rules = _DEFAULT,
    ) -> DealResult:
        """A contract played out with one or two defenders (R7.1–R7.5)."""
        t = (tricks[0], tricks[1], tricks[2])
        defs = tuple(defenders)
        scores = played_scores(contract, declarer=declarer, defenders=defs, tricks=t, rules=rules)
        return cls(declarer, Outcome.PLAYED, contract, defs, t, scores)

    @classmethod
    def uncontested(cls, contract: Contract, *, declarer: int) -> DealResult:
        """Both opponents passed (R5.3, R7.6)."""
        return cls(
            declarer,
            Outcome.UNCONTESTED,
            contract,
            (),
            (0, 0, 0),
            uncontested_scores(contract, declarer=declarer),
        )

    @classmethod
    def surrender(cls, *, declarer: int, rules: Rules = _DEFAULT) -> DealResult:
        """The declarer surrendered (R4.3, R7.7)."""
        return cls(
            declarer, Outcome.SURRENDER, None, (), (0, 0, 0), surrender_scores(declarer=declarer, rules=rules)
        )

    @property
    def made(self) -> bool | None:
        """Whether the declarer made the contract (6 tricks or uncontested); ``None``
        after a surrender."""
        if self.outcome is Outcome.SURRENDER:
            return None
        return self.outcome is Outcome.UNCONTESTED or self.tricks[self.declarer] >= DECLARER_NEEDS

    def lines(self, rules: Rules = _DEFAULT) -> Lines:
        """Each seat's score with the line of R7 that gives it (``rules``: the variants
        the deal was scored under).

        >>> [line.rule for line in DealResult.surrender(declarer=0).lines()]
        ['R7.7', 'R7.7', 'R7.7']
        """
        if self.outcome is Outcome.SURRENDER:
            return surrender_lines(declarer=self.declarer, rules=rules)
        assert self.contract is not None
        if self.outcome is Outcome.UNCONTESTED:
            return uncontested_lines(self.contract, declarer=self.declarer)
        return played_lines(
            self.contract, declarer=self.declarer, defenders=self.defenders, tricks=self.tricks, rules=rules
        )

    def to_record(self) -> dict[str, Any]:
        """The record's ``result`` object."""
        return {
            "declarer": self.declarer,
            "outcome": str(self.outcome),
            "contract": None if self.contract is None else self.contract.name_in_record,
            "defenders": list(self.defenders),
            "tricks": list(self.tricks),
            "scores": list(self.scores),
        }
