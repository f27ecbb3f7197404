"""The tables of a server: one sequential executor per table over the action log.

A table is a :class:`~paston.match.Match` rebuilt from the database (deal seeds and
accepted actions). Commands are checked by the engine, committed to the database, then
applied and broadcast, each audience getting only its own view.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from paston.actions import Action
from paston.errors import ParseError
from paston.match import Match
from paston.record import to_record
from paston.rules import Rules
from paston.server.lessons.course import lesson_by_id
from paston.server.store.actionlog import ActionLog
from paston.server.store.db import FencedOut, now
from paston.server.table_error import TableError
from paston.server.tables.cache import KEEP_FINISHED, FinishedGames
from paston.server.tables.commands import Accepted, Done
from paston.server.tables.connection import Connection
from paston.server.tables.hints import HintService
from paston.server.tables.messages import next_messages
from paston.server.tables.nextdeal import NextDeals
from paston.server.tables.pause import NEXT_DEAL_SECONDS, Pauses
from paston.server.tables.seat_bots import BotRunner, seat_bots
from paston.server.tables.seating import new_token, person_name, seat_of_token, seats_from_specs
from paston.server.tables.seeds import SEED_TIMEOUT, SeedRounds
from paston.server.tables.table import Table
from paston.server.tables.tablestore import TableStore
from paston.server.work.botpool import DEFAULT_BUDGET
from paston.server.work.deal_analysis import ANALYSIS_WORKERS, Analyses

#: Watchers (spectator connections) a table takes, unless the server says otherwise.
MAX_WATCHERS = 200

#: Seconds a rematch keeps each person's seat for its player of the game before: only
#: that player (their seat token, through the rematch request) can take it sooner.
REMATCH_RESERVE_SECONDS = 120.0
#: Connections one seat may have open at once (tabs, devices).
MAX_SEAT_CONNECTIONS = 5
#: Seconds between two messages that only say who is online.
PRESENCE_INTERVAL = 1.0


def _resent(command_id: str, text: str, done: Done) -> Accepted:
    """The answer to a command id this seat used before: a duplicate if it names the same
    action, an error if it names another."""
    try:
        same = str(Action.parse(text)) == done.action
    except ParseError:
        same = False
    if not same:
        raise TableError(
            "id-reused", f"command id {command_id!r} was already used for {done.action!r}; use a new id"
        )
    return Accepted(done.version, duplicate=True)


class TableManager:
    """The tables of a server, backed by the database. Every unfinished table is in
    memory; finished games are loaded when asked for and at most ``keep_finished`` of
    them stay (the least recently used without a connection are dropped first)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        *,
        bot_delay: float = 0.6,
        keep_finished: int = KEEP_FINISHED,
        bot_workers: int | None = None,
        bot_budget: float | None = DEFAULT_BUDGET,
        seed_timeout: float = SEED_TIMEOUT,
        max_watchers: int = MAX_WATCHERS,
        analysis_workers: int = ANALYSIS_WORKERS,
        next_deal_seconds: float = NEXT_DEAL_SECONDS,
    ) -> None:
        self.max_watchers = max_watchers
        self.analyses = Analyses(sessions, workers=analysis_workers)
        self.next_deal_seconds = next_deal_seconds  # a new table's, unless it says
        self.store = TableStore(sessions)
        self.log = ActionLog(sessions.kw["bind"])
        self.actions_committed = 0  # rows of the action log committed by this process
        self.tables: dict[str, Table] = {}
        self.finished_games = FinishedGames(self.tables, keep_finished)
        self.bot_runner = BotRunner(
            bot_delay, self._commit_bot, self.broadcast, workers=bot_workers, budget=bot_budget
        )
        self.hints = HintService(self.bot_runner.pool)
        self.rounds = SeedRounds(self.store, seed_timeout, self._dealt)
        self.pauses = Pauses(self._deal_on, self._dealt)
        self.next_deals = NextDeals(self.store, self.rounds.begin, self.finished_games.add, self._dealt)

    # --- loading --------------------------------------------------------------------------
    def load_all(self) -> None:
        """Rebuild every unfinished table from the action log (finished games are loaded
        when asked for)."""
        for table in self.store.load_unfinished():
            self._resident(table)

    def _resident(self, table: Table) -> Table:
        self.tables[table.id] = table
        if table.finished:
            self.finished_games.add(table)
        else:
            seat_bots(table)
        if table.left_on_show is not None:  # rebuilt during the pause after a deal
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # no event loop to time it: deal on at once, as a rebuild did
                table.left_on_show = None
                self.store.after_action(table, ended=False)
            else:
                if not self.pauses.resume(table):
                    self._deal_on(table)
        return table

    # --- creating and seating ---------------------------------------------------------------
    def create(
        self,
        name: str,
        rules: Rules,
        seats: Sequence[Mapping[str, Any]],
        *,
        takeover_seconds: float | None = None,
        hints: bool = False,
        next_deal_seconds: float | None = None,
    ) -> Table:
        """Create a table; ``seats`` are three ``{"kind": "human"}`` or
        ``{"kind": "bot", "bot": "pimc", "level": 3}``; a finished deal stays on show at
        most ``next_deal_seconds`` (``None``: the server's default; 0: not at all)."""
        return self.create_seated(
            name,
            rules,
            seats,
            None,
            takeover_seconds=takeover_seconds,
            hints=hints,
            next_deal_seconds=next_deal_seconds,
        )[0]

    def create_seated(
        self,
        name: str,
        rules: Rules,
        seats: Sequence[Mapping[str, Any]],
        creator: tuple[int, str] | None,
        *,
        takeover_seconds: float | None = None,
        hints: bool = False,
        next_deal_seconds: float | None = None,
        rematch_of: Table | None = None,
        listed: bool = True,
        lesson: str | None = None,
    ) -> tuple[Table, str | None]:
        """Create a table (as :meth:`create`) with its creator, ``creator = (seat, name)``,
        already in that person's seat: the seat is stored with the table in one
        transaction, so the table is never seen with it free. Returns the table and the
        seat token (``None`` without a creator). ``rematch_of``: the finished table it
        is the rematch of, linked in the same transaction (only by its owner).
        ``listed=False``: private (server/tables/private.py); ``lesson``: a lesson of the
        course (:mod:`paston.server.lessons`), whose deal, dealer and bot seeds it plays."""
        name = name.strip()
        if not 1 <= len(name) <= 80:
            raise TableError("bad-name", "the table name must have 1 to 80 characters")
        seat_list = seats_from_specs(seats)
        token = None
        if creator is not None:
            seat, person = creator
            if seat not in (0, 1, 2):
                raise TableError("bad-seat", "seats are 0, 1 and 2")
            if seat_list[seat].kind != "human":
                raise TableError("bad-seat", f"seat {seat} is a computer player's, not a person's")
            seat_list[seat].name = person_name(person)
            token, seat_list[seat].token_hash = new_token()
        table_id = secrets.token_urlsafe(9)
        first_dealer = secrets.randbelow(3)
        if lesson is not None:
            found = lesson_by_id(lesson)
            if found is None:
                raise TableError("no-lesson", f"the course has no lesson {lesson!r}")
            first_dealer = found.dealer
        match = Match(first_dealer=first_dealer, rules=rules, seats=("", "", ""))
        table = Table(table_id, name, seat_list, match, takeover_seconds=takeover_seconds, hints=hints)
        table.listed = listed
        table.lesson = lesson
        table.next_deal_seconds = self.next_deal_seconds if next_deal_seconds is None else next_deal_seconds
        table.name_seats()
        seat_bots(table, new=True)
        self.store.add(table, first_dealer, rematch_of)  # with the creator's seat, if any
        self.tables[table_id] = table
        if rematch_of is not None:
            rematch_of.rematch = table_id
        return table, token

    def get(self, table_id: str) -> Table:
        """A table by id: in memory, or a finished game loaded from the database."""
        table = self.tables.get(table_id)
        if table is not None:
            if table.finished:
                self.finished_games.touch(table_id)
            return table
        loaded = self.store.load(table_id)
        if loaded is None:
            raise TableError("no-table", f"there is no table {table_id!r}")
        return self._resident(loaded)

    def finished_summaries(self, limit: int) -> list[dict[str, Any]]:
        """The summaries of the ``limit`` most recently finished games, newest first,
        from memory or straight from the stored rows (no replay)."""
        return self.store.finished_summaries(limit, self.tables)

    def take_seat(self, table_id: str, seat: int, name: str, *, reserved_ok: bool = False) -> str:
        """Give a free human seat to a person; returns the seat token (shown once). A seat
        a rematch keeps for its player (:data:`REMATCH_RESERVE_SECONDS`) is refused, unless
        ``reserved_ok`` (the rematch request of that very player)."""
        table = self.get(table_id)
        if seat not in (0, 1, 2):
            raise TableError("bad-seat", "seats are 0, 1 and 2")
        name = person_name(name)
        if not table.listed:
            raise TableError(
                "private-table", "this table is private: only the person it was made for plays at it"
            )
        s = table.seats[seat]
        if s.taken:
            raise TableError("seat-taken", f"seat {seat} is already taken")
        until = table.reserved.get(seat)
        if until is not None and not reserved_ok and time.monotonic() < until:
            left = max(1, round(until - time.monotonic()))
            raise TableError(
                "seat-reserved",
                f"seat {seat} is kept for its player of the last game for {left} s more",
            )
        token, token_hash = new_token()
        self.store.save_seat(table, seat, name, token_hash)  # first: refused, nothing changes
        s.name = name
        s.token_hash = token_hash
        table.reserved.pop(seat, None)
        table.name_seats()
        return token

    def seat_of(self, table: Table, token: str | None) -> int | None:
        """The seat a token belongs to (``None``: a spectator). A bad token is an error."""
        return seat_of_token(table.seats, token)

    # --- playing --------------------------------------------------------------------------------
    async def act(
        self, table_id: str, seat: int, text: str, version: int | None, command_id: str | None
    ) -> Accepted:
        """Apply one action for ``seat``; returns the new version. Checked by the engine,
        committed, then broadcast. A command whose id this seat already used is not
        applied again: the answer says it is a duplicate and gives the version it produced
        (an id used for another action is refused)."""
        table = self.get(table_id)
        async with table.lock:
            if command_id is not None and (done := table.recent.get(seat, command_id)) is not None:
                return _resent(command_id, text, done)
            if version is not None and version != table.version:
                raise TableError("stale", f"the table is at version {table.version}, not {version}: resync")
            try:
                action = Action.parse(text)
            except ParseError as err:
                raise TableError(err.code, str(err)) from None
            if table.reshuffling:
                raise TableError(
                    "shuffling", "the first deal is being shuffled again with the seats' seeds: wait a moment"
                )
            error = table.match.why_illegal(action, seat)
            if error is not None:
                raise TableError(error.code, str(error), error.rule)
            await self._commit(table, seat, action, command_id)
            if command_id is not None:
                table.recent.remember(seat, command_id, table.version, str(action))
            version_now = table.version
        self.broadcast(table)
        self.schedule_bots(table)
        return Accepted(version_now)

    async def _commit_bot(self, table: Table, seat: int, action: Action) -> None:
        await self._commit(table, seat, action, None)

    async def _commit(self, table: Table, seat: int, action: Action, command_id: str | None) -> None:
        """Log a legal action (committed first: the log is the truth), apply it, and deal
        on. The caller holds the table's lock. Nothing changes if the database fails; a
        copy this worker gave up (``table.gone``) writes nothing, and a move the fence
        refuses raises :class:`~paston.server.store.db.FencedOut` (``not-owner``)."""
        if table.gone:
            raise FencedOut(table.id, table.fence)
        try:
            await self.log.append_durably(
                {
                    "table_id": table.id,
                    "seq": table.version,
                    "deal": len(table.match.deals) - 1,
                    "seat": seat,
                    "action": str(action),
                    "command_id": command_id,
                    "created": now(),
                    "fence": table.fence,  # a cluster's owner token (server/cluster)
                }
            )
        except FencedOut:
            raise
        except Exception as err:
            raise TableError(
                "storage", f"the move could not be saved ({type(err).__name__}); try again"
            ) from err
        self.actions_committed += 1
        index = len(table.match.deals) - 1
        table.match.apply(action, seat)
        table.version += 1
        if table.match.deals[index].is_over and table.shows_deal_ends():
            # analysed in the background for the clients showing it (others ask: server/work/deal_analysis.py)
            self.analyses.deal_ended(table.id, table.match.deals[index], index)
        ended = table.match.is_over and not table.finished
        if table.match.needs_deck and self.pauses.begin(table):
            return  # the finished deal on show: the next is dealt once the pause ends
        if table.match.needs_deck or ended:
            self.next_deals.after(table, ended=ended)

    def _deal_on(self, table: Table) -> None:
        """A pause ended (the caller holds the lock): the next deal's seed round begins."""
        self.store.after_action(table, ended=False)
        self.rounds.begin(table)

    async def press_next(self, table: Table, seat: int | None, deal: int | None) -> None:
        """A person pressed Next on the finished deal on show; the last one to do so ends
        the pause (see :mod:`paston.server.tables.pause`)."""
        async with table.lock:
            self.pauses.press(table, seat, deal)
        self._dealt(table)

    def _dealt(self, table: Table) -> None:
        """A deal was dealt once its seeds were in: send the news, let bots play."""
        self.broadcast(table)
        self.schedule_bots(table)

    def broadcast(self, table: Table) -> None:
        """Queue every connection's next message (the only place states are sent); each
        audience's message is built and encoded once."""
        table.connections = [c for c in table.connections if not c.closed]
        for conn, text in next_messages(table, table.connections).items():
            conn.push(text)

    def resync(self, table: Table, conn: Connection) -> None:
        """Queue a full state for one connection (it asked: it may have missed something)."""
        for c, text in next_messages(table, [conn], full=True).items():
            c.push(text)

    def schedule_bots(self, table: Table) -> None:
        """Let a computer player act if one is to move (see :class:`BotRunner`)."""
        self.bot_runner.schedule(table)

    def stop_bots(self) -> None:
        """Stop every computer player and their worker processes, and the clocks of the
        pauses after deals (at shutdown)."""
        self.pauses.stop(list(self.tables.values()))
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
        self.bot_runner.close()
        self.analyses.close()

    async def join(
        self, table: Table, conn: Connection, *, sends_seeds: bool = False, shows_next: bool = False
    ) -> None:
        """Add a connection to a table once any move being saved is done (a stand-in's,
        say), and send it the state. Nobody else hears of a spectator; a person coming
        online is shown to everyone (see :meth:`presence_changed`). A table refuses
        watchers beyond ``max_watchers`` and tabs of one seat beyond
        :data:`MAX_SEAT_CONNECTIONS`. A finished game stays in memory meanwhile. A
        person's first arrival may shuffle a provisional first deal again
        (:meth:`SeedRounds.arrive`): then everyone gets the whole state. A client that
        ``shows_next`` shows each finished deal and answers Next (:mod:`paston.server.tables.pause`)."""
        table.joining += 1
        try:
            async with table.lock:
                self._check_room(table, conn.seat)
                if shows_next:
                    table.nexters.add(conn)
                came_online = conn.seat is not None and not table.online(conn.seat)
                table.connections.append(conn)
                if self.rounds.arrive(table, conn, sends_seeds=sends_seeds):
                    for c in table.connections:
                        c.held_version = -1
                    self.broadcast(table)
                    self.rounds.begin(table)
                else:
                    for c, text in next_messages(table, [conn]).items():
                        c.push(text)
                    self.rounds.joined(table, conn)  # a reconnection: its seed, if still wanted
                if came_online:
                    self.presence_changed(table)
        finally:
            table.joining -= 1

    def _check_room(self, table: Table, seat: int | None) -> None:
        same = sum(1 for c in table.connections if c.seat == seat and not c.closed)
        if seat is None and same >= self.max_watchers:
            raise TableError(
                "too-many-watchers",
                f"this table has {same} watchers, as many as it takes; try again later",
            )
        if seat is not None and same >= MAX_SEAT_CONNECTIONS:
            raise TableError(
                "too-many-connections",
                f"seat {seat} is open in {same} places already; close one and try again",
            )

    def leave(self, table: Table, conn: Connection) -> None:
        """A connection closed: nobody else hears of a spectator; when a person's last
        connection goes, note when they went offline, show it to everyone, and let a
        stand-in act when it is due."""
        conn.close()
        if conn in table.connections:
            table.connections.remove(conn)
        seat = conn.seat
        if seat is not None and not table.online(seat):
            table.offline_since[seat] = time.monotonic()
            self.presence_changed(table)
        self.schedule_bots(table)
        self.finished_games.trim()

    def presence_changed(self, table: Table) -> None:
        """Who is online changed but not the game: the connections hear it (those that
        hold the current summary hear nothing) at once, or, if they heard such news less
        than :data:`PRESENCE_INTERVAL` seconds ago, once that time is up: a person
        reconnecting in a loop costs a table's watchers at most one message a second."""
        if table.presence_call is not None:
            return  # already due: it will send the latest
        wait = table.presence_at + PRESENCE_INTERVAL - time.monotonic()
        if wait <= 0:
            self._presence_due(table)
        else:
            table.presence_call = asyncio.get_running_loop().call_later(wait, self._presence_due, table)

    def _presence_due(self, table: Table) -> None:
        table.presence_call = None
        table.presence_at = time.monotonic()
        self.broadcast(table)

    # --- after the game ---------------------------------------------------------------------
    def rematch(self, table_id: str, token: str | None) -> tuple[Table, str | None]:
        """A new table with the same rules and seats once a game is over. Only a player
        of the game (its seat token) starts it; then everybody asking gets the same new
        table, and a player asking with their token gets their seat back. The other
        people's seats are kept for their players for :data:`REMATCH_RESERVE_SECONDS`."""
        old = self.get(table_id)
        if not old.finished:
            raise TableError("game-not-over", "a rematch can start when the game is over")
        seat = self.seat_of(old, token)
        name = None if seat is None else old.seats[seat].name or f"Seat {seat}"
        new = self._find(old.rematch) if old.rematch is not None else None
        if new is None and seat is None:
            raise TableError("not-a-player", "only a player of this game can start its rematch")
        if new is None:
            specs: list[dict[str, Any]] = [
                {"kind": "bot", "bot": s.bot} if s.kind == "bot" else {"kind": "human"} for s in old.seats
            ]
            # made, linked to the old table and the asker seated in one transaction
            made, made_token = self.create_seated(
                old.name,
                old.rules,
                specs,
                None if seat is None or name is None else (seat, name),
                takeover_seconds=old.takeover_seconds,
                hints=old.hints,
                next_deal_seconds=old.next_deal_seconds,
                rematch_of=old,
            )
            until = time.monotonic() + REMATCH_RESERVE_SECONDS
            people = [s for s, spec in enumerate(old.seats) if spec.kind == "human" and spec.taken]
            made.reserved = {s: until for s in people if s != seat}
            return made, made_token
        new_token_text = None
        if seat is not None and not new.seats[seat].taken:
            new_token_text = self.take_seat(new.id, seat, name or f"Seat {seat}", reserved_ok=True)
        return new, new_token_text

    def _find(self, table_id: str) -> Table | None:
        try:
            return self.get(table_id)
        except TableError:
            return None

    def record(self, table_id: str) -> dict[str, Any]:
        """The ``paston/1`` record, only once the game is over (it holds every hand)."""
        table = self.get(table_id)
        if not table.finished:
            raise TableError("game-not-over", "the record is available when the game is over")
        return to_record(table.match, table.fairness)
