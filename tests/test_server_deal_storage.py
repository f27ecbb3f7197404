"""A deal is dealt in memory only once the database holds it (found by the chaos suite:
PostgreSQL stopped at the moment a deal's last move was stored, the next deal was dealt
in memory but never stored, the table played on, and from then on no worker could
rebuild it: ``IllegalActionError``). Now the failed deal is put back, the move is still
acknowledged (it is stored), and the deal is stored again until it is."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.engine import Engine
from tests.db_helpers import engine  # noqa: F401 (the fixture: SQLite, PostgreSQL)

from paston.rules import Rules
from paston.server.store.db import DealRow, session_factory
from paston.server.tables.manager import TableManager
from paston.server.tables.table import Table

PEOPLE = [{"kind": "human"}] * 3


def deal_rows(db: Engine, table_id: str) -> list[tuple[int, Any]]:
    with db.connect() as c:
        rows = c.execute(select(DealRow.number, DealRow.seeds).where(DealRow.table_id == table_id))
        return sorted((int(n), s) for n, s in rows)


async def play_to_the_last_move_of_the_deal(manager: TableManager, table: Table) -> tuple[int, str]:
    """Random legal moves until the next one ends the deal; that move (seat, text)."""
    rng = random.Random(table.id)
    while True:
        seat = table.match.to_move
        assert seat is not None
        actions = list(table.match.legal_actions())
        action = rng.choice(actions)
        probe = table.match.clone()
        probe.apply(action, seat)
        if probe.needs_deck:
            return seat, str(action)
        await manager.act(table.id, seat, str(action), None, None)


def test_a_deal_the_database_refused_is_not_dealt_and_is_stored_again(engine: Engine) -> None:  # noqa: F811
    manager = TableManager(
        session_factory(engine), bot_workers=0, seed_timeout=0, next_deal_seconds=0, analysis_workers=0
    )
    failures = {"left": 0}

    def refuse_commit(conn: Any) -> None:  # the database goes away at the next commit
        if failures["left"] > 0:
            failures["left"] -= 1
            raise ConnectionError("the database restarts")

    event.listen(engine, "commit", refuse_commit)
    try:
        table = manager.create("Storage", Rules(target=1000), PEOPLE)

        async def go() -> None:
            seat, last = await play_to_the_last_move_of_the_deal(manager, table)
            failures["left"] = 2  # this deal's storing fails twice, then works
            done = await manager.act(table.id, seat, last, None, None)
            assert done.version == table.version  # the move is stored and acknowledged
            assert table.match.needs_deck and len(table.match.deals) == 1  # not dealt in memory
            assert len(table.seeds) == 1 and len(table.fairness) == 1
            assert [n for n, _ in deal_rows(engine, table.id)] == [0]
            for _ in range(60):  # the retries: after 0.5 s, then 1 s
                await asyncio.sleep(0.1)
                if not table.match.needs_deck:
                    break
            assert not table.match.needs_deck and len(table.match.deals) == 2

        asyncio.run(go())
        assert [n for n, _ in deal_rows(engine, table.id)] == [0, 1]
        other = TableManager(
            session_factory(engine), bot_workers=0, seed_timeout=0, next_deal_seconds=0, analysis_workers=0
        )
        try:
            rebuilt = other.store.load(table.id)
            assert rebuilt is not None and rebuilt.version == table.version
            assert list(rebuilt.match.deals[1].deck) == list(table.match.deals[1].deck)
            assert rebuilt.fairness == table.fairness
        finally:
            other.stop_bots()
            other.log.close()
    finally:
        event.remove(engine, "commit", refuse_commit)
        manager.stop_bots()
        manager.log.close()
