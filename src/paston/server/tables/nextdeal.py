"""What follows the move that ended a deal (or the game): the next deal, or the end of
the game, stored (:meth:`~paston.server.tables.tablestore.TableStore.after_action`),
then the next deal's seed round. When the database fails (restarting), nothing was
dealt in memory (:func:`~paston.server.tables.tablestore.dealt_only_if_stored`): the
move is stored and acknowledged all the same, and the deal is stored again after 0.5 s,
1 s, 2 s… (at most 5 s apart) until it is, so nobody ever moves on a deal the database
does not hold.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from paston.server.store.db import FencedOut
from paston.server.tables.table import Table
from paston.server.tables.tablestore import TableStore

_log = logging.getLogger("paston.server")


class NextDeals:
    """Stores what follows a deal's last move (see the module's text). ``begin_round``
    starts the next deal's seed round, ``finished`` keeps a game that just ended, and
    ``dealt`` tells the clients and the computer players once a retry stored the deal."""

    def __init__(
        self,
        store: TableStore,
        begin_round: Callable[[Table], None],
        finished: Callable[[Table], None],
        dealt: Callable[[Table], None],
    ) -> None:
        self.store = store
        self.begin_round = begin_round
        self.finished = finished
        self.dealt = dealt
        self._retries: set[asyncio.Task[None]] = set()

    def after(self, table: Table, *, ended: bool) -> None:
        """The caller holds the table's lock, in the event loop."""
        try:
            self.store.after_action(table, ended=ended)
        except FencedOut:
            raise
        except Exception as err:  # the move is stored; the next deal (or the end) is not yet
            _log.warning("table %s: the next deal could not be stored (%s); retrying", table.id, err)
            self._later(table, ended, 0.5)
            return
        self._stored(table, ended)

    def _stored(self, table: Table, ended: bool) -> None:
        self.begin_round(table)  # the next deal's seeds, when people's clients send them
        if ended:  # marked in memory once the row says so
            table.finished = True
            self.finished(table)

    def _later(self, table: Table, ended: bool, delay: float) -> None:
        async def retry() -> None:
            await asyncio.sleep(delay)
            async with table.lock:
                if table.gone or not (table.match.needs_deck or (ended and not table.finished)):
                    return
                try:
                    self.store.after_action(table, ended=ended)
                except FencedOut:
                    return
                except Exception as err:
                    _log.warning("table %s: the next deal could not be stored (%s); retrying", table.id, err)
                    self._later(table, ended, min(5.0, delay * 2))
                    return
                self._stored(table, ended)
            self.dealt(table)

        task = asyncio.get_running_loop().create_task(retry())
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)
