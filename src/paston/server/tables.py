"""Live tables: one sequential executor per table over the action log.

A table is a :class:`~paston.match.Match` rebuilt from the database (deal seeds and
accepted actions). Commands are checked by the engine, committed to the database, then
applied and broadcast, each audience getting only its own view. Decks come from a
CSPRNG: each deal's seed is committed (its SHA-256 published) before the deal and
revealed once the deal is over, so anyone can check the deck.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from paston.actions import Action
from paston.bots.base import Player, make_player, parse_player_name
from paston.dealing import shuffled_deck
from paston.errors import ParseError, PastonError, RulesError
from paston.match import Match
from paston.record import to_record
from paston.rules import Rules
from paston.server.db import ActionLog, ActionRow, DealRow, SeatRow, TableRow, now
from paston.server.serialize import last_event_json, public_history, view_json

Send = Callable[[str], Awaitable[None]]


class TableError(PastonError, ValueError):
    """A request the server refuses, with a stable code (and a rule for game actions)."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed."""
    return hashlib.sha256(token.encode()).hexdigest()


def _takeover(settings: dict[str, object] | None) -> float | None:
    value = (settings or {}).get("takeover_seconds")
    return float(value) if isinstance(value, (int, float)) else None


def _rematch(settings: dict[str, object] | None) -> str | None:
    value = (settings or {}).get("rematch")
    return value if isinstance(value, str) else None


def deck_from_seed(seed: str) -> list[int]:
    """The deck of a deal from its revealed seed (R1.2: shuffle and cut)."""
    return shuffled_deck(random.Random(seed))


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


def seat_names_of(seats: list[Seat]) -> list[str]:
    """Display names: a bot's name and seat number, a person's name or "Seat N"."""
    return [f"{s.bot} ({i})" if s.kind == "bot" else (s.name or f"Seat {i}") for i, s in enumerate(seats)]


def table_summary(
    table_id: str,
    name: str,
    rules: dict[str, Any],
    seats: list[Seat],
    *,
    finished: bool,
    version: int,
    takeover_seconds: float | None,
    rematch: str | None,
    online: Callable[[int], bool],
    standing_in: Callable[[int], bool],
) -> dict[str, Any]:
    """Public facts about a table (lobby, headers), live or only stored."""
    names = seat_names_of(seats)
    return {
        "id": table_id,
        "name": name,
        "rules": dict(rules),
        "finished": finished,
        "version": version,
        "takeover_seconds": takeover_seconds,
        "rematch": rematch,
        "seats": [
            {
                "seat": i,
                "kind": s.kind,
                "bot": s.bot,
                "name": names[i],
                "taken": s.taken,
                "online": s.kind == "bot" or online(i),
                "standin": s.kind == "human" and s.taken and standing_in(i),
            }
            for i, s in enumerate(seats)
        ],
    }


#: Messages a connection may have waiting to be sent before it is dropped as too slow.
MAX_OUTBOX = 500


@dataclass(eq=False)
class Connection:
    """A WebSocket connected to a table: a seat, or a spectator (``seat is None``).

    Everything sent to it goes through its outbox, in order, by one sender task, so a
    slow client never holds up a table. ``updates`` clients get one full ``state`` and
    then ``update`` messages with what changed; the ``held_*`` fields say what the
    client already holds.
    """

    send: Send
    seat: int | None
    updates: bool = False
    held_version: int = -1  # -1: nothing yet (the next message is a full state)
    held_deal: int = -1
    held_table: dict[str, Any] = field(default_factory=dict)
    held_game: tuple[int, bool, tuple[int, ...]] = (-1, False, ())
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    closed: bool = False
    hangup: Callable[[], Awaitable[None]] | None = None  # ends the socket of a client too far behind
    hangup_task: asyncio.Future[None] | None = None

    def start(self) -> None:
        """Start the sender task (in the running event loop)."""
        self.task = asyncio.get_running_loop().create_task(self._drain())

    def push(self, text: str) -> None:
        """Queue a message; a client too far behind is dropped."""
        if self.closed:
            return
        if self.outbox.qsize() >= MAX_OUTBOX:
            self.close()
            if self.hangup is not None:
                self.hangup_task = asyncio.ensure_future(self.hangup())
            return
        self.outbox.put_nowait(text)

    def close(self) -> None:
        """Stop sending (what is queued is dropped)."""
        self.closed = True
        self.outbox.put_nowait(None)

    async def _drain(self) -> None:
        while (text := await self.outbox.get()) is not None:
            try:
                await self.send(text)
            except Exception:
                self.closed = True
                return


@dataclass
class Table:
    """A live table."""

    id: str
    name: str
    rules: Rules
    seats: list[Seat]
    match: Match
    seeds: list[tuple[str, str]]  # (seed, commit) per entry of match.deals
    version: int = 0  # number of accepted actions
    finished: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    bots: dict[int, Player] = field(default_factory=dict)
    recent: dict[str, int] = field(default_factory=dict)  # command id -> version it produced
    bot_task: asyncio.Task[None] | None = None
    takeover_seconds: float | None = None  # a bot plays for a person offline this long
    offline_since: dict[int, float] = field(default_factory=dict)
    standins: dict[int, Player] = field(default_factory=dict)
    rematch: str | None = None
    joining: int = 0  # connections waiting for the lock to join: the table stays in memory
    _rules_dict: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._rules_dict = self.rules.to_dict()

    def seat_names(self) -> list[str]:
        return seat_names_of(self.seats)

    def online(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def offline_for(self, seat: int) -> float:
        """Seconds since the seat's person was last connected (0 while connected)."""
        if self.online(seat):
            return 0.0
        return time.monotonic() - self.offline_since.setdefault(seat, time.monotonic())

    def standing_in(self, seat: int) -> bool:
        """Whether a bot now plays for this person's seat (the table's takeover setting)."""
        s = self.seats[seat]
        return (
            not self.finished
            and self.takeover_seconds is not None
            and s.kind == "human"
            and s.taken
            and self.offline_for(seat) >= self.takeover_seconds
        )

    def actor(self, seat: int) -> Player | None:
        """The computer player that acts for ``seat`` now, if any."""
        if seat in self.bots:
            return self.bots[seat]
        if self.standing_in(seat):
            if seat not in self.standins:
                self.standins[seat] = make_player("heuristic", seed=secrets.randbits(64))
            return self.standins[seat]
        return None

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (lobby, headers)."""
        return table_summary(
            self.id,
            self.name,
            self._rules_dict,
            self.seats,
            finished=self.finished,
            version=self.version,
            takeover_seconds=self.takeover_seconds,
            rematch=self.rematch,
            online=self.online,
            standing_in=self.standing_in,
        )

    def sheet(self) -> list[dict[str, Any]]:
        """Deal-by-deal scores and running totals, with the resets of R8.2 marked."""
        rows = []
        previous = (0, 0, 0)
        number = 0
        for deal, totals in zip(self.match.deals, self.match.deal_totals, strict=True):
            if deal.result is None or totals is None:
                continue
            number += 1
            scores = deal.result.scores
            resets = [s for s in range(3) if totals[s] == 0 and previous[s] + scores[s] == -self.rules.target]
            rows.append(
                {
                    "deal": number,
                    "declarer": deal.result.declarer,
                    "outcome": deal.result.outcome,
                    "contract": None if deal.result.contract is None else deal.result.contract.name_in_record,
                    "scores": list(scores),
                    "totals": list(totals),
                    "resets": resets,
                }
            )
            previous = totals
        return rows

    def _public_summary(self) -> dict[str, Any]:
        """The summary as messages carry it: without ``version`` (the message's own
        version says it)."""
        summary = self.summary()
        del summary["version"]
        return summary

    def _shared(self, summary: dict[str, Any]) -> dict[str, Any]:
        """The parts of a state that every audience gets alike."""
        current = len(self.match.deals) - 1
        deals = []
        for i, (seed, commit) in enumerate(self.seeds):
            over = i < current or self.match.deals[i].is_over
            deals.append({"commit": commit, "seed": seed if over else None})
        return {
            "table": summary,
            "sheet": self.sheet(),
            "deals": deals,
            "winners": list(self.match.winners),
            "previous_trick": self._previous_trick(),
        }

    def _previous_trick(self) -> dict[str, Any] | None:
        """The final trick of the last finished deal that was played (public: its cards
        were played face up), so it can still be shown once the next deal has begun."""
        for deal in reversed(self.match.deals):
            if deal.is_over and deal.completed_tricks:
                last = deal.completed_tricks[-1]
                return {"plays": [{"seat": s, "card": str(c)} for s, c in last.plays], "winner": last.winner}
        return None

    def _game_stamp(self) -> tuple[int, bool, tuple[int, ...]]:
        """Changes whenever the sheet, the deck commitments, the winners or the previous
        trick may have changed: a new deal, a deal's end, the game's end."""
        deal = self.match.deals[-1] if self.match.deals else None
        return (len(self.match.deals), deal is not None and deal.is_over, tuple(self.match.winners))

    def messages(self, connections: list[Connection], *, full: bool = False) -> dict[Connection, str]:
        """The next message of each connection, built from its own audience's view and
        marked as held. A connection gets a full ``state`` when it holds nothing yet,
        does not take updates, or ``full`` is asked (a resync); otherwise an ``update``
        with the view (without its history), the new history entry (``event``) or the
        whole history (a new deal), and the shared parts that changed. Connections that
        hold the same thing share one encoded text."""
        out: dict[Connection, str] = {}
        if not connections:
            return out
        version = self.version
        deal_index = len(self.match.deals) - 1
        summary = self._public_summary()
        game = self._game_stamp()
        shared: dict[str, Any] | None = None
        public: list[dict[str, Any]] | None = None
        views: dict[int | None, Any] = {}
        texts: dict[tuple[object, ...], str] = {}
        for conn in connections:
            seat = conn.seat
            send_full = full or not conn.updates or conn.held_version < 0
            if send_full:
                key: tuple[object, ...] = (seat, "full")
            else:
                if conn.held_deal != deal_index or conn.held_version not in (version, version - 1):
                    history = "all"
                elif conn.held_version == version - 1:
                    history = "event"
                else:
                    history = "none"
                key = (seat, history, conn.held_table == summary, conn.held_game == game)
            text = texts.get(key)
            if text is None:
                view = views.get(seat)
                if view is None:
                    view = views[seat] = self.match.view(seat)
                if public is None and (send_full or key[1] == "all"):
                    public = public_history(views.get(None) or self.match.view(None))
                if send_full:
                    if shared is None:
                        shared = self._shared(summary)
                    body = {
                        "type": "state",
                        "version": version,
                        "you": seat,
                        "view": view_json(view, public),
                        **shared,
                    }
                else:
                    body = {"type": "update", "version": version, "you": seat}
                    body["view"] = view_json(view, public, history=key[1] == "all")
                    if key[1] == "event":
                        body["event"] = last_event_json(view)
                    if not key[2]:
                        body["table"] = summary
                    if not key[3]:
                        if shared is None:
                            shared = self._shared(summary)
                        body.update({k: v for k, v in shared.items() if k != "table"})
                text = texts[key] = json.dumps(body, separators=(",", ":"))
            out[conn] = text
            conn.held_version = version
            conn.held_deal = deal_index
            conn.held_table = summary
            conn.held_game = game
        return out


#: Finished games kept in memory (least recently used go first; the database keeps all).
KEEP_FINISHED = 64


class TableManager:
    """The tables of a server, backed by the database. Every unfinished table is in
    memory; finished games are loaded when asked for and at most ``keep_finished`` of
    them stay (the least recently used without a connection are dropped first)."""

    def __init__(
        self, sessions: sessionmaker[Session], *, bot_delay: float = 0.6, keep_finished: int = KEEP_FINISHED
    ) -> None:
        self.sessions = sessions
        self.log = ActionLog(sessions.kw["bind"])
        self.bot_delay = bot_delay
        self.keep_finished = keep_finished
        self.tables: dict[str, Table] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()  # in memory, least recently used first

    # --- loading --------------------------------------------------------------------------
    def load_all(self) -> None:
        """Rebuild every unfinished table from the action log (finished games are loaded
        when asked for)."""
        with self.sessions() as session:
            for row in session.scalars(select(TableRow).where(TableRow.finished.is_(None))).all():
                self._resident(self._rebuild(session, row))

    def _resident(self, table: Table) -> Table:
        self.tables[table.id] = table
        if table.finished:
            self._keep(table)
        return table

    def _keep(self, table: Table) -> None:
        """A finished game in memory: most recently used now; drop the oldest beyond the
        limit."""
        self._finished[table.id] = None
        self._finished.move_to_end(table.id)
        self._trim()

    def _trim(self) -> None:
        excess = len(self._finished) - self.keep_finished
        for table_id in list(self._finished):
            if excess <= 0:
                break
            table = self.tables[table_id]
            busy = (
                table.connections
                or table.joining
                or (table.bot_task is not None and not table.bot_task.done())
            )
            if busy:
                continue  # still watched: stays until its last connection closes
            del self._finished[table_id]
            del self.tables[table_id]
            excess -= 1

    def _rebuild(self, session: Session, row: TableRow) -> Table:
        rules = Rules.from_dict(row.rules)
        seats_rows = sorted(
            session.scalars(select(SeatRow).where(SeatRow.table_id == row.id)), key=lambda s: s.seat
        )
        seats = [Seat(s.kind, s.bot, s.name, s.token_hash) for s in seats_rows]
        match = Match(first_dealer=row.first_dealer, rules=rules, seats=("", "", ""))
        table = Table(row.id, row.name, rules, seats, match, [])
        table.takeover_seconds = _takeover(row.settings)
        table.rematch = _rematch(row.settings)
        match.seats = tuple(table.seat_names())  # type: ignore[assignment]
        deal_rows = sorted(
            session.scalars(select(DealRow).where(DealRow.table_id == row.id)), key=lambda d: d.number
        )
        actions = sorted(
            session.scalars(select(ActionRow).where(ActionRow.table_id == row.id)), key=lambda a: a.seq
        )
        by_deal: dict[int, list[ActionRow]] = {}
        for a in actions:
            by_deal.setdefault(a.deal, []).append(a)
        for d in deal_rows:
            match.deal_next(deck_from_seed(d.seed))
            table.seeds.append((d.seed, d.commit))
            for a in by_deal.get(d.number, []):
                match.apply(Action.parse(a.action), a.seat)
                table.version += 1
        self._deal_on(session, table)  # a deal the server had no time to deal before stopping
        table.finished = match.is_over
        if table.finished and row.finished is None:  # stopped before marking it
            row.finished = now()
        session.commit()
        if not table.finished:
            self._make_bots(table)
        return table

    def _make_bots(self, table: Table) -> None:
        for i, s in enumerate(table.seats):
            if s.kind == "bot" and s.bot:
                table.bots[i] = make_player(s.bot, seed=secrets.randbits(64))

    # --- creating and seating ---------------------------------------------------------------
    def create(
        self,
        name: str,
        rules: dict[str, Any],
        seats: list[dict[str, Any]],
        *,
        takeover_seconds: float | None = None,
    ) -> Table:
        """Create a table; ``seats`` are three ``{"kind": "human"}`` or
        ``{"kind": "bot", "bot": "pimc", "level": 3}``."""
        name = name.strip()
        if not 1 <= len(name) <= 80:
            raise TableError("bad-name", "the table name must have 1 to 80 characters")
        try:
            rule_set = Rules.from_dict(rules)
        except RulesError as err:
            raise TableError("bad-rules", str(err)) from None
        if len(seats) != 3:
            raise TableError("bad-seats", "a table has exactly three seats")
        seat_list = []
        for i, spec in enumerate(seats):
            kind = spec.get("kind")
            if kind == "human":
                seat_list.append(Seat("human"))
            elif kind == "bot":
                bot = str(spec.get("bot", "pimc")).strip().lower()
                level = spec.get("level")
                if level is not None:
                    bot = f"{bot}:{level}"
                try:
                    parse_player_name(bot)
                except ParseError as err:
                    raise TableError("bad-seats", f"seat {i}: {err}") from None
                seat_list.append(Seat("bot", bot=bot))
            else:
                raise TableError("bad-seats", f"seat {i} must be 'human' or 'bot', not {kind!r}")
        table_id = secrets.token_urlsafe(9)
        first_dealer = secrets.randbelow(3)
        with self.sessions() as session, session.begin():
            session.add(
                TableRow(
                    id=table_id,
                    name=name,
                    rules=rule_set.to_dict(),
                    settings={"takeover_seconds": takeover_seconds},
                    first_dealer=first_dealer,
                )
            )
            session.flush()  # the table row exists before its seats refer to it
            for i, s in enumerate(seat_list):
                session.add(SeatRow(table_id=table_id, seat=i, kind=s.kind, bot=s.bot))
        match = Match(first_dealer=first_dealer, rules=rule_set, seats=("", "", ""))
        table = Table(table_id, name, rule_set, seat_list, match, [])
        table.takeover_seconds = takeover_seconds
        match.seats = tuple(table.seat_names())  # type: ignore[assignment]
        self._make_bots(table)
        with self.sessions() as session, session.begin():
            self._deal_on(session, table)
        self.tables[table_id] = table
        return table

    def get(self, table_id: str) -> Table:
        """A table by id: in memory, or a finished game loaded from the database."""
        table = self.tables.get(table_id)
        if table is not None:
            if table.finished:
                self._finished.move_to_end(table_id)
            return table
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                raise TableError("no-table", f"there is no table {table_id!r}")
            return self._resident(self._rebuild(session, row))

    def finished_summaries(self, limit: int) -> list[dict[str, Any]]:
        """The summaries of the ``limit`` most recently finished games, newest first,
        from memory or straight from the stored rows (no replay)."""
        with self.sessions() as session:
            rows = session.scalars(
                select(TableRow)
                .where(TableRow.finished.is_not(None))
                .order_by(TableRow.finished.desc(), TableRow.created.desc(), TableRow.id)
                .limit(limit)
            ).all()
            stored = [r.id for r in rows if r.id not in self.tables]
            seat_rows: dict[str, list[SeatRow]] = {}
            versions: dict[str, int] = {}
            if stored:
                for seat_row in session.scalars(select(SeatRow).where(SeatRow.table_id.in_(stored))):
                    seat_rows.setdefault(seat_row.table_id, []).append(seat_row)
                counted = session.execute(
                    select(ActionRow.table_id, func.count())
                    .where(ActionRow.table_id.in_(stored))
                    .group_by(ActionRow.table_id)
                )
                versions = {table_id: int(n) for table_id, n in counted}
        out = []
        for row in rows:
            table = self.tables.get(row.id)
            if table is not None:
                out.append(table.summary())
                continue
            seats = [
                Seat(s.kind, s.bot, s.name, s.token_hash)
                for s in sorted(seat_rows.get(row.id, []), key=lambda s: s.seat)
            ]
            out.append(
                table_summary(
                    row.id,
                    row.name,
                    Rules.from_dict(row.rules).to_dict(),
                    seats,
                    finished=True,
                    version=versions.get(row.id, 0),
                    takeover_seconds=_takeover(row.settings),
                    rematch=_rematch(row.settings),
                    online=lambda seat: False,
                    standing_in=lambda seat: False,
                )
            )
        return out

    def take_seat(self, table_id: str, seat: int, name: str) -> str:
        """Give a free human seat to a person; returns the seat token (shown once)."""
        table = self.get(table_id)
        if seat not in (0, 1, 2):
            raise TableError("bad-seat", "seats are 0, 1 and 2")
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise TableError("bad-name", "your name must have 1 to 40 characters")
        s = table.seats[seat]
        if s.taken:
            raise TableError("seat-taken", f"seat {seat} is already taken")
        token = secrets.token_urlsafe(24)
        s.name = name
        s.token_hash = hash_token(token)
        with self.sessions() as session, session.begin():
            row = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            ).one()
            row.name = name
            row.token_hash = s.token_hash
        table.match.seats = tuple(table.seat_names())  # type: ignore[assignment]
        return token

    def seat_of(self, table: Table, token: str | None) -> int | None:
        """The seat a token belongs to (``None``: a spectator). A bad token is an error."""
        if token is None:
            return None
        digest = hash_token(token)
        for i, s in enumerate(table.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return i
        raise TableError("bad-token", "this seat token is not valid for this table")

    # --- playing --------------------------------------------------------------------------------
    def _deal_on(self, session: Session, table: Table) -> None:
        """Deal as long as the game needs a deck (redeals included), committing each seed."""
        match = table.match
        while match.needs_deck:
            seed = secrets.token_hex(16)
            commit = hashlib.sha256(seed.encode()).hexdigest()
            session.add(DealRow(table_id=table.id, number=len(match.deals), seed=seed, commit=commit))
            match.deal_next(deck_from_seed(seed))
            table.seeds.append((seed, commit))

    async def act(
        self, table_id: str, seat: int, text: str, version: int | None, command_id: str | None
    ) -> int:
        """Apply one action for ``seat``; returns the new version. Checked by the engine,
        committed, then broadcast."""
        table = self.get(table_id)
        async with table.lock:
            if command_id is not None and command_id in table.recent:
                return table.recent[command_id]
            if version is not None and version != table.version:
                raise TableError("stale", f"the table is at version {table.version}, not {version}: resync")
            try:
                action = Action.parse(text)
            except ParseError as err:
                raise TableError(err.code, str(err)) from None
            deal = table.match.deal
            if deal is None:
                raise TableError("game-over", "the game is over", "R8.3")
            error = deal.why_illegal(action, seat)
            if error is not None:
                raise TableError(error.code, str(error), error.rule)
            await self._commit(table, seat, action, command_id)
            if command_id is not None:
                table.recent[command_id] = table.version
                if len(table.recent) > 1000:
                    table.recent.pop(next(iter(table.recent)))
            version_now = table.version
        self.broadcast(table)
        self.schedule_bots(table)
        return version_now

    def broadcast(self, table: Table) -> None:
        """Queue every connection's next message (the only place states are sent); each
        audience's message is built and encoded once."""
        table.connections = [c for c in table.connections if not c.closed]
        for conn, text in table.messages(table.connections).items():
            conn.push(text)

    def resync(self, table: Table, conn: Connection) -> None:
        """Queue a full state for one connection (it asked: it may have missed something)."""
        for c, text in table.messages([conn], full=True).items():
            c.push(text)

    def schedule_bots(self, table: Table) -> None:
        """If a computer player is to move (a bot's seat, or a person's seat taken over
        after the table's delay), let it act after a short delay, in a worker thread; if
        a person to move is offline and takeover is on, check again when it is due."""
        seat = table.match.to_move
        if seat is None:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        loop = asyncio.get_running_loop()
        if table.actor(seat) is not None:
            table.bot_task = loop.create_task(self._bot_turn(table))
        elif table.takeover_seconds is not None and table.seats[seat].taken and not table.online(seat):
            due = table.takeover_seconds - table.offline_for(seat)
            table.bot_task = loop.create_task(self._after(max(0.0, due) + 0.01, table))

    async def _after(self, delay: float, table: Table) -> None:
        await asyncio.sleep(delay)
        table.bot_task = None
        self.schedule_bots(table)

    async def join(self, table: Table, conn: Connection) -> None:
        """Add a connection to a table once any move being saved is done (a stand-in's,
        say), and send everyone the news. A finished game stays in memory meanwhile."""
        table.joining += 1
        try:
            async with table.lock:
                table.connections.append(conn)
                self.broadcast(table)
        finally:
            table.joining -= 1

    def seat_left(self, table: Table, seat: int | None) -> None:
        """A connection closed: note when a person went offline, and let a stand-in act
        when it is due."""
        if seat is not None and not table.online(seat):
            table.offline_since[seat] = time.monotonic()
        self.schedule_bots(table)
        self._trim()

    async def _bot_turn(self, table: Table) -> None:
        while True:
            seat = table.match.to_move
            player = None if seat is None else table.actor(seat)
            if seat is None or player is None:
                table.bot_task = None
                self.schedule_bots(table)
                return
            await asyncio.sleep(self.bot_delay)
            if table.actor(seat) is not player:
                continue  # the person came back
            version = table.version
            view = table.match.view(seat)
            action = await asyncio.to_thread(player.choose, view)
            async with table.lock:
                deal = table.match.deal
                if version != table.version or deal is None or deal.why_illegal(action, seat) is not None:
                    continue
                if table.actor(seat) is not player:
                    continue
                try:
                    await self._commit(table, seat, action, None)
                except TableError:
                    continue  # the database failed: nothing changed, try again
            self.broadcast(table)

    async def _commit(self, table: Table, seat: int, action: Action, command_id: str | None) -> None:
        """Log a legal action (committed first: the log is the truth), apply it, and deal
        on. The caller holds the table's lock. Nothing changes if the database fails."""
        deal_number = len(table.match.deals) - 1
        try:
            await self.log.append_durably(
                {
                    "table_id": table.id,
                    "seq": table.version,
                    "deal": deal_number,
                    "seat": seat,
                    "action": str(action),
                    "command_id": command_id,
                    "created": now(),
                }
            )
        except Exception as err:
            raise TableError(
                "storage", f"the move could not be saved ({type(err).__name__}); try again"
            ) from err
        table.match.apply(action, seat)
        table.version += 1
        ended = table.match.is_over and not table.finished
        if table.match.needs_deck or ended:
            with self.sessions() as session, session.begin():
                self._deal_on(session, table)
                if ended:
                    row = session.get(TableRow, table.id)
                    if row is not None:
                        row.finished = now()
            if ended:  # marked in memory once the row says so
                table.finished = True
                self._keep(table)

    def rematch(self, table_id: str, token: str | None) -> tuple[Table, str | None]:
        """A new table with the same rules and seats once a game is over (people's seats
        free; whoever asks with their seat token gets the same seat back). Everybody
        asking gets the same new table."""
        old = self.get(table_id)
        if not old.finished:
            raise TableError("game-not-over", "a rematch can start when the game is over")
        seat = self.seat_of(old, token)
        new = self._find(old.rematch) if old.rematch is not None else None
        if new is None:
            specs: list[dict[str, Any]] = [
                {"kind": "bot", "bot": s.bot} if s.kind == "bot" else {"kind": "human"} for s in old.seats
            ]
            new = self.create(old.name, old.rules.to_dict(), specs, takeover_seconds=old.takeover_seconds)
            old.rematch = new.id
            with self.sessions() as session, session.begin():
                row = session.get(TableRow, old.id)
                if row is not None:
                    row.settings = {**(row.settings or {}), "rematch": new.id}
        new_token = None
        if seat is not None and not new.seats[seat].taken:
            new_token = self.take_seat(new.id, seat, old.seats[seat].name or f"Seat {seat}")
        return new, new_token

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
        return to_record(table.match)
