"""Score sheets of games played with real cards in the database (the ``score_sheets``
table, :class:`~paston.server.store.db.ScoreSheetRow`): made, read, changed only from
the version that was read (two changes at once: the second is refused, nothing lost),
counted per creator for the limits of :mod:`paston.server.web.sheets`, and deleted once
untouched (not changed) for long (:meth:`SheetStore.delete_untouched`).

The deals are kept as the ``deals`` of a ``paston-sheet/1`` file (each a record's
``result`` object); :meth:`SheetStore.sheet` re-scores them through :mod:`paston.sheet`,
so what is shown is always the engine's scoring of what was entered.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine

from paston.rules import Rules
from paston.server.store.db import ScoreSheetRow, now, session_factory
from paston.sheet import SHEET_FORMAT, ScoreSheet


@dataclass(frozen=True)
class StoredSheet:
    """One sheet as read: the row's fields that the routes need."""

    id: str
    players: tuple[str, str, str]
    rules: dict[str, object]
    deals: list[dict[str, Any]]
    token_hash: str
    version: int

    def sheet(self) -> ScoreSheet:
        """The engine's score sheet of these deals (each re-scored)."""
        return ScoreSheet.from_dict(
            {"format": SHEET_FORMAT, "players": list(self.players), "rules": self.rules, "deals": self.deals}
        )


class SheetStore:
    """The score sheets of the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = session_factory(engine)

    def create(
        self, sheet_id: str, players: tuple[str, str, str], rules: Rules, token_hash: str, creator: str
    ) -> None:
        """Store a new, empty sheet."""
        with self.sessions.begin() as session:
            session.add(
                ScoreSheetRow(
                    id=sheet_id,
                    players=list(players),
                    rules=rules.to_dict(),
                    deals=[],
                    token_hash=token_hash,
                    creator=creator,
                    version=0,
                )
            )

    def load(self, sheet_id: str) -> StoredSheet | None:
        """The sheet ``sheet_id``, or ``None`` when there is none."""
        with self.sessions() as session:
            row = session.get(ScoreSheetRow, sheet_id)
            if row is None:
                return None
            players = row.players
            return StoredSheet(
                row.id,
                (str(players[0]), str(players[1]), str(players[2])),
                dict(row.rules),
                list(row.deals),
                row.token_hash,
                row.version,
            )

    def replace_deals(self, sheet_id: str, version: int, deals: list[dict[str, Any]]) -> bool:
        """Write the sheet's deals if it is still at ``version`` (then one version on);
        ``False`` when another change came first (nothing is written)."""
        with self.sessions.begin() as session:
            done = session.execute(
                update(ScoreSheetRow)
                .where(ScoreSheetRow.id == sheet_id, ScoreSheetRow.version == version)
                .values(deals=deals, version=version + 1, updated=now())
            )
            return bool(getattr(done, "rowcount", 0) == 1)

    def made_since(self, creator: str, since: datetime) -> int:
        """How many sheets ``creator`` made from ``since`` on."""
        with self.sessions() as session:
            query = select(func.count()).where(
                ScoreSheetRow.creator == creator, ScoreSheetRow.created >= since
            )
            return int(session.execute(query).scalar_one())

    def count(self) -> int:
        """How many sheets the database holds."""
        with self.sessions() as session:
            return int(session.execute(select(func.count()).select_from(ScoreSheetRow)).scalar_one())

    def delete_untouched(self, before: datetime) -> int:
        """Delete the sheets last changed (or made, when never changed) before ``before``;
        how many went."""
        with self.sessions.begin() as session:
            done = session.execute(delete(ScoreSheetRow).where(ScoreSheetRow.updated < before))
            return int(getattr(done, "rowcount", 0) or 0)
