"""Every change of a table is fenced, not only moves (tablestore.check_fence, the one check
of db.fence_check): a worker whose table was claimed by another (its token bumped)
cannot take a seat, start a rematch, retire the table, open it again or write the end
of the game; the database is left as it was, and the table leaves the stale worker's
memory."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from tests.db_helpers import engine  # noqa: F401 (the fixture: SQLite, PostgreSQL)

from paston.rules import Rules
from paston.server.cluster.fencing import bump_fence
from paston.server.store.db import ActionRow, DealRow, FencedOut, SeatRow, TableRow, session_factory
from paston.server.tables.manager import TableManager
from paston.server.tables.retire import Retirer
from paston.server.tables.table import Table

PEOPLE = [{"kind": "human"}] * 3


class Worker:
    """A cluster worker's manager over the shared database (its store and log fenced)."""

    def __init__(self, db: Engine) -> None:
        self.engine = db
        self.manager = TableManager(
            session_factory(db), bot_workers=0, seed_timeout=0, next_deal_seconds=0, analysis_workers=0
        )
        self.manager.log.fenced = self.manager.store.fenced = True
        self.fenced: list[str] = []
        self.manager.log.on_fenced = self.manager.store.on_fenced = self.fenced_off

    def fenced_off(self, table_id: str, fence: int | None = None) -> None:  # as ClusterNode.fenced_off
        self.fenced.append(table_id)
        self.manager.tables.pop(table_id, None)

    def new_table(self, target: int = 10) -> Table:
        table = self.manager.create("Fenced", Rules(target=target), PEOPLE)
        table.fence = bump_fence(self.engine, table.id)  # owned here (ClusterNode.adopt)
        return table

    def close(self) -> None:
        self.manager.stop_bots()
        self.manager.log.close()


@pytest.fixture
def worker(engine: Engine) -> Iterator[Worker]:  # noqa: F811
    w = Worker(engine)
    try:
        yield w
    finally:
        w.close()


def rows(db: Engine, table_id: str | None = None) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables, seats, deals and actions (of one table, or all)."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with db.connect() as c:
        for model in (TableRow, SeatRow, DealRow, ActionRow):
            key = model.id if model is TableRow else model.table_id  # type: ignore[attr-defined]
            query = select(*model.__table__.columns)
            if table_id is not None:
                query = query.where(key == table_id)
            out[model.__tablename__] = sorted(tuple(map(repr, r)) for r in c.execute(query))
    return out


async def play(manager: TableManager, table: Table, *, leave: int = 0) -> None:
    """Play the table on with random legal actions until ``leave`` actions are left to
    the end of the game (the game ends with a known last action: ``leave`` 1)."""
    rng = random.Random(table.id)
    while not table.finished:
        seat = table.match.to_move
        if seat is None:  # a deal being dealt
            await asyncio.sleep(0.01)
            continue
        legal = list(table.match.legal_actions())
        action = rng.choice(legal)
        if leave:
            probe = table.match.clone()
            probe.apply(action, seat)
            if probe.is_over:
                return
        await manager.act(table.id, seat, str(action), None, None)


def claimed_by_another(w: Worker, table: Table) -> None:
    """Another worker claims the table: its token moves on in the database."""
    assert bump_fence(w.engine, table.id) == (table.fence or 0) + 1


def test_a_stale_owner_cannot_take_a_seat(worker: Worker) -> None:
    table = worker.new_table()
    worker.manager.take_seat(table.id, 0, "Owner")  # while it owns the table: taken
    claimed_by_another(worker, table)
    before = rows(worker.engine)
    with pytest.raises(FencedOut) as refused:
        worker.manager.take_seat(table.id, 1, "Late")
    assert refused.value.code == "not-owner"
    assert rows(worker.engine) == before
    assert not table.seats[1].taken  # nor in memory
    assert worker.fenced == [table.id] and table.id not in worker.manager.tables


def test_a_table_without_a_token_changes_nothing_in_a_cluster(worker: Worker) -> None:
    """A table a worker holds without owning it (loaded on demand, never claimed) has no
    token: in a cluster its changes are refused, not left unchecked."""
    table = worker.manager.create("Unowned", Rules(target=10), PEOPLE)
    before = rows(worker.engine)
    with pytest.raises(FencedOut):
        worker.manager.take_seat(table.id, 2, "Nobody")
    assert rows(worker.engine) == before


def test_a_stale_owner_cannot_write_the_end_of_the_game(worker: Worker) -> None:
    """The last move is committed while the worker owns the table; the table is claimed
    by another before the end of the game is written: it is not, and the new owner's
    rebuild from the log marks the game finished."""
    table = worker.new_table()
    log = worker.manager.log
    real = log.append_durably

    async def go() -> None:
        await play(worker.manager, table, leave=1)

        async def then_claimed(row: dict[str, Any]) -> None:
            await real(row)
            claimed_by_another(worker, table)

        log.append_durably = then_claimed  # type: ignore[method-assign]
        seat = table.match.to_move
        assert seat is not None
        last = next(a for a in table.match.legal_actions() if _ends(table, a, seat))
        with pytest.raises(FencedOut):
            await worker.manager.act(table.id, seat, str(last), None, None)

    asyncio.run(go())
    stored = rows(worker.engine, table.id)
    assert len(stored["actions"]) == table.version  # the last move is in the log, once
    with worker.engine.connect() as c:
        assert c.execute(select(TableRow.finished).where(TableRow.id == table.id)).scalar() is None
    assert worker.fenced == [table.id] and table.id not in worker.manager.tables
    new_owner = Worker(worker.engine)
    try:
        rebuilt = new_owner.manager.store.load(table.id, bump_fence(worker.engine, table.id))
        assert rebuilt is not None and rebuilt.finished
    finally:
        new_owner.close()
    with worker.engine.connect() as c:
        assert c.execute(select(TableRow.finished).where(TableRow.id == table.id)).scalar() is not None


def _ends(table: Table, action: Any, seat: int) -> bool:
    probe = table.match.clone()
    probe.apply(action, seat)
    return probe.is_over


def test_a_stale_owner_cannot_start_a_rematch(worker: Worker) -> None:
    table = worker.new_table()
    token = worker.manager.take_seat(table.id, 0, "Ana")
    asyncio.run(play(worker.manager, table))
    assert table.finished
    claimed_by_another(worker, table)
    before = rows(worker.engine)
    with pytest.raises(FencedOut):
        worker.manager.rematch(table.id, token)
    assert rows(worker.engine) == before  # no new table, no link, no seat
    assert table.rematch is None and list(worker.manager.tables) == []


def test_the_owner_starts_a_rematch_with_its_asker_seated_in_one_transaction(worker: Worker) -> None:
    table = worker.new_table()
    token = worker.manager.take_seat(table.id, 1, "Ana")
    asyncio.run(play(worker.manager, table))
    new, new_token = worker.manager.rematch(table.id, token)
    assert new_token is not None and worker.manager.seat_of(new, new_token) == 1
    again, none = worker.manager.rematch(table.id, None)  # a spectator asks: the same table
    assert again is new and none is None
    stored = rows(worker.engine, new.id)
    assert sum("'Ana'" in r for r in map(str, stored["seats"])) == 1
    with worker.engine.connect() as c:
        settings = c.execute(select(TableRow.settings).where(TableRow.id == table.id)).scalar()
    assert settings["rematch"] == new.id


def test_a_stale_owner_cannot_retire_a_table(worker: Worker) -> None:
    stale = worker.new_table()
    kept = worker.new_table()
    claimed_by_another(worker, stale)
    before = rows(worker.engine, stale.id)
    retirer = Retirer(worker.manager, after=1.0)
    assert retirer.sweep(stale.last_seen + 10**6) == [kept.id]  # the one it still owns
    assert rows(worker.engine, stale.id) == before  # not marked retired
    assert not stale.retired and worker.fenced == [stale.id]
    with worker.engine.connect() as c:
        settings = c.execute(select(TableRow.settings).where(TableRow.id == kept.id)).scalar()
    assert settings.get("retired")


def test_a_stale_owner_cannot_reopen_a_retired_table(worker: Worker) -> None:
    """A retired table someone comes back to is opened again (Retirer.sweep) only by its
    owner: a stale one leaves the row marked retired and drops the table."""
    stale = worker.new_table()
    kept = worker.new_table()
    assert worker.manager.store.mark_retired([stale, kept], retired=True) == []
    for table in (stale, kept):
        table.retired = True
        table.joining = 1  # someone is coming back
    claimed_by_another(worker, stale)
    before = rows(worker.engine, stale.id)
    Retirer(worker.manager, after=1.0).sweep(stale.last_seen + 1)
    assert rows(worker.engine, stale.id) == before  # still marked retired
    assert stale.retired and worker.fenced == [stale.id] and stale.id not in worker.manager.tables
    assert not kept.retired
    with worker.engine.connect() as c:
        settings = c.execute(select(TableRow.settings).where(TableRow.id == kept.id)).scalar()
    assert "retired" not in settings


def test_a_worker_paused_past_its_lease_cannot_write_a_deals_seeds(worker: Worker) -> None:
    """A worker collects a deal's seeds, is paused past its lease (SIGSTOP, a long GC),
    and another worker claims the table and deals that deal itself. Resumed, the stale
    worker's seed write (TableStore.deal_round's first transaction) is fenced like every
    change: the stored deal still matches what the new owner dealt, so the table still
    rebuilds (it failed with ``R6.2: seat 0 does not hold …`` before)."""
    table = worker.new_table()
    worker.manager.store.shuffle_first_deal_again(table)  # deal 0's round: seeds asked for
    assert table.round is not None
    table.round.seeds[0] = "a person's seed"  # one arrived; the worker stops here
    new_owner = Worker(worker.engine)
    try:
        claimed = new_owner.manager.store.load(table.id, bump_fence(worker.engine, table.id))
        assert claimed is not None and claimed.round is None  # it dealt deal 0 with its seeds
        deck = list(claimed.match.deals[0].deck)
        before = rows(worker.engine, table.id)
        with pytest.raises(FencedOut) as refused:
            worker.manager.store.deal_round(table)  # the stale worker wakes up
        assert refused.value.fence == table.fence
        assert rows(worker.engine, table.id) == before
        assert worker.fenced == [table.id] and table.id not in worker.manager.tables
        again = new_owner.manager.store.load(table.id, bump_fence(worker.engine, table.id))
        assert again is not None and list(again.match.deals[0].deck) == deck
    finally:
        new_owner.close()


def test_a_copy_given_up_stops_and_never_drops_the_copy_claimed_since(engine: Engine) -> None:  # noqa: F811
    """The livelock after Redis restarted empty: a worker gives a table up (its lease
    gone), claims it again at once, and the old copy's late work (a computer player's
    move in flight) was refused by the fence, which dropped the new copy by its id; the
    clients reconnected, the worker claimed the table again, and so on for minutes.
    Now a copy given up is ``gone``: it commits nothing (without asking the database),
    schedules no computer player, and a refusal drops only the copy holding that token."""
    from paston.server.cluster.node import ClusterNode

    manager = TableManager(
        session_factory(engine), bot_workers=0, seed_timeout=0, next_deal_seconds=0, analysis_workers=0
    )
    node = ClusterNode("redis://127.0.0.1:9", manager, engine, me="w1")  # Redis is never reached here
    try:
        seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
        old = manager.create("Livelock", Rules(target=10), seats)
        old.fence = node.owned[old.id] = bump_fence(engine, old.id)
        node.drop(old.id, "its lease was lost")
        assert old.gone and old.fence == -1 and old.id not in manager.tables
        new = manager.store.load(old.id, bump_fence(engine, old.id))
        assert new is not None and new.fence is not None and not new.gone
        node.owned[new.id] = new.fence
        manager._resident(new)
        before = rows(engine, old.id)
        seat = old.match.to_move
        assert seat is not None
        action = old.match.legal_actions()[0]

        async def late_move() -> None:
            with pytest.raises(FencedOut) as refused:
                async with old.lock:
                    await manager._commit(old, seat, action, None)
            assert refused.value.code == "not-owner" and refused.value.fence == -1
            manager.schedule_bots(old)
            assert old.bot_task is None  # nothing more runs for the old copy

        asyncio.run(late_move())
        assert rows(engine, old.id) == before
        node.fenced_off(old.id, -1)  # a refusal of the old copy's token
        node.fenced_off(old.id, new.fence - 1)  # or of an older owner's
        assert manager.tables.get(new.id) is new and node.owned[new.id] == new.fence
        node.fenced_off(new.id, new.fence)  # the new copy's own refusal does drop it
        assert new.id not in manager.tables and new.gone
    finally:
        manager.stop_bots()
        manager.log.close()


def test_a_finished_game_given_up_leaves_the_cache_of_finished_games_too(engine: Engine) -> None:  # noqa: F811
    """A finished game the cluster gave up (its lease lost) left ``manager.tables`` but
    stayed in the finished-games cache; the next finished game loaded at that worker
    then raised ``KeyError`` in the cache's trim, and every worker asked for such a game
    answered 503 ``cluster-unavailable`` from then on (found by the chaos suite)."""
    from paston.server.cluster.node import ClusterNode

    manager = TableManager(
        session_factory(engine),
        bot_workers=0,
        seed_timeout=0,
        next_deal_seconds=0,
        analysis_workers=0,
        keep_finished=1,
    )
    node = ClusterNode("redis://127.0.0.1:9", manager, engine, me="w1")
    try:
        games = []
        for _ in range(2):
            table = manager.create("Done", Rules(target=10), PEOPLE)
            table.fence = node.owned[table.id] = bump_fence(engine, table.id)
            asyncio.run(play(manager, table))
            assert table.finished and table.id in manager.finished_games
            games.append(table)
        node.drop(games[-1].id, "its lease was lost")
        assert games[-1].id not in manager.finished_games
        manager.finished_games.trim()  # and a stale entry left some other way is let go
        again = manager.store.load(games[-1].id, bump_fence(engine, games[-1].id))
        assert again is not None and again.finished
        manager._resident(again)  # raised KeyError before
        assert manager.tables.get(again.id) is again
    finally:
        manager.stop_bots()
        manager.log.close()
