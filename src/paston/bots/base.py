"""The player protocol and the registry of named computer players."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from paston.actions import Action
from paston.errors import ParseError
from paston.views import DealView


@runtime_checkable
class Player(Protocol):
    """Anything that picks an action from a seat's view."""

    name: str

    def choose(self, view: DealView) -> Action:
        """Return one of ``view.legal_actions``."""
        ...


PLAYER_NAMES: tuple[str, ...] = ("random",)


def make_player(name: str, *, seed: int | None = None) -> Player:
    """A computer player by name (``random``), seeded for reproducibility."""
    key = name.strip().lower()
    if key == "random":
        from paston.bots.random_player import RandomPlayer

        return RandomPlayer(seed=seed)
    raise ParseError("parse-player", f"unknown player {name!r}; known: {', '.join(PLAYER_NAMES)}")
