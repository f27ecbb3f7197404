"""The registry of named computer players: names, levels and descriptions.

The one list of computer players; the command line, the server's schema and the browser
all read it.

>>> [p.name for p in PLAYERS], PLAYERS_BY_NAME["pimc"].levels
(['random', 'heuristic', 'amu', 'pimc', 'infer'], (1, 2, 3, 4, 5))
>>> player_choices()[:6]
('random', 'heuristic', 'amu', 'pimc', 'infer', 'amu:1')
>>> PLAYERS[-1].name == DEFAULT_PLAYER  # the browser preselects the last, the strongest
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paston.errors import ParseError


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """One named computer player: its name, what it does, and its strength levels
    (``levels`` is empty for a player without levels)."""

    name: str
    description: str
    levels: tuple[int, ...] = ()
    default_level: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form served to the browser."""
        return {
            "name": self.name,
            "description": self.description,
            "levels": list(self.levels),
            "default_level": self.default_level,
        }


PLAYERS: tuple[PlayerInfo, ...] = (
    PlayerInfo("random", "uniform among the legal actions"),
    PlayerInfo("heuristic", "rule-based: hand evaluation and the usual card-play rules, well under 1 ms"),
    PlayerInfo(
        "amu",
        "pimc whose declarer plays its cards by αμ search (two of its moves deep, without strategy "
        "fusion); levels 1 to 5",
        levels=(1, 2, 3, 4, 5),
        default_level=3,
    ),
    PlayerInfo(
        "pimc",
        "perfect-information Monte Carlo with the double-dummy solver; levels 1 (fast) to 4 sample "
        "a fixed number of worlds, 5 (strongest) as many as its time budget allows",
        levels=(1, 2, 3, 4, 5),
        default_level=3,
    ),
    PlayerInfo(
        "infer",
        "pimc whose sampled deals follow what the others' bids, whists and cards suggest; levels: "
        "1 a beginner (the heuristic with mistakes), 2 the heuristic, 3 and 4 weigh 10 and 16 deals "
        "a card, 5 at least 32, more as its time budget allows",
        levels=(1, 2, 3, 4, 5),
        default_level=3,
    ),
)
"""Every named computer player, weakest first (as measured in ``docs/STRENGTH.md``: ``amu``
lost to ``pimc`` at equal time); the browser preselects the last."""

DEFAULT_PLAYER = "infer"
"""The computer player chosen when none is named (``paston play``'s opponents, a bot seat
of the web app without a name): the strongest measured, see ``docs/STRENGTH.md``."""

PLAYERS_BY_NAME: dict[str, PlayerInfo] = {p.name: p for p in PLAYERS}
PLAYER_NAMES: tuple[str, ...] = tuple(PLAYERS_BY_NAME)
"""Named computer players; ``pimc`` takes a strength ``pimc:1`` … ``pimc:5`` (default 3)."""


def player_choices() -> tuple[str, ...]:
    """Every name a player may be given by: each player, then each ``name:level``."""
    out = list(PLAYER_NAMES)
    for p in PLAYERS:
        out.extend(f"{p.name}:{level}" for level in p.levels)
    return tuple(out)


def _known_text() -> str:
    parts = []
    for p in PLAYERS:
        parts.append(p.name)
        if p.levels:
            parts.append(f"{p.name}:{p.levels[0]} … {p.name}:{p.levels[-1]}")
    return ", ".join(parts)


def parse_player_name(name: str) -> tuple[str, int | None]:
    """``'pimc:4'`` → ``('pimc', 4)``; ``'random'`` → ``('random', None)``.

    >>> parse_player_name(" PIMC:2 ")
    ('pimc', 2)
    """
    if not isinstance(name, str):
        raise ParseError("parse-player", f"a player name is text, not {name!r}")
    key = name.strip().lower()
    base, colon, level_text = key.partition(":")
    info = PLAYERS_BY_NAME.get(base)
    if info is None:
        raise ParseError("parse-player", f"unknown player {name!r}; known: {_known_text()}")
    if not colon:
        return base, None
    if level_text not in {str(level) for level in info.levels}:
        if not info.levels:
            raise ParseError(
                "parse-player", f"{base} has no strength levels in {name!r}; known: {_known_text()}"
            )
        raise ParseError(
            "parse-player",
            f"bad strength in {name!r}: use {base}:{info.levels[0]} … {base}:{info.levels[-1]}",
        )
    return base, int(level_text)
