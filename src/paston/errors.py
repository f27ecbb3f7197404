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

import json


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


def json_kind(value: object) -> str:
    """What a JSON value is, in words, for messages about records and requests.

    >>> json_kind(None), json_kind([1]), json_kind({}), json_kind("x"), json_kind(2.5), json_kind(True)
    ('null', 'an array', 'an object', 'a string', 'a number', 'true')
    """
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__


def json_text(value: object, limit: int = 60) -> str:
    """A value as it is written in JSON (``null``, ``"abc"``, ``[1, 2]``), cut to ``limit``
    characters, for messages about records and requests.

    >>> json_text(None), json_text("0"), json_text([1, 2]), json_text("x" * 100)[-5:]
    ('null', '"0"', '[1, 2]', 'xxxx…')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
