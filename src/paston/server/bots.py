"""Computer players at the tables: a bot's seat, or a person's seat taken over after the
table's delay (a stand-in). When one is to move it acts after a short delay, thinking
in a worker thread, and its action goes through the same commit as a person's."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

from paston.actions import Action
from paston.bots.base import Player, make_player
from paston.server.errors import TableError
from paston.server.table import Table

#: The player that stands in for a person who is away.
STANDIN = "heuristic"

Commit = Callable[[Table, int, Action], Awaitable[None]]


def seat_bots(table: Table) -> None:
    """Give each bot seat of a table its computer player."""
    for i, s in enumerate(table.seats):
        if s.kind == "bot" and s.bot:
            table.bots[i] = make_player(s.bot, seed=secrets.randbits(64))


def actor(table: Table, seat: int) -> Player | None:
    """The computer player that acts for ``seat`` now, if any."""
    if seat in table.bots:
        return table.bots[seat]
    if table.standing_in(seat):
        if seat not in table.standins:
            table.standins[seat] = make_player(STANDIN, seed=secrets.randbits(64))
        return table.standins[seat]
    return None


class BotRunner:
    """Lets computer players act at the tables: ``commit`` logs and applies an action
    (the caller holds the table's lock), ``broadcast`` sends the news."""

    def __init__(self, delay: float, commit: Commit, broadcast: Callable[[Table], None]) -> None:
        self.delay = delay
        self._commit = commit
        self._broadcast = broadcast

    def schedule(self, table: Table) -> None:
        """If a computer player is to move (a bot's seat, or a person's seat taken over
        after the table's delay), let it act after a short delay, in a worker thread; if
        a person to move is offline and takeover is on, check again when it is due."""
        seat = table.match.to_move
        if seat is None:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        loop = asyncio.get_running_loop()
        if actor(table, seat) is not None:
            table.bot_task = loop.create_task(self._turns(table))
        elif table.takeover_seconds is not None and table.seats[seat].taken and not table.online(seat):
            due = table.takeover_seconds - table.offline_for(seat)
            table.bot_task = loop.create_task(self._after(max(0.0, due) + 0.01, table))

    async def _after(self, delay: float, table: Table) -> None:
        await asyncio.sleep(delay)
        table.bot_task = None
        self.schedule(table)

    async def _turns(self, table: Table) -> None:
        while True:
            seat = table.match.to_move
            player = None if seat is None else actor(table, seat)
            if seat is None or player is None:
                table.bot_task = None
                self.schedule(table)
                return
            await asyncio.sleep(self.delay)
            if actor(table, seat) is not player:
                continue  # the person came back
            version = table.version
            action = await asyncio.to_thread(player.choose, table.match.view(seat))
            async with table.lock:
                if version != table.version or table.match.why_illegal(action, seat) is not None:
                    continue
                if actor(table, seat) is not player:
                    continue
                try:
                    await self._commit(table, seat, action)
                except TableError:
                    continue  # the database failed: nothing changed, try again
            self._broadcast(table)
