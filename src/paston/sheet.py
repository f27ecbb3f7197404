"""Scores for games played with real cards: a one-deal calculator and a score sheet.

>>> from paston.contracts import Contract
>>> score_deal("played", declarer=0, contract=Contract.HEARTS, defenders=(1,), tricks=(7, 3, 0)).scores
(40, -28, 0)
>>> sheet = ScoreSheet(players=("Ana", "Bo", "Cy"))
>>> _ = sheet.add(score_deal("surrender", declarer=1))
>>> sheet.totals, sheet.winners
((2, -10, 2), ())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from paston.contracts import Contract
from paston.errors import IllegalActionError, ParseError, RulesError
from paston.result import DealResult, Outcome
from paston.rules import Rules
from paston.scoring import apply_totals, reset_seats, winners

SHEET_FORMAT = "paston-sheet/1"
OUTCOMES = tuple(str(o) for o in Outcome)


def score_deal(
    outcome: Outcome | str,
    *,
    declarer: int,
    contract: Contract | None = None,
    defenders: Sequence[int] = (),
    tricks: Sequence[int] | None = None,
    rules: Rules | None = None,
) -> DealResult:
    """Score one deal from what happened at the table (R7).

    Raises :class:`~paston.errors.IllegalActionError` (naming the rule) when the
    description is impossible.
    """
    rules = rules if rules is not None else Rules()
    if declarer not in (0, 1, 2):
        raise IllegalActionError("R0.1", "bad-seat", f"the declarer must be seat 0, 1 or 2, not {declarer!r}")
    if outcome not in OUTCOMES:
        raise ParseError("parse-outcome", f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
    if outcome == Outcome.SURRENDER:
        if contract is not None or defenders or tricks:
            raise IllegalActionError(
                "R4.3", "surrender-no-play", "a surrender has no contract, defenders or tricks"
            )
        return DealResult.surrender(declarer=declarer, rules=rules)
    if contract is None:
        raise IllegalActionError("R4.2", "no-contract", f"an {outcome} deal needs the named contract")
    if outcome == Outcome.UNCONTESTED:
        if defenders or (tricks and any(tricks)):
            raise IllegalActionError(
                "R5.3", "uncontested-no-play", "an uncontested deal has no defenders or tricks"
            )
        return DealResult.uncontested(contract, declarer=declarer)
    defs = tuple(sorted(set(defenders)))
    if len(defs) != len(defenders) or not defs or any(d not in (0, 1, 2) or d == declarer for d in defs):
        raise IllegalActionError(
            "R5.2", "bad-defenders", "a played deal has one or two defenders, other seats than the declarer"
        )
    if (
        tricks is None
        or len(tricks) != 3
        or any(type(t) is not int or t < 0 for t in tricks)
        or sum(tricks) != 10
    ):
        raise IllegalActionError(
            "R6.3", "bad-tricks", f"tricks per seat must be three counts summing to 10, not {tricks}"
        )
    for seat in range(3):
        if seat != declarer and seat not in defs and tricks[seat]:
            raise IllegalActionError(
                "R5.2", "passer-took-tricks", f"seat {seat} passed, takes no part and cannot take tricks"
            )
    return DealResult.played(contract, declarer=declarer, defenders=defs, tricks=tricks, rules=rules)


@dataclass
class ScoreSheet:
    """A running score sheet of a game at a real table (R8)."""

    players: tuple[str, str, str]
    rules: Rules = field(default_factory=Rules)
    entries: list[DealResult] = field(default_factory=list)

    @property
    def totals_history(self) -> list[tuple[int, int, int]]:
        """Running totals after each deal (after the reset of R8.2)."""
        out = []
        totals: tuple[int, int, int] = (0, 0, 0)
        for e in self.entries:
            totals = apply_totals(totals, e.scores, rules=self.rules)
            out.append(totals)
        return out

    @property
    def totals(self) -> tuple[int, int, int]:
        """Current totals."""
        history = self.totals_history
        return history[-1] if history else (0, 0, 0)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won (R8.3); empty while the game goes on."""
        return winners(self.totals, rules=self.rules)

    def resets(self, index: int) -> tuple[int, ...]:
        """Seats whose total was reset to 0 by deal ``index`` (R8.2)."""
        before = self.totals_history[index - 1] if index else (0, 0, 0)
        return reset_seats(before, self.entries[index].scores, rules=self.rules)

    def add(self, result: DealResult) -> tuple[int, int, int]:
        """Add a scored deal; refused once the game is over. Returns the new totals."""
        if self.winners:
            raise IllegalActionError("R8.3", "game-over", "the game is over; start a new sheet")
        self.entries.append(result)
        return self.totals

    def undo(self) -> DealResult:
        """Remove the last deal."""
        if not self.entries:
            raise IllegalActionError("R8.1", "empty-sheet", "the sheet has no deal to undo")
        return self.entries.pop()

    def to_dict(self) -> dict[str, Any]:
        """The saved form (JSON object)."""
        return {
            "format": SHEET_FORMAT,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "deals": [e.to_record() for e in self.entries],
            "totals": list(self.totals),
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: object) -> ScoreSheet:
        """Load a saved sheet, re-scoring every deal (a tampered score is rejected)."""
        if not isinstance(data, dict) or data.get("format") != SHEET_FORMAT:
            raise ParseError("sheet-format", f"not a score sheet (expected format {SHEET_FORMAT!r})")
        players = data.get("players")
        if not isinstance(players, list) or len(players) != 3 or not all(isinstance(p, str) for p in players):
            raise ParseError("sheet-players", "a sheet has three player names")
        try:
            rules = Rules.from_dict(data.get("rules", {}))
        except RulesError as err:
            raise ParseError("sheet-rules", str(err)) from None
        sheet = cls(players=(players[0], players[1], players[2]), rules=rules)
        deals = data.get("deals")
        if not isinstance(deals, list):
            raise ParseError("sheet-deals", "a sheet's deals must be a list")
        for i, d in enumerate(deals):
            try:
                if not isinstance(d, dict):
                    raise ParseError("sheet-deal", "a deal must be an object")
                contract = Contract.parse(d["contract"]) if d.get("contract") is not None else None
                result = score_deal(
                    str(d.get("outcome")),
                    declarer=d.get("declarer"),  # type: ignore[arg-type]
                    contract=contract,
                    defenders=d.get("defenders") or (),
                    tricks=d.get("tricks") if d.get("outcome") == Outcome.PLAYED else None,
                    rules=rules,
                )
            except (ParseError, IllegalActionError, KeyError, TypeError) as err:
                raise ParseError("sheet-deal", f"deal {i + 1} of the sheet is invalid: {err}") from None
            if list(result.scores) != d.get("scores"):
                raise ParseError(
                    "sheet-deal", f"deal {i + 1} of the sheet has wrong scores {d.get('scores')}"
                )
            sheet.add(result)
        return sheet
