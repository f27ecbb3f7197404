"""The one error the server answers requests with: a stable code, a message, a rule."""

from __future__ import annotations

from paston.errors import PastonError


class TableError(PastonError, ValueError):
    """A request the server refuses, with a stable code (and a rule for game actions).

    >>> err = TableError("game-over", "the game is over", "R8.3")
    >>> err.code, err.rule, str(err)
    ('game-over', 'R8.3', 'the game is over')
    """

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
