"""The action log: every accepted action appended to the ``actions`` table, committed
before the action is applied or answered (the log is the truth). The hot path of every
move.

>>> import asyncio
>>> from sqlalchemy import create_engine
>>> from paston.server.store.db import migrate, now
>>> engine = create_engine("sqlite://")
>>> migrate(engine)
>>> log = ActionLog(engine)
>>> row = {"table_id": "t", "seq": 0, "deal": 0, "seat": 1, "action": "pass",
...        "command_id": None, "created": now(), "fence": None}
>>> asyncio.run(log.append_durably(row))
>>> log.commits, log.inline_commits
(1, 1)
>>> log.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Engine

from paston.server.store.db import ActionRow, FencedOut, fence_check

Row = dict[str, Any]
Refused = set[tuple[str, int | None]]
Group = list[tuple[Row, "asyncio.Future[None]"]]


class _Busy(Exception):
    """SQLite's write lock is held by another connection (the inline write does not wait)."""


def _is_busy(err: BaseException) -> bool:
    return isinstance(err, sqlite3.OperationalError) and "locked" in str(err)


class ActionLog:
    """Appends accepted actions to the ``actions`` table.

    :meth:`append_durably` returns once the action is committed. On SQLite the commit
    is made at once on the event loop's thread (``inline``): in write-ahead-log mode a
    commit is one ``write`` to the log file, some tens of microseconds, far less than
    the two thread hops it would otherwise cost under load (each waits for the busy event
    loop). If another connection holds SQLite's write lock (an analysis being stored,
    say), the inline write does not wait: the action goes to the writer thread instead.

    On PostgreSQL (and whenever the writer thread is busy) the writes run on one worker
    thread with a connection of its own, so the event loop goes on serving other tables
    while the database works; actions queued while a commit is under way are committed
    together by the next one (a group commit: one INSERT of many rows, one COMMIT, one
    wait for the disk). The thread's answer reaches the waiting moves in one hop of the
    event loop. The statement is compiled once for the database's dialect. A failed
    write is rolled back and raised to every action of its group (none of them is
    applied), and the connection is replaced.

    ``fenced`` (a cluster, :mod:`paston.server.cluster`): every row carries its owner's
    fencing token (``fence``), and is committed only while the table's row holds that
    same token; the check locks the table's row in the transaction, so a new owner's
    token (:func:`paston.server.cluster.fencing.bump_fence`) waits for the commit or wins
    before it. A refused row raises :class:`~paston.server.store.db.FencedOut` (the other
    tables of its group commit), and ``on_fenced`` hears its table.
    """

    COLUMNS = ("table_id", "seq", "deal", "seat", "action", "command_id", "created", "fence")

    def __init__(self, engine: Engine, *, fenced: bool = False, inline: bool | None = None) -> None:
        table = ActionRow.__table__
        self.fenced = fenced
        self.on_fenced: Callable[[str, int | None], None] | None = None
        check = fence_check().compile(dialect=engine.dialect)
        self._check_sql = str(check)
        self._check_order = tuple(check.positiontup or ()) if engine.dialect.positional else None
        compiled = insert(ActionRow).compile(dialect=engine.dialect, column_keys=list(self.COLUMNS))
        self._engine = engine
        self._sql = str(compiled)
        self._order = tuple(compiled.positiontup or ()) if engine.dialect.positional else None
        self._process = {
            key: processor
            for key in self.COLUMNS
            if (processor := table.c[key].type.bind_processor(engine.dialect)) is not None
        }
        self.inline = engine.dialect.name == "sqlite" if inline is None else inline
        self._connections: dict[int, Any] = {}  # by thread: the loop's (inline) and the writer's
        self._loop_thread: int | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="action-log")
        self._pending: Group = []
        self._writing = False  # a group is on the writer thread
        self.commits = 0  # transactions committed (fewer than rows under load)
        self.inline_commits = 0  # of which on the event loop's thread

    async def append_durably(self, row: Row) -> None:
        """Log one action (``row`` has every name of ``COLUMNS``); returns once it is
        committed, or raises what the database raised (:class:`FencedOut` for a row
        whose table is no longer this server's)."""
        if self.inline and not self._pending and not self._writing:
            self._loop_thread = threading.get_ident()
            try:
                refused = self.write([row])
            except _Busy:
                pass  # another connection writes: the writer thread waits for it
            else:
                self._fenced_off(refused)
                if refused:
                    raise FencedOut(row["table_id"], row.get("fence"))
                return
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((row, done))
        if not self._writing:
            self._write_group(loop)
        await done

    def _write_group(self, loop: asyncio.AbstractEventLoop) -> None:
        """Send what is pending to the writer thread; its answer comes back in one hop."""
        group, self._pending = self._pending, []
        self._writing = True
        future = self._executor.submit(self.write, [row for row, _ in group])

        def written(f: Future[Refused]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed (shutdown): nobody waits
                loop.call_soon_threadsafe(self._written, loop, group, f)

        future.add_done_callback(written)

    def _written(self, loop: asyncio.AbstractEventLoop, group: Group, f: Future[Refused]) -> None:
        """On the event loop: answer a group's moves, and send the next group."""
        self._writing = False
        err = f.exception()
        refused: Refused = set() if err is not None else f.result()
        for row, done in group:
            if done.done():
                continue
            if err is not None:
                done.set_exception(err)
            elif (row["table_id"], row.get("fence")) in refused:
                done.set_exception(FencedOut(row["table_id"], row.get("fence")))
            else:
                done.set_result(None)
        self._fenced_off(refused)
        if self._pending:
            self._write_group(loop)

    def _fenced_off(self, refused: Refused) -> None:
        for table_id, fence in sorted(refused, key=repr):
            if self.on_fenced is not None:
                self.on_fenced(table_id, fence)

    def _refused(self, cursor: Any, rows: list[Row]) -> Refused:
        """The (table, token) pairs of ``rows`` whose table's row does not hold that token
        (each checked row stays locked until the transaction ends)."""
        refused: Refused = set()
        for table_id, fence in dict.fromkeys((row["table_id"], row.get("fence")) for row in rows):
            if fence is None:
                refused.add((table_id, fence))
                continue
            values = {"t": table_id, "f": fence}
            cursor.execute(
                self._check_sql,
                tuple(values[k] for k in self._check_order) if self._check_order is not None else values,
            )
            if cursor.rowcount != 1:
                refused.add((table_id, fence))
        return refused

    def _connection(self) -> Any:
        """This thread's connection to the database; the event loop's does not wait for
        another connection's write lock."""
        thread = threading.get_ident()
        connection = self._connections.get(thread)
        if connection is None:
            connection = self._connections[thread] = self._engine.raw_connection()
            if thread == self._loop_thread and self._engine.dialect.name == "sqlite":
                cursor = connection.cursor()
                cursor.execute("PRAGMA busy_timeout = 0")
                cursor.close()
        return connection

    def write(self, rows: list[Row]) -> Refused:
        """Insert the rows and commit them in one transaction (on the caller's thread);
        returns the (table, token) pairs whose rows were refused (only when ``fenced``)."""
        connection = self._connection()
        try:
            cursor = connection.cursor()
            refused = self._refused(cursor, rows) if self.fenced else set()
            params = []
            for row in rows:
                if (row["table_id"], row.get("fence")) in refused:
                    continue
                values = {key: row.get(key) for key in self.COLUMNS}
                values = {
                    key: self._process[key](v) if key in self._process else v for key, v in values.items()
                }
                params.append(tuple(values[k] for k in self._order) if self._order is not None else values)
            if params:
                cursor.executemany(self._sql, params)
            cursor.close()
            connection.commit()
        except Exception as err:
            if threading.get_ident() == self._loop_thread and _is_busy(err):
                connection.rollback()
                raise _Busy from err  # nothing written; the connection is sound
            del self._connections[threading.get_ident()]
            try:
                connection.rollback()
            finally:
                connection.invalidate()
            raise
        self.commits += 1
        if threading.get_ident() == self._loop_thread:
            self.inline_commits += 1
        return refused

    def close(self) -> None:
        """Finish the writes under way and give the connections back."""
        self._executor.shutdown(wait=True)
        for connection in self._connections.values():
            connection.close()
        self._connections.clear()
