"""Fencing tokens at commit (server/cluster/fencing.py, actionlog.ActionLog ``fenced``): a move
is committed only with the token the table's row holds, checked by the database."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.engine import Engine
from tests.db_helpers import engine

from paston.server.cluster.fencing import bump_fence, current_fence, open_table_ids
from paston.server.store.actionlog import ActionLog
from paston.server.store.db import (
    ActionRow,
    FencedOut,
    TableRow,
    make_engine,
    migrate,
    now,
)

__all__ = ["engine"]  # the fixture (tests/db_helpers.py): SQLite and PostgreSQL


def add_table(engine: Engine, table_id: str) -> None:
    with engine.begin() as c:
        c.execute(
            TableRow.__table__.insert().values(
                id=table_id, name="T", rules={}, settings={}, first_dealer=0, created=now()
            )
        )


def row(table_id: str, seq: int, fence: int | None) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": seq,
        "deal": 0,
        "seat": seq % 3,
        "action": "pass",
        "command_id": f"c{seq}",
        "created": now(),
        "fence": fence,
    }


def logged(engine: Engine, table_id: str) -> list[tuple[int, int | None]]:
    with engine.connect() as c:
        rows = c.execute(select(ActionRow.seq, ActionRow.fence).where(ActionRow.table_id == table_id))
        return sorted((int(s), f) for s, f in rows)


def test_a_move_is_committed_only_with_the_tables_current_token(engine: Engine) -> None:
    add_table(engine, "a")
    add_table(engine, "b")
    assert bump_fence(engine, "a") == 1 and bump_fence(engine, "b") == 1
    assert bump_fence(engine, "nope") is None and current_fence(engine, "nope") is None
    log = ActionLog(engine, fenced=True)
    fenced: list[str] = []
    log.on_fenced = lambda table_id, fence: fenced.append(table_id)

    async def go() -> None:
        await log.append_durably(row("a", 0, 1))
        assert bump_fence(engine, "a") == 2  # another worker took table a over
        results = await asyncio.gather(
            log.append_durably(row("a", 1, 1)),  # the former owner: refused
            log.append_durably(row("b", 0, 1)),  # the same group, another table: committed
            log.append_durably(row("b", 1, None)),  # no token at all: refused, not the other
            return_exceptions=True,
        )
        assert isinstance(results[0], FencedOut) and results[1] is None and isinstance(results[2], FencedOut)
        await log.append_durably(row("a", 1, 2))  # the new owner

    asyncio.run(go())
    log.close()
    assert logged(engine, "a") == [(0, 1), (1, 2)]
    assert logged(engine, "b") == [(0, 1)]
    assert set(fenced) == {"a", "b"}
    assert sorted(open_table_ids(engine)) == ["a", "b"]


@pytest.mark.parametrize("engine", ["postgresql"], indirect=True)  # row locks: PostgreSQL
def test_a_takeover_and_a_former_owners_commit_are_serialized_by_the_database(
    postgres_url: str, engine: Engine
) -> None:
    """The new owner's token is taken in a transaction still open while the former owner
    commits: the commit waits for the row, then is refused (never both)."""
    assert engine.dialect.name == "postgresql"
    add_table(engine, "t")
    bump_fence(engine, "t")
    log = ActionLog(engine, fenced=True)
    with engine.connect() as takeover:
        transaction = takeover.begin()
        takeover.execute(text("UPDATE tables SET fence = fence + 1 WHERE id = 't'"))
        out: dict[str, Any] = {}
        writer = threading.Thread(target=lambda: out.setdefault("refused", log.write([row("t", 0, 1)])))
        writer.start()
        time.sleep(0.5)
        assert writer.is_alive()  # waiting for the row the takeover holds
        transaction.commit()
        writer.join(10)
    assert out["refused"] == {("t", 1)}
    assert logged(engine, "t") == []
    log.close()


def test_single_process_server_needs_no_token() -> None:
    """Without a cluster nothing is checked: the log commits rows without a token."""
    engine = make_engine("sqlite://")
    migrate(engine)
    add_table(engine, "s")
    log = ActionLog(engine)
    assert log.write([row("s", 0, None)]) == set()
    assert logged(engine, "s") == [(0, None)]
    log.close()
