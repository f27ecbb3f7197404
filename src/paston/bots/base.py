"""The player protocol, and making a named computer player (see :mod:`paston.bots.registry`)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from paston.actions import Action
from paston.bots.registry import (
    PLAYER_NAMES,
    PLAYERS,
    PLAYERS_BY_NAME,
    PlayerInfo,
    parse_player_name,
    player_choices,
)
from paston.errors import ParseError
from paston.views import DealView

__all__ = [
    "PLAYERS",
    "PLAYERS_BY_NAME",
    "PLAYER_NAMES",
    "Player",
    "PlayerInfo",
    "make_player",
    "parse_player_name",
    "player_choices",
]


@runtime_checkable
class Player(Protocol):
    """Anything that picks an action from a seat's view."""

    name: str

    def choose(self, view: DealView) -> Action:
        """Return one of ``view.legal_actions``."""
        ...


def make_player(name: str, *, seed: int | None = None, time_budget: float | None = None) -> Player:
    """A computer player by name (``random``, ``heuristic``, ``pimc``, ``pimc:N``, ``infer``, ``infer:N``,
    ``amu``, ``amu:N``), seeded for reproducibility. ``time_budget`` (seconds) lets ``pimc`` stop sampling
    early (decision B4), as does ``infer``; the other players are fast and ignore it."""
    key, level = parse_player_name(name)
    if key == "pimc":
        from paston.bots.pimc import PimcPlayer

        return PimcPlayer(
            seed=seed, level=level or PLAYERS_BY_NAME["pimc"].default_level or 3, time_budget=time_budget
        )
    if key == "infer":
        from paston.bots.inference import InferPlayer

        return InferPlayer(
            seed=seed, level=level or PLAYERS_BY_NAME["infer"].default_level or 3, time_budget=time_budget
        )
    if key == "amu":
        from paston.bots.alphamu import AlphaMuPlayer

        return AlphaMuPlayer(
            seed=seed, level=level or PLAYERS_BY_NAME["amu"].default_level or 3, time_budget=time_budget
        )
    if key == "random":
        from paston.bots.random_player import RandomPlayer

        return RandomPlayer(seed=seed)
    if key == "heuristic":
        from paston.bots.heuristic import HeuristicPlayer

        return HeuristicPlayer(seed=seed)
    raise ParseError("parse-player", f"unknown player {name!r}")
