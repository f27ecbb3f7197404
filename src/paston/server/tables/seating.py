"""Seats: who sits where (a person with a hashed token, or a named computer player),
the seat specifications a new table is made from, and seat tokens.

>>> seats = seats_from_specs([{"kind": "human"}, {"kind": "bot", "bot": "pimc", "level": 2},
...                           {"kind": "bot", "bot": "random"}])
>>> seat_names_of(seats)
['Seat 0', 'pimc:2 (1)', 'random (2)']
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paston.bots.base import parse_player_name
from paston.bots.registry import DEFAULT_PLAYER
from paston.errors import ParseError
from paston.server.table_error import TableError

#: The player a bot seat gets when its specification names none.
DEFAULT_BOT = DEFAULT_PLAYER


@dataclass
class Seat:
    """A seat's settings and who holds it."""

    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


def seat_names_of(seats: Sequence[Seat]) -> list[str]:
    """Display names: a bot's name and seat number, a person's name or "Seat N"."""
    return [f"{s.bot} ({i})" if s.kind == "bot" else (s.name or f"Seat {i}") for i, s in enumerate(seats)]


def seats_from_specs(specs: Sequence[Mapping[str, Any]]) -> list[Seat]:
    """The seats of a new table from three ``{"kind": "human"}`` or
    ``{"kind": "bot", "bot": "pimc", "level": 3}``; bot names are checked against the
    registry of computer players."""
    if len(specs) != 3:
        raise TableError("bad-seats", "a table has exactly three seats")
    seats = []
    for i, spec in enumerate(specs):
        kind = spec.get("kind")
        if kind == "human":
            seats.append(Seat("human"))
        elif kind == "bot":
            bot = str(spec.get("bot") or DEFAULT_BOT).strip().lower()
            level = spec.get("level")
            if level is not None:
                bot = f"{bot}:{level}"
            try:
                parse_player_name(bot)
            except ParseError as err:
                raise TableError("bad-seats", f"seat {i}: {err}") from None
            seats.append(Seat("bot", bot=bot))
        else:
            raise TableError("bad-seats", f"seat {i} must be 'human' or 'bot', not {kind!r}")
    return seats


def person_name(name: str) -> str:
    """A person's display name, trimmed; 1 to 40 characters."""
    name = name.strip()
    if not 1 <= len(name) <= 40:
        raise TableError("bad-name", "your name must have 1 to 40 characters")
    return name


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> tuple[str, str]:
    """A new seat token (shown once to its person) and its hash (stored)."""
    token = secrets.token_urlsafe(24)
    return token, hash_token(token)


def seat_of_token(seats: Sequence[Seat], token: str | None) -> int | None:
    """The seat a token belongs to (``None``: a spectator). A bad token is an error."""
    if token is None:
        return None
    digest = hash_token(token)
    for i, s in enumerate(seats):
        if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
            return i
    raise TableError("bad-token", "this seat token is not valid for this table")
