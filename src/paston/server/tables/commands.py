"""The command ids a table remembers, so a command sent twice is applied once.

A client gives each ``act`` an id of its own choosing. Ids belong to the seat that sent
them: the same id from another seat is another command. The ids of the last
:data:`RECENT_COMMANDS` accepted actions are remembered with the version each produced
and its action; they are stored with the action log, so a table rebuilt after a restart
knows them again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

#: Command ids remembered per table (a deal has some forty actions: this spans many deals).
RECENT_COMMANDS = 1000


class Done(NamedTuple):
    """What an accepted command produced: the table's version after it, and its action."""

    version: int
    action: str


class Accepted(NamedTuple):
    """The answer to a command: the table's version after it, and whether it had been
    accepted before (a resend, answered from memory and applied once)."""

    version: int
    duplicate: bool = False


@dataclass
class RecentCommands:
    """The ids of a table's recent commands, keyed by (seat, id); the oldest are
    forgotten beyond ``keep``.

    >>> recent = RecentCommands(keep=2)
    >>> recent.remember(0, "a", 1, "pass"); recent.remember(1, "a", 2, "pass")
    >>> recent.get(0, "a"), recent.get(2, "a")
    (Done(version=1, action='pass'), None)
    >>> recent.remember(0, "b", 3, "play 7S"); recent.get(0, "a") is None
    True
    """

    keep: int = RECENT_COMMANDS
    _done: dict[tuple[int, str], Done] = field(default_factory=dict)

    def get(self, seat: int, command_id: str) -> Done | None:
        """What the command ``command_id`` of ``seat`` produced, if it was accepted."""
        return self._done.get((seat, command_id))

    def remember(self, seat: int, command_id: str, version: int, action: str) -> None:
        """Note an accepted command (``version``: the table's version after it)."""
        self._done[(seat, command_id)] = Done(version, action)
        while len(self._done) > self.keep:
            self._done.pop(next(iter(self._done)))

    def __len__(self) -> int:
        return len(self._done)
