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


PLAYER_NAMES: tuple[str, ...] = ("random", "heuristic", "pimc")
"""Named computer players; ``pimc`` takes a strength ``pimc:1`` … ``pimc:5`` (default 3)."""


def parse_player_name(name: str) -> tuple[str, int | None]:
    """``'pimc:4'`` → ``('pimc', 4)``; ``'random'`` → ``('random', None)``.

    >>> parse_player_name(" PIMC:2 ")
    ('pimc', 2)
    """
    key = name.strip().lower()
    base, colon, level_text = key.partition(":")
    if base not in PLAYER_NAMES:
        raise ParseError(
            "parse-player", f"unknown player {name!r}; known: random, heuristic, pimc, pimc:1 … pimc:5"
        )
    if not colon:
        return base, None
    if base != "pimc" or level_text not in ("1", "2", "3", "4", "5"):
        raise ParseError("parse-player", f"bad strength in {name!r}: use pimc:1 … pimc:5")
    return base, int(level_text)


def make_player(name: str, *, seed: int | None = None) -> Player:
    """A computer player by name (``random``, ``heuristic``, ``pimc``, ``pimc:N``),
    seeded for reproducibility."""
    key, level = parse_player_name(name)
    if key == "pimc":
        from paston.bots.pimc import DEFAULT_LEVEL, PimcPlayer

        return PimcPlayer(seed=seed, level=level or DEFAULT_LEVEL)
    if key == "random":
        from paston.bots.random_player import RandomPlayer

        return RandomPlayer(seed=seed)
    if key == "heuristic":
        from paston.bots.heuristic import HeuristicPlayer

        return HeuristicPlayer(seed=seed)
    raise ParseError("parse-player", f"unknown player {name!r}")
