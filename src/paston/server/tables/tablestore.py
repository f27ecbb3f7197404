"""Tables in the database: a new table's rows, a table rebuilt from its rows (deal
seeds and the action log), seats taken, deals dealt, games finished, and the summaries
of finished games read straight from the rows.

Rules are stored as the record's ``rules`` object and read back into one
:class:`~paston.rules.Rules` (held by the table's match).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from paston.actions import Action
from paston.fairness import derive_deck, link, make_entry
from paston.match import Match
from paston.rules import Rules
from paston.server.lessons.course import lesson_by_id
from paston.server.store.db import (
    ActionRow,
    AnalysisRow,
    DealRow,
    FencedOut,
    SeatRow,
    TableRow,
    fence_check,
    now,
)
from paston.server.tables.decks import VERSION, SeedRound, deck_from_seed, new_secret
from paston.server.tables.pause import pause_left
from paston.server.tables.seating import Seat
from paston.server.tables.table import NEXT_DEAL_SECONDS, Table, table_summary

#: The ``algorithm`` of a deal row that is a lesson's fixed deal (its ``seed``: the lesson).
LESSON_DECK = "paston-lesson/1"


def _takeover(settings: Mapping[str, object] | None) -> float | None:
    value = (settings or {}).get("takeover_seconds")
    return float(value) if isinstance(value, (int, float)) else None


def _hints(settings: Mapping[str, object] | None) -> bool:
    return (settings or {}).get("hints") is True


def _next_deal(settings: Mapping[str, object] | None) -> float:
    """The table's ``next_deal_seconds`` (tables stored before the setting: the default)."""
    value = (settings or {}).get("next_deal_seconds")
    return float(value) if isinstance(value, (int, float)) else NEXT_DEAL_SECONDS


def _rematch(settings: Mapping[str, object] | None) -> str | None:
    value = (settings or {}).get("rematch")
    return value if isinstance(value, str) else None


def _listed(settings: Mapping[str, object] | None) -> bool:
    """Whether the lobby lists the table (tables stored before the setting: yes)."""
    return (settings or {}).get("listed") is not False


def _lesson(settings: Mapping[str, object] | None) -> str | None:
    value = (settings or {}).get("lesson")
    return value if isinstance(value, str) else None


def _retired(settings: Mapping[str, object] | None) -> bool:
    return bool((settings or {}).get("retired"))


def _seats(rows: list[SeatRow]) -> list[Seat]:
    return [Seat(s.kind, s.bot, s.name, s.token_hash) for s in sorted(rows, key=lambda s: s.seat)]


def _previous_link(table: Table) -> str | None:
    last = table.fairness[-1] if table.fairness else None
    return None if last is None else link(last)


def lesson_deck(table: Table) -> list[int] | None:
    """The deck of the table's next deal if it is a lesson's first deal (a fixed deal,
    not shuffled: decision L12 in docs/rules-decisions.md), else ``None``."""
    if table.lesson is None or table.match.deals:
        return None
    lesson = lesson_by_id(table.lesson)
    return None if lesson is None else lesson.deck()


def _deal_lesson(session: Session, table: Table, deck: list[int]) -> None:
    """Deal a lesson's fixed first deal: its row names the lesson (``LESSON_DECK``), and it
    has no fairness object (nobody shuffled it, so there is nothing to check)."""
    commit = hashlib.sha256(f"{LESSON_DECK}:{table.lesson}".encode()).hexdigest()
    session.add(
        DealRow(
            table_id=table.id,
            number=0,
            seed=str(table.lesson),
            commit=commit,
            algorithm=LESSON_DECK,
            seeds=[],
        )
    )
    table.match.deal_next(deck)
    table.seeds.append((str(table.lesson), commit))
    table.fairness.append(None)


def _deal_fair(table: Table, r: SeedRound, choices: list[tuple[str, str]]) -> None:
    """Deal the round's deck (:func:`paston.fairness.derive_deck`) and keep its fairness
    object; a round that shuffles the provisional first deal again replaces it."""
    if r.again:
        table.restart_match()
    deck = derive_deck(r.secret, table.id, r.deal, r.previous, [seed for seed, _ in choices])
    table.match.deal_next(deck)
    table.seeds.append((r.secret, r.commit))
    table.fairness.append(make_entry(table.id, r.deal, r.secret, choices, r.previous))


@contextmanager
def dealt_only_if_stored(table: Table) -> Iterator[None]:
    """Deal in memory only what the database stored: the deals, seeds, fairness objects
    and seed round the block changes (:func:`deal_on` changes them inside its
    transaction) are put back if the block raises, so a commit that fails (the database
    restarting) leaves the table as it was, ready to deal again. Without it, a deal dealt
    in memory but never stored was played on, and the table could no longer be rebuilt
    from its rows (found by the chaos suite: ``IllegalActionError`` at every worker)."""
    saved = (table.match, table.match.clone(), list(table.seeds), list(table.fairness), table.round)
    dropped = set(table.dropped)
    try:
        yield
    except BaseException:
        match, copy, seeds, fairness, r = saved
        table.match = copy if table.match is match else match  # a restarted match: the old one
        table.seeds[:], table.fairness[:], table.round = seeds, fairness, r
        table.dropped.clear()
        table.dropped.update(dropped)
        raise


def holds_fence(session: Session, table: Table, *, required: bool = False) -> bool:
    """Whether this worker may change the table in ``session``'s transaction: it holds the
    fencing token the table's row holds (:func:`paston.server.store.db.fence_check`, which locks
    the row until the transaction ends). A table without a token (one process) is not
    checked, unless ``required`` (a cluster's store: such a table is not this worker's)."""
    if table.fence is None:
        return not required
    held = session.connection().execute(fence_check(), {"t": table.id, "f": table.fence})
    return held.rowcount == 1


def check_fence(session: Session, table: Table, *, required: bool = False) -> None:
    """Go on only if this worker still owns the table (:func:`holds_fence`), else raise
    :class:`FencedOut`: the transaction commits nothing."""
    if table.gone or not holds_fence(session, table, required=required):
        raise FencedOut(table.id, table.fence)


def deal_on(session: Session, table: Table, *, required: bool = False) -> None:
    """Deal as long as the game needs a deck (redeals included) and its seeds are in.
    Each deal's secret and commitment are added to the session when its round opens
    (before any seed is asked for); a round that must wait for people's seeds stays in
    ``table.round`` (see :mod:`paston.server.tables.seeds`), and its row gets the seeds when
    it is dealt."""
    match = table.match
    if match.needs_deck:
        check_fence(session, table, required=required)
    if match.needs_deck and table.round is None and (deck := lesson_deck(table)) is not None:
        _deal_lesson(session, table, deck)
    while match.needs_deck:
        r = table.round
        if r is None:
            secret, commit = new_secret()
            r = SeedRound(len(match.deals), secret, commit, _previous_link(table), table.seed_seats())
            table.round = r
            row = DealRow(table_id=table.id, number=r.deal, seed=secret, commit=commit, algorithm=VERSION)
            session.add(row)
            if not r.ready():
                return
        elif not r.ready():
            return
        else:
            row = session.scalars(
                select(DealRow).where(DealRow.table_id == table.id, DealRow.number == r.deal)
            ).one()
        choices = r.choices()
        row.seeds = [[seed, by] for seed, by in choices]
        _deal_fair(table, r, choices)
        table.round = None


class TableStore:
    """Reads and writes the rows of tables (the action log itself is written by
    :class:`~paston.server.store.actionlog.ActionLog`)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        # a cluster's worker (server/cluster): every change of a table is checked against
        # its fencing token; a refused one is told to ``on_fenced`` (the table leaves memory)
        self.fenced = False
        self.on_fenced: Callable[[str, int | None], None] | None = None

    @contextmanager
    def changing(self, table: Table | None) -> Iterator[Session]:
        """A transaction that changes ``table``: committed only while this worker owns
        the table (:func:`check_fence`, first thing in it), else nothing is, and
        :class:`FencedOut` is raised (and told to ``on_fenced``). ``None``: a new table's
        rows, nobody else's yet."""
        try:
            with self.sessions() as session, session.begin():
                if table is not None:
                    check_fence(session, table, required=self.fenced)
                yield session
        except FencedOut as err:
            self._fenced_out(err.table_id, err.fence)
            raise

    def _fenced_out(self, table_id: str, fence: int | None) -> None:
        if self.on_fenced is not None:
            self.on_fenced(table_id, fence)

    def add(self, table: Table, first_dealer: int, rematch_of: Table | None = None) -> None:
        """Store a new table with its seats (a seat taken at creation with its person), and
        deal its first deal; ``rematch_of``: the finished table whose rematch it is, linked
        in the same transaction (only while this worker owns that table)."""
        with self.changing(rematch_of) as session:
            if rematch_of is not None:
                row = session.get(TableRow, rematch_of.id)
                if row is not None:
                    row.settings = {**(row.settings or {}), "rematch": table.id}
            session.add(
                TableRow(
                    id=table.id,
                    name=table.name,
                    rules=table.rules.to_dict(),
                    settings={
                        "takeover_seconds": table.takeover_seconds,
                        "hints": table.hints,
                        "next_deal_seconds": table.next_deal_seconds,
                        "listed": table.listed,
                        "lesson": table.lesson,
                    },
                    first_dealer=first_dealer,
                )
            )
            session.flush()  # the table row exists before its seats refer to it
            for i, s in enumerate(table.seats):
                session.add(
                    SeatRow(
                        table_id=table.id,
                        seat=i,
                        kind=s.kind,
                        bot=s.bot,
                        name=s.name,
                        token_hash=s.token_hash,
                    )
                )
            deal_on(session, table)

    def load(self, table_id: str, fence: int | None = None) -> Table | None:
        """A table rebuilt from its rows, or ``None`` if there is none; ``fence``: the
        token of the worker that owns it now (a cluster), which a deal dealt while
        rebuilding is committed with."""
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            return None if row is None else self._rebuild(session, row, fence)

    def load_unfinished(self) -> list[Table]:
        """Every unfinished table that is not retired, rebuilt, oldest first."""
        with self.sessions() as session:
            rows = session.scalars(
                select(TableRow).where(TableRow.finished.is_(None)).order_by(TableRow.created, TableRow.id)
            ).all()
            return [self._rebuild(session, row) for row in rows if not _retired(row.settings)]

    def _rebuild(self, session: Session, row: TableRow, fence: int | None = None) -> Table:
        seats = _seats(list(session.scalars(select(SeatRow).where(SeatRow.table_id == row.id))))
        match = Match(first_dealer=row.first_dealer, rules=Rules.from_dict(row.rules), seats=("", "", ""))
        table = Table(row.id, row.name, seats, match)
        table.fence = fence
        table.takeover_seconds = _takeover(row.settings)
        table.hints = _hints(row.settings)
        table.next_deal_seconds = _next_deal(row.settings)
        table.rematch = _rematch(row.settings)
        table.retired = _retired(row.settings)
        table.listed = _listed(row.settings)
        table.lesson = _lesson(row.settings)
        table.name_seats()
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
            if d.algorithm == LESSON_DECK and (deck := lesson_deck(table)) is not None:
                match.deal_next(deck)
                table.seeds.append((d.seed, d.commit))
                table.fairness.append(None)
            elif d.algorithm is not None:
                r = SeedRound(d.number, d.seed, d.commit, _previous_link(table), frozenset())
                if d.seeds is None:  # its seeds were being collected: nobody is connected now
                    table.round = r
                    break
                _deal_fair(table, r, [(seed, by) for seed, by in d.seeds])
            else:  # dealt before paston-deck/1
                match.deal_next(deck_from_seed(d.seed))
                table.seeds.append((d.seed, d.commit))
                table.fairness.append(None)
            for a in by_deal.get(d.number, []):
                match.apply(Action.parse(a.action), a.seat)
                table.version += 1
                if a.command_id is not None:  # a resend after the restart is still known
                    table.recent.remember(a.seat, a.command_id, table.version, a.action)
        # a finished deal still on show: its pause goes on (Pauses.resume); else a deal the
        # server had no time to deal, or a pause over meanwhile: deal now (the owner's token)
        table.left_on_show = pause_left(table, actions[-1].created if actions else None)
        if table.left_on_show is None:
            deal_on(session, table, required=self.fenced)
        table.finished = match.is_over
        if table.finished and row.finished is None:  # stopped before marking it
            row.finished = now()
        session.commit()
        return table

    def forget(self, table_id: str) -> None:
        """Delete a table and everything stored of it (a private table, left)."""
        with self.sessions() as session, session.begin():
            for model in (ActionRow, AnalysisRow, DealRow, SeatRow):
                session.execute(delete(model).where(model.table_id == table_id))
            session.execute(delete(TableRow).where(TableRow.id == table_id))

    def save_seat(self, table: Table, seat: int, name: str, token_hash: str) -> None:
        """A person took a seat."""
        with self.changing(table) as session:
            row = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table.id, SeatRow.seat == seat)
            ).one()
            row.name = name
            row.token_hash = token_hash

    def shuffle_first_deal_again(self, table: Table) -> None:
        """Open a round that shuffles the table's provisional first deal again, asking the
        seats in :meth:`Table.seed_seats`: the provisional deals' rows are deleted (nobody
        acted on them) and deal 0 gets a fresh secret, stored before any seed is asked.
        The table keeps showing the provisional deal until the new one is dealt."""
        secret, commit = new_secret()
        with self.changing(table) as session:
            session.execute(delete(DealRow).where(DealRow.table_id == table.id))
            session.add(DealRow(table_id=table.id, number=0, seed=secret, commit=commit, algorithm=VERSION))
        table.round = SeedRound(0, secret, commit, None, table.seed_seats(), again=True)

    def deal_round(self, table: Table) -> None:
        """The seeds of the table's round are in (or the time ran out): store them, then
        deal (nothing changes if that fails), and open the next round if the deal is
        redealt at once."""
        with dealt_only_if_stored(table):
            self._deal_round(table)

    def _deal_round(self, table: Table) -> None:
        r = table.round
        if r is not None and r.ready():
            choices = r.choices()
            # fenced like every change: a worker paused past its lease and resumed must not
            # write seeds over the deal its successor dealt (the stored deal would no
            # longer match the actions, and the table could not be rebuilt)
            with self.changing(table) as session:
                row = session.scalars(
                    select(DealRow).where(DealRow.table_id == table.id, DealRow.number == r.deal)
                ).one()
                row.seeds = [[seed, by] for seed, by in choices]
            _deal_fair(table, r, choices)
            table.round = None
        with self.changing(table) as session:  # a deal redealt at once: its round (or its deck)
            deal_on(session, table)

    def after_action(self, table: Table, *, ended: bool) -> None:
        """Deal what the game needs next and, when the game just ended, mark it finished
        (only while this worker owns the table, in a cluster)."""
        with dealt_only_if_stored(table), self.changing(table) as session:
            deal_on(session, table)
            if ended:
                row = session.get(TableRow, table.id)
                if row is not None:
                    row.finished = now()

    def mark_retired(self, tables: list[Table], *, retired: bool) -> list[str]:
        """Mark tables retired (with when: not loaded at a start) or open again; returns
        the ids of those left as they were because this worker no longer owns them."""
        with self.sessions() as session, session.begin():
            refused = [t for t in tables if t.gone or not holds_fence(session, t, required=self.fenced)]
            table_ids = [t.id for t in tables if t not in refused]
            chunks = [table_ids[i : i + 500] for i in range(0, len(table_ids), 500)]
            rows = [
                r for chunk in chunks for r in session.scalars(select(TableRow).where(TableRow.id.in_(chunk)))
            ]
            for row in rows:
                settings = {k: v for k, v in (row.settings or {}).items() if k != "retired"}
                row.settings = {**settings, "retired": now().isoformat()} if retired else settings
        for table in refused:
            self._fenced_out(table.id, table.fence)
        return [t.id for t in refused]

    def finished_summaries(self, limit: int, live: Mapping[str, Table]) -> list[dict[str, Any]]:
        """The summaries of the ``limit`` most recently finished games, newest first:
        a table in ``live`` gives its own, the others are read from the rows (no replay)."""
        with self.sessions() as session:
            rows = session.scalars(
                select(TableRow)
                .where(TableRow.finished.is_not(None))
                .order_by(TableRow.finished.desc(), TableRow.created.desc(), TableRow.id)
                .limit(limit)
            ).all()
            stored = [r.id for r in rows if r.id not in live]
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
            table = live.get(row.id)
            if table is not None:
                out.append(table.summary())
                continue
            out.append(
                table_summary(
                    row.id,
                    row.name,
                    Rules.from_dict(row.rules),
                    _seats(seat_rows.get(row.id, [])),
                    finished=True,
                    version=versions.get(row.id, 0),
                    takeover_seconds=_takeover(row.settings),
                    rematch=_rematch(row.settings),
                    hints=_hints(row.settings),
                    next_deal_seconds=_next_deal(row.settings),
                    online=lambda seat: False,
                    standing_in=lambda seat: False,
                )
            )
        return out
