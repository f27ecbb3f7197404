"""Tables in the database: a new table's rows, a table rebuilt from its rows (deal
seeds and the action log), seats taken, deals dealt, games finished, and the summaries
of finished games read straight from the rows.

Rules are stored as the record's ``rules`` object and read back into one
:class:`~paston.rules.Rules` (held by the table's match).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from paston.actions import Action
from paston.match import Match
from paston.rules import Rules
from paston.server.db import ActionRow, DealRow, SeatRow, TableRow, now
from paston.server.decks import deck_from_seed, new_seed
from paston.server.seating import Seat
from paston.server.table import Table, table_summary


def _takeover(settings: Mapping[str, object] | None) -> float | None:
    value = (settings or {}).get("takeover_seconds")
    return float(value) if isinstance(value, (int, float)) else None


def _rematch(settings: Mapping[str, object] | None) -> str | None:
    value = (settings or {}).get("rematch")
    return value if isinstance(value, str) else None


def _seats(rows: list[SeatRow]) -> list[Seat]:
    return [Seat(s.kind, s.bot, s.name, s.token_hash) for s in sorted(rows, key=lambda s: s.seat)]


def deal_on(session: Session, table: Table) -> None:
    """Deal as long as the game needs a deck (redeals included), adding each seed to
    the session before its deck is used."""
    match = table.match
    while match.needs_deck:
        seed, commit = new_seed()
        session.add(DealRow(table_id=table.id, number=len(match.deals), seed=seed, commit=commit))
        match.deal_next(deck_from_seed(seed))
        table.seeds.append((seed, commit))


class TableStore:
    """Reads and writes the rows of tables (the action log itself is written by
    :class:`~paston.server.db.ActionLog`)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def add(self, table: Table, first_dealer: int) -> None:
        """Store a new table with its seats, and deal its first deal."""
        with self.sessions() as session, session.begin():
            session.add(
                TableRow(
                    id=table.id,
                    name=table.name,
                    rules=table.rules.to_dict(),
                    settings={"takeover_seconds": table.takeover_seconds},
                    first_dealer=first_dealer,
                )
            )
            session.flush()  # the table row exists before its seats refer to it
            for i, s in enumerate(table.seats):
                session.add(SeatRow(table_id=table.id, seat=i, kind=s.kind, bot=s.bot))
            deal_on(session, table)

    def load(self, table_id: str) -> Table | None:
        """A table rebuilt from its rows, or ``None`` if there is none."""
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            return None if row is None else self._rebuild(session, row)

    def load_unfinished(self) -> list[Table]:
        """Every unfinished table, rebuilt."""
        with self.sessions() as session:
            rows = session.scalars(select(TableRow).where(TableRow.finished.is_(None))).all()
            return [self._rebuild(session, row) for row in rows]

    def _rebuild(self, session: Session, row: TableRow) -> Table:
        seats = _seats(list(session.scalars(select(SeatRow).where(SeatRow.table_id == row.id))))
        match = Match(first_dealer=row.first_dealer, rules=Rules.from_dict(row.rules), seats=("", "", ""))
        table = Table(row.id, row.name, seats, match)
        table.takeover_seconds = _takeover(row.settings)
        table.rematch = _rematch(row.settings)
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
            match.deal_next(deck_from_seed(d.seed))
            table.seeds.append((d.seed, d.commit))
            for a in by_deal.get(d.number, []):
                match.apply(Action.parse(a.action), a.seat)
                table.version += 1
                if a.command_id is not None:  # a resend after the restart is still known
                    table.recent.remember(a.seat, a.command_id, table.version, a.action)
        deal_on(session, table)  # a deal the server had no time to deal before stopping
        table.finished = match.is_over
        if table.finished and row.finished is None:  # stopped before marking it
            row.finished = now()
        session.commit()
        return table

    def save_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        """A person took a seat."""
        with self.sessions() as session, session.begin():
            row = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            ).one()
            row.name = name
            row.token_hash = token_hash

    def after_action(self, table: Table, *, ended: bool) -> None:
        """Deal what the game needs next and, when the game just ended, mark it finished."""
        with self.sessions() as session, session.begin():
            deal_on(session, table)
            if ended:
                row = session.get(TableRow, table.id)
                if row is not None:
                    row.finished = now()

    def save_rematch(self, table_id: str, rematch_id: str) -> None:
        """The table's rematch is ``rematch_id``."""
        with self.sessions() as session, session.begin():
            row = session.get(TableRow, table_id)
            if row is not None:
                row.settings = {**(row.settings or {}), "rematch": rematch_id}

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
                    online=lambda seat: False,
                    standing_in=lambda seat: False,
                )
            )
        return out
