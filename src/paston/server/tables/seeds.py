"""Collecting the seats' seeds for the next deal (docs/FAIRNESS.md), over the WebSocket.

When a deal needs a deck, :func:`paston.server.tables.tablestore.deal_on` opens a round: the
server's secret and commitment are stored first, then :meth:`SeedRounds.begin` sends
``{"type": "seed-request", "deal": …, "commit": …, "previous": …}`` to the clients of
the seats it waits for (people whose client said ``"seeds": true`` in its hello).
Each answers ``{"type": "seed", "commit": …, "seed": …}``; once all have, or after
``timeout`` seconds, the deck is derived and dealt (a seat that sent nothing gets the
server's seed, and the record says so). Computer players, stand-ins and people who
are not connected never hold a deal up: they get the server's seed at once.

A table's first deal is dealt when the table is created, so it is *provisional* until
someone acts: each person's first arrival (with a client that sends seeds) shuffles it
again with the seeds of everyone seated and connected, and computer players wait until
the people are there (:meth:`Table.waits_for_people`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterable

from paston.server.store.db import FencedOut
from paston.server.table_error import TableError
from paston.server.tables.connection import Connection
from paston.server.tables.decks import SeedRound
from paston.server.tables.protocol import Seed
from paston.server.tables.table import Table
from paston.server.tables.tablestore import TableStore

#: Seconds a deal waits for the seeds of people's clients.
SEED_TIMEOUT = 5.0
_log = logging.getLogger(__name__)


class SeedRounds:
    """Asks clients for seeds and deals when they are in. ``after(table)`` runs once a
    deal was dealt this way (outside the table's lock): send the news, let bots play."""

    def __init__(self, store: TableStore, timeout: float, after: Callable[[Table], None]) -> None:
        self.store = store
        self.timeout = timeout
        self._after = after

    def begin(self, table: Table) -> None:
        """If the table's round waits for seeds and has not started yet: ask the clients
        of its seats and start its clock."""
        r = table.round
        if r is None or r.ready() or r.timer is not None:
            return
        text = json.dumps(r.request(), separators=(",", ":"))
        for conn in table.connections:
            if conn.seat in r.expected and conn in table.seeders and not conn.closed:
                conn.push(text)
        r.timer = asyncio.get_running_loop().create_task(self._expire(table, r))

    def stop(self, tables: Iterable[Table]) -> None:
        """The server stops: stop the rounds' clocks (a round under way is dealt when
        the server starts again, with the same secret)."""
        for table in tables:
            if table.round is not None and table.round.timer is not None:
                table.round.timer.cancel()

    def arrive(self, table: Table, conn: Connection, *, sends_seeds: bool) -> bool:
        """A client joins the table (the caller holds its lock): note whether it sends
        seeds. While the first deal is provisional (nobody has acted), a person's first
        arrival with a client that sends seeds shuffles it again, with the seeds of
        everyone seated and connected (a round already under way starts over). Returns
        whether it did: the caller sends the table's state (it is shuffling), then
        :meth:`begin` asks for the seeds."""
        if sends_seeds:
            table.seeders.add(conn)
        seat = conn.seat
        if seat is None or not table.provisional or seat in table.arrived:
            return False
        if table.seats[seat].kind != "human":
            return False
        table.arrived.add(seat)
        if not sends_seeds or table.lesson is not None:  # a lesson's first deal is fixed, not shuffled
            return False
        old = table.round
        try:
            self.store.shuffle_first_deal_again(table)
        except Exception as err:  # the database failed: the provisional deal stays
            _log.warning("table %s: the first deal could not be shuffled again (%s)", table.id, err)
            return False
        if old is not None:  # a seed for it that comes now is too late, not an error
            table.dropped.add(old.commit)
            if old.timer is not None:
                old.timer.cancel()
        return True

    def joined(self, table: Table, conn: Connection) -> None:
        """A client that sends seeds joined: ask it for its seat's seed if the round under
        way waits for it and has not had it (a reconnection). A person who comes while a
        round waits for others' seeds is asked too (so no one sees a deal dealt while they
        were there without their seed, decision F6); the round's clock is not reset."""
        r = table.round
        seat = conn.seat
        if conn not in table.seeders or r is None or seat is None or r.ready() or seat in r.seeds:
            return
        if seat not in r.expected:
            if seat not in table.seed_seats():  # a computer player's seat, a stand-in's
                return
            r.expected = r.expected | {seat}
        conn.push(json.dumps(r.request(), separators=(",", ":")))

    async def receive(self, table: Table, seat: int | None, message: Seed) -> None:
        """A client's seed. The first seed of a seat counts; one for a deal already dealt
        is ignored (it came too late); anything else is an error."""
        if seat is None:
            raise TableError("spectator", "spectators do not send seeds")
        r = table.round
        if r is None or r.commit != message.commit:
            if any(commit == message.commit for _, commit in table.seeds) or message.commit in table.dropped:
                return  # too late: dealt with the server's seed for this seat, or shuffled again
            raise TableError("no-seed-wanted", "no deal waits for a seed with this commitment")
        if seat not in r.expected:
            raise TableError("seed-not-asked", f"seat {seat} was not asked for a seed for this deal")
        if seat in r.seeds or r.ready():
            return
        r.seeds[seat] = message.seed
        if r.ready():
            await self._deal(table, r)

    async def _expire(self, table: Table, r: SeedRound) -> None:
        await asyncio.sleep(self.timeout)
        r.expired = True
        await self._deal(table, r)

    async def _deal(self, table: Table, r: SeedRound | None) -> None:
        """Deal the round ``r`` (``None``: whatever the table needs, after a failure)."""
        async with table.lock:
            if table.round is not r or (r is None and not table.match.needs_deck):
                return
            if r is not None and r.timer is not None and r.timer is not asyncio.current_task():
                r.timer.cancel()
            again = r is not None and r.again
            try:
                self.store.deal_round(table)
            except FencedOut:  # another worker plays the table now (it left memory)
                return
            except Exception as err:  # the database failed: nothing was dealt; try again
                _log.warning("table %s: the deal could not be stored (%s); retrying", table.id, err)
                asyncio.get_running_loop().call_later(
                    self.timeout, lambda: asyncio.ensure_future(self._deal(table, table.round))
                )
                return
            if again:  # the same version, another deal: everyone gets the whole state
                for conn in table.connections:
                    conn.held_version = -1
            self.begin(table)  # a deal redealt at once: the next round
        self._after(table)
