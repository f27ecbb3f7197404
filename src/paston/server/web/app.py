"""The ASGI application: the lobby's JSON API, the live table WebSocket (its protocol:
:mod:`paston.server.web.websocket`, with the seed messages of docs/FAIRNESS.md), the client."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from paston.bots.base import PLAYER_NAMES, PLAYERS, player_choices
from paston.errors import RulesError
from paston.rules import PRESETS, RULE_CHOICES, TARGET_RANGE, Rules
from paston.server.cluster.clustermetrics import ClusterCollector
from paston.server.cluster.forward import FORWARDED, Forwarding, rematch_at_owner
from paston.server.cluster.node import ClusterNode
from paston.server.lessons.course import course
from paston.server.lessons.rehearse import LEARNER, LESSON_BOT
from paston.server.store.db import (
    WalCheckpointer,
    default_database_url,
    make_engine,
    migrate,
    session_factory,
)
from paston.server.table_error import TableError
from paston.server.tables.cache import KEEP_FINISHED
from paston.server.tables.manager import MAX_WATCHERS, TableManager
from paston.server.tables.pause import MAX_NEXT_DEAL_SECONDS, NEXT_DEAL_SECONDS
from paston.server.tables.private import leave_private
from paston.server.tables.retire import Retirer
from paston.server.tables.seeds import SEED_TIMEOUT
from paston.server.tables.table import Table
from paston.server.web.bodylimit import BodyLimit
from paston.server.web.http import error_response, install_http, page_response
from paston.server.web.learn import score_table
from paston.server.web.limits import CreationGate, Limits, Network, client_key
from paston.server.web.lobby import MAX_PAGE, PAGE, Lobby
from paston.server.web.metrics import (
    LOOPBACK,
    CountedBadInput,
    CountRefusals,
    ServerMetrics,
    add_metrics_route,
)
from paston.server.web.ops import Check, DatabaseCheck, Readiness, add_ops_routes
from paston.server.web.pwa import install_pwa
from paston.server.web.replayjobs import ReplayBuilder, read_limited
from paston.server.web.sheets import SheetLimits, add_sheet_routes
from paston.server.web.sheetsweep import SheetSweeper
from paston.server.web.socketguard import SocketGuard
from paston.server.web.websocket import add_table_socket
from paston.server.work.botpool import DEFAULT_BUDGET
from paston.server.work.deal_analysis import ANALYSIS_WORKERS, Analyses

#: The browser client's files (``paston/server/static``, beside the rooms of the server).
STATIC = Path(__file__).parents[1] / "static"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _StrictBody(BaseModel):
    """An HTTP body: no unknown fields, and no conversions (``true`` is not a number)."""

    model_config = ConfigDict(extra="forbid", strict=True)


if TYPE_CHECKING:
    BotName = str
else:  # the names of the registry of computer players (paston.bots.base.PLAYERS)
    BotName = Literal[PLAYER_NAMES]
_LEVELS = [level for p in PLAYERS for level in p.levels] or [1]


class SeatSpec(_StrictBody):
    """A seat of a new table: a person, or a computer player of the registry (which of
    its levels it has is checked against the registry when the table is made)."""

    kind: Literal["human", "bot"]
    bot: BotName | None = None
    level: Annotated[int, Field(ge=min(_LEVELS), le=max(_LEVELS))] | None = None


class Creator(_StrictBody):
    """Who creates a table and sits down at once: their name and a person's seat."""

    name: Annotated[str, Field(min_length=1, max_length=40)]
    seat: Annotated[int, Field(ge=0, le=2)]


class CreateTable(_StrictBody):
    name: Annotated[str, Field(min_length=1, max_length=80)]
    rules: dict[str, Any] = Field(default_factory=dict)
    seats: Annotated[list[SeatSpec], Field(min_length=3, max_length=3)]
    takeover_seconds: Annotated[float, Field(ge=1, le=3600)] | None = None
    hints: bool = False  # a practice table: people may ask for hints
    next_deal_seconds: Annotated[float, Field(ge=0, le=MAX_NEXT_DEAL_SECONDS)] | None = None
    creator: Creator | None = None
    private: bool = False  # not in the lobby, no seat for strangers, forgotten once left
    lesson: Annotated[str, Field(max_length=40)] | None = None  # a lesson of the course (private)


class Leave(_StrictBody):
    token: Annotated[str, Field(max_length=64)]


class Rematch(_StrictBody):
    token: Annotated[str, Field(max_length=64)] | None = None


class TakeSeat(_StrictBody):
    name: Annotated[str, Field(min_length=1, max_length=40)]


def meta() -> dict[str, Any]:
    """What a client needs to offer the choices of a new table: the computer players
    and the rule switches, with their values, defaults and presets (``GET /api/meta``).

    >>> meta()["rules"]["switches"]["lone_defender"], meta()["rules"]["target"]["default"]
    (['graded', 'flat'], 121)
    """
    low, high = TARGET_RANGE
    return {
        "players": [p.to_dict() for p in PLAYERS],
        "player_choices": list(player_choices()),
        "rules": {
            "switches": {key: list(values) for key, values in RULE_CHOICES.items()},
            "target": {"min": low, "max": high, "default": Rules().target},
            "defaults": Rules().to_dict(),
            "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        },
    }


def rules_of(data: dict[str, Any]) -> Rules:
    """A new table's rules from its JSON object (absent switches take the defaults)."""
    try:
        return Rules.from_dict(data)
    except RulesError as err:
        raise TableError("bad-rules", str(err)) from None


def check_lesson(body: CreateTable) -> None:
    """A lesson's table: its learner seated at once on seat 0 against the course's two
    computer players, with the default rules (the lesson was rehearsed so)."""
    seats = [s.model_dump(exclude_none=True) for s in body.seats]
    lesson_seats = [{"kind": "human"}, {"kind": "bot", "bot": LESSON_BOT}, {"kind": "bot", "bot": LESSON_BOT}]
    if body.creator is None or body.creator.seat != LEARNER or seats != lesson_seats:
        raise TableError(
            "bad-lesson", f"a lesson's learner takes seat {LEARNER} against two {LESSON_BOT} players"
        )
    if body.rules or body.takeover_seconds is not None:
        raise TableError("bad-lesson", "a lesson is played with the default rules and no stand-in")


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    keep_finished: int = KEEP_FINISHED,
    bot_workers: int | None = None,
    bot_budget: float | None = DEFAULT_BUDGET,
    seed_timeout: float = SEED_TIMEOUT,
    limits: Limits | None = None,
    sheet_limits: SheetLimits | None = None,
    max_watchers: int = MAX_WATCHERS,
    analysis_workers: int = ANALYSIS_WORKERS,
    next_deal_seconds: float = NEXT_DEAL_SECONDS,
    redis_url: str | None = None,
    metrics_from: tuple[Network, ...] = LOOPBACK,
) -> FastAPI:
    """The web application over a database (default: SQLite in the user's data folder).
    At most ``keep_finished`` finished games stay in memory; the database keeps all.
    Computer players think in ``bot_workers`` processes (default: a core less than the
    machine has; 0: threads of the server), ``bot_budget`` seconds a decision. A deal
    waits at most ``seed_timeout`` seconds for the seeds of people's clients. ``limits``:
    the abuse limits of the HTTP side (see :class:`~paston.server.web.limits.Limits`), and
    ``sheet_limits`` those of the score sheets, how long they are kept included
    (:class:`~paston.server.web.sheets.SheetLimits`). A table
    takes at most ``max_watchers`` spectators. Finished deals are analysed in
    ``analysis_workers`` processes (0: a thread of the server); a finished deal stays
    on show at most ``next_deal_seconds`` unless the table says otherwise (0: not at all).
    With ``redis_url`` the server is one worker of a cluster (:mod:`paston.server.cluster`).
    ``GET /healthz``, ``/readyz`` (:mod:`.ops`) and ``/metrics`` (:mod:`.metrics`, only for
    peers in ``metrics_from``) are for whoever runs it."""
    url = database_url or default_database_url()
    engine = make_engine(url)
    manager = TableManager(
        session_factory(engine),
        bot_delay=bot_delay,
        keep_finished=keep_finished,
        bot_workers=bot_workers,
        bot_budget=bot_budget,
        seed_timeout=seed_timeout,
        max_watchers=max_watchers,
        analysis_workers=analysis_workers,
        next_deal_seconds=next_deal_seconds,
    )
    limits = limits or Limits()
    cluster = None if redis_url is None else ClusterNode(redis_url, manager, engine)
    if cluster is not None:
        cluster.sockets.max_sockets = limits.sockets_per_client
    # a cluster's lobby lists every worker's open tables (server/cluster/listing.py)
    lobby = Lobby(manager.tables if cluster is None else cluster.listing.tables, limits)  # type: ignore[arg-type]
    gate = CreationGate(limits)
    retirer = Retirer(
        manager,
        limits.retire_after,
        on_sweep=lambda now: gate.prune(now, lobby.open_ids()),
        private_after=limits.private_after,
    )
    replays = ReplayBuilder(workers=0 if bot_workers == 0 else 1)
    metrics = ServerMetrics()
    database_check = DatabaseCheck(engine)
    checks: dict[str, Check] = {"database": database_check}
    if cluster is not None:
        checks["redis"] = cluster.redis.ping

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        migrate(engine)
        checkpointer = WalCheckpointer(engine) if WalCheckpointer.wanted(url) else None
        if checkpointer is not None:
            checkpointer.start()
        if cluster is None:
            manager.load_all()
        else:  # a worker of a cluster: it claims tables as they are asked for, or orphaned
            await cluster.start()
        manager.analyses.start()
        for table in manager.tables.values():
            manager.schedule_bots(table)
        lobby.start()
        retirer.start()
        sheet_sweeper = SheetSweeper(app.state.sheets)  # at once, then hourly
        sheet_sweeper.start()
        yield
        sheet_sweeper.stop()
        if cluster is not None:
            await cluster.stop()
        lobby.close()
        retirer.stop()
        manager.stop_bots()
        replays.close()
        manager.rounds.stop(manager.tables.values())
        manager.log.close()
        if checkpointer is not None:
            checkpointer.stop()
        database_check.close()
        engine.dispose()

    app = FastAPI(title="Paston", lifespan=lifespan)
    app.state.manager = manager
    app.state.lobby = lobby
    app.state.retirer = retirer
    app.state.cluster = cluster
    app.state.metrics = metrics
    page = install_http(app, STATIC)
    install_pwa(app, STATIC)  # /sw.js and /offline.html: the app installable, its shell offline
    if cluster is not None:
        app.add_middleware(Forwarding, node=cluster)
    # outermost but for the counting: a body over its limit is refused before anything reads or forwards it
    app.add_middleware(BodyLimit, per_path={"/api/replay": limits.replay_bytes})
    # sees every answer, BodyLimit's 413 too; a forwarded request is counted where it came in
    app.add_middleware(CountRefusals, metrics=metrics, skip=None if cluster is None else FORWARDED)
    add_ops_routes(app, Readiness(checks))
    add_metrics_route(app, metrics, metrics_from)

    def client_of(request: Request) -> str:
        peer = request.client.host if request.client else None
        return client_key(peer, request.headers, limits.trusted_proxies)

    # --- lobby API ----------------------------------------------------------------------
    @app.get("/api/meta")
    async def server_meta() -> dict[str, Any]:
        return meta()

    @app.get("/api/scores")
    async def scores(preset: str | None = Query(None, max_length=40)) -> dict[str, Any]:
        try:
            rules = Rules() if preset is None else Rules.preset(preset)
        except RulesError as err:
            raise TableError("bad-rules", str(err)) from None
        return score_table(rules)

    @app.get("/api/lessons")
    async def lessons() -> list[dict[str, Any]]:
        return course()

    @app.get("/api/tables")
    async def open_tables(
        limit: int = Query(PAGE, ge=1, le=MAX_PAGE), offset: int = Query(0, ge=0)
    ) -> dict[str, Any]:
        return lobby.page(offset, limit)

    @app.get("/api/lobby/events")
    async def lobby_events(request: Request) -> StreamingResponse:
        client = client_of(request)
        lobby.admit(client)
        return StreamingResponse(
            lobby.events(client),
            media_type="text/event-stream",
            headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
        )

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        rules = rules_of(body.rules)
        client = client_of(request)
        gate.check(client, lobby.open_ids(), time.monotonic())
        creator = None if body.creator is None else (body.creator.seat, body.creator.name)
        if body.lesson is not None:
            check_lesson(body)
        table, token = manager.create_seated(
            body.name,
            rules,
            [s.model_dump() for s in body.seats],
            creator,
            takeover_seconds=body.takeover_seconds,
            hints=body.hints or body.lesson is not None,
            next_deal_seconds=body.next_deal_seconds,
            listed=not body.private and body.lesson is None,
            lesson=body.lesson,
        )
        # the creator's seat is taken with the table, and its token comes back once
        seated = {} if body.creator is None else {"seat": body.creator.seat, "token": token}
        gate.created(client, table.id)
        if cluster is not None:
            await cluster.adopt(table)
        manager.schedule_bots(table)
        return {"id": table.id, "invite": f"/t/{table.id}", "table": table.summary(), **seated}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return manager.get(table_id).summary()

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take_seat(table_id: str, seat: int, body: TakeSeat) -> dict[str, Any]:
        token = manager.take_seat(table_id, seat, body.name)
        table = manager.get(table_id)
        table.last_seen = time.monotonic()
        manager.broadcast(table)
        manager.schedule_bots(table)
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, body: Leave) -> dict[str, Any]:
        """The player of a private table leaves: it is closed and forgotten at once."""
        leave_private(manager, table_id, body.token)
        return {"id": table_id, "gone": True}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: Rematch, request: Request) -> dict[str, Any]:
        old = manager.get(table_id)
        if cluster is not None and old.finished:
            moved = await rematch_at_owner(cluster, old, body.token)
            if moved is not None:  # the new table is played by another worker: the seat is taken there
                return moved
        client = client_of(request)
        making = old.finished and old.rematch is None
        if making:  # a new table: under the limits of any creation (rate, tables per client)
            # a bad token, or none (a stranger), is refused before it costs a creation
            if manager.seat_of(old, body.token) is None:
                raise TableError("not-a-player", "only a player of this game can start its rematch")
            gate.check(client, lobby.open_ids(), time.monotonic())
        new, token = manager.rematch(table_id, body.token)
        if making:
            gate.created(client, new.id)
        if cluster is not None:
            await cluster.adopt(new)
        manager.broadcast(old)
        manager.schedule_bots(new)
        return {"id": new.id, "invite": f"/t/{new.id}", "token": token}

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str) -> Response:
        record = manager.record(table_id)  # only once the game is over
        seats = manager.get(table_id).summary()["seats"]
        players = [{k: s[k] for k in ("seat", "kind", "bot", "name", "taken")} for s in seats]
        story = await replays.build(json.dumps(record), players, key=table_id)
        return Response(story, media_type="application/json")

    @app.post("/api/replay")
    async def record_replay(request: Request) -> Response:
        text = await read_limited(request, limits.replay_bytes)
        if text is None:
            return error_response(413, "too-large", f"the record is larger than {limits.replay_bytes} bytes")
        return Response(await replays.build(text), media_type="application/json")

    @app.get("/api/games")
    async def finished_games(limit: int = Query(50, ge=1, le=500)) -> list[dict[str, Any]]:
        return manager.finished_summaries(limit)

    @app.get("/api/tables/{table_id}/record")
    async def game_record(table_id: str) -> dict[str, Any]:
        return manager.record(table_id)

    add_analysis_routes(app, manager.analyses, manager.get)
    add_sheet_routes(app, engine, page, client_of, sheet_limits)  # score sheets of games with real cards

    # --- live tables ------------------------------------------------------------------------
    if cluster is None:

        def socket_client(websocket: WebSocket) -> str:
            peer = websocket.client.host if websocket.client else None
            return client_key(peer, websocket.headers, limits.trusted_proxies)

        guard = SocketGuard(max_sockets=limits.sockets_per_client)
        add_table_socket(app, manager, CountedBadInput(metrics), guard=guard, client_of=socket_client)
        metrics.watch(manager, sockets=lambda: sum(guard._open.values()), lobby=lobby)
    else:
        cluster.bad_input = CountedBadInput(metrics)
        cluster.install(app)
        metrics.watch(manager, lobby=lobby)
        metrics.registry.register(ClusterCollector(cluster))

    # --- the client (its files: see server/web/http.py) -------------------------------------------
    @app.get("/")
    async def index() -> HTMLResponse:
        return page_response(page)

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> HTMLResponse:
        return page_response(page)

    @app.get("/learn")
    async def learn_page() -> HTMLResponse:
        return page_response(page)

    @app.get("/replay")
    async def replay_open_page() -> HTMLResponse:
        return page_response(page)

    @app.get("/replay/{table_id}")
    async def replay_page(table_id: str) -> HTMLResponse:
        return page_response(page)

    return app


def add_analysis_routes(app: FastAPI, analyses: Analyses, table_of: Callable[[str], Table]) -> None:
    """``GET /api/tables/{id}/deals/{n}/analysis`` over ``analyses``; ``table_of`` finds
    a table by its id (raising the server's 404 ``TableError``, as the manager's ``get``)."""

    @app.get("/api/tables/{table_id}/deals/{number}/analysis", response_model=None)
    async def deal_analysis(table_id: str, number: int) -> dict[str, Any] | JSONResponse:
        table = table_of(table_id)
        try:
            result = await analyses.get(table.id, table.match.deals, number)
        except TableError as err:
            return error_response(404, err.code, str(err))
        if result is None:
            return JSONResponse({"status": "pending"}, status_code=202)
        return result
