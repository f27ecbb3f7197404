"""Typed errors of the Paston engine.

Syntax problems (text that cannot be parsed) and rule problems (an action the
rules forbid) are kept apart, and every error carries a stable ``code`` that
user interfaces can translate.

>>> from paston.cards import Card
>>> try:
...     Card.parse("ZZ")
... except ParseError as err:
...     print(err.code, "|", err)
parse-card | cannot parse card 'ZZ': expected a rank (7 8 9 T J Q K A, or 10) and a suit (S C D H or ♠ ♣ ♦ ♥)
"""

from __future__ import annotations


class PastonError(Exception):
    """Base class of every error the package raises on purpose."""

    code: str = "error"


class ParseError(PastonError, ValueError):
    """Input text (a card, a contract, an action, a rule value) cannot be parsed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class RulesError(PastonError, ValueError):
    """A rule set has an unknown switch or a value out of range."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = "rules"


class IllegalActionError(PastonError, ValueError):
    """An action that the rules forbid in the current state.

    ``rule`` is the number of the rule in RULES.md (``"R6.2"``), ``code`` a stable
    identifier (``"must-follow-suit"``), ``seat`` the seat that tried to act (or
    ``None``) and ``reason`` the human explanation. ``str(error)`` is
    ``"R6.2: seat 2 must follow hearts (holds 9H)"``.
    """

    def __init__(self, rule: str, code: str, reason: str, seat: int | None = None) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.code = code
        self.reason = reason
        self.seat = seat


class RecordError(PastonError, ValueError):
    """A ``paston/1`` record that is malformed or breaks a rule.

    Carries where the problem is: ``game`` (index in a file, or ``None``),
    ``deal`` (index in ``deals``), ``action`` (index in ``actions``) and ``rule``.
    """

    def __init__(
        self,
        message: str,
        *,
        game: int | None = None,
        deal: int | None = None,
        action: int | None = None,
        rule: str | None = None,
        code: str = "record",
    ) -> None:
        self.message = message
        self.game = game
        self.deal = deal
        self.action = action
        self.rule = rule
        self.code = code
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.game is not None:
            where.append(f"game {self.game}")
        if self.deal is not None:
            where.append(f"deal {self.deal}")
        if self.action is not None:
            where.append(f"action {self.action}")
        prefix = ", ".join(where)
        rule = f"{self.rule}: " if self.rule and not self.message.startswith(self.rule) else ""
        return f"{prefix}: {rule}{self.message}" if prefix else f"{rule}{self.message}"

    def at_game(self, game: int) -> RecordError:
        """The same error, located in game ``game`` of a file."""
        return RecordError(
            self.message,
            game=game,
            deal=self.deal,
            action=self.action,
            rule=self.rule,
            code=self.code,
        )
