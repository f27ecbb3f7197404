"""The ASGI application: the lobby's JSON API, the live table WebSocket (its protocol:
:mod:`paston.server.websocket`), the client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from paston.bots.base import PLAYER_NAMES, PLAYERS, player_choices
from paston.errors import RecordError, RulesError
from paston.record import loads as record_loads
from paston.rules import PRESETS, RULE_CHOICES, TARGET_RANGE, Rules
from paston.server.cache import KEEP_FINISHED
from paston.server.db import WalCheckpointer, default_database_url, make_engine, migrate, session_factory
from paston.server.errors import TableError
from paston.server.manager import MAX_WATCHERS, TableManager
from paston.server.replay import replay_steps
from paston.server.websocket import add_table_socket

MAX_RECORD_BYTES = 2_000_000
STATIC = Path(__file__).parent / "static"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


if TYPE_CHECKING:
    BotName = str
else:  # the names of the registry of computer players (paston.bots.base.PLAYERS)
    BotName = Literal[PLAYER_NAMES]
_LEVELS = [level for p in PLAYERS for level in p.levels] or [1]


class SeatSpec(_Strict):
    """A seat of a new table: a person, or a computer player of the registry (which of
    its levels it has is checked against the registry when the table is made)."""

    kind: Literal["human", "bot"]
    bot: BotName | None = None
    level: Annotated[int, Field(ge=min(_LEVELS), le=max(_LEVELS))] | None = None


class CreateTable(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=80)]
    rules: dict[str, Any] = Field(default_factory=dict)
    seats: Annotated[list[SeatSpec], Field(min_length=3, max_length=3)]
    takeover_seconds: Annotated[float, Field(ge=1, le=3600)] | None = None


class Rematch(_Strict):
    token: Annotated[str, Field(max_length=64)] | None = None


class TakeSeat(_Strict):
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


def _http_error(err: TableError) -> JSONResponse:
    status = {"no-table": 404, "seat-taken": 409, "game-not-over": 409}.get(err.code, 400)
    return JSONResponse({"error": {"code": err.code, "message": str(err)}}, status_code=status)


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    keep_finished: int = KEEP_FINISHED,
    max_watchers: int = MAX_WATCHERS,
) -> FastAPI:
    """The web application over a database (default: SQLite in the user's data folder).
    At most ``keep_finished`` finished games stay in memory; the database keeps all. A
    table takes at most ``max_watchers`` spectators."""
    url = database_url or default_database_url()
    engine = make_engine(url)
    manager = TableManager(
        session_factory(engine), bot_delay=bot_delay, keep_finished=keep_finished, max_watchers=max_watchers
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        migrate(engine)
        checkpointer = WalCheckpointer(engine) if WalCheckpointer.wanted(url) else None
        if checkpointer is not None:
            checkpointer.start()
        manager.load_all()
        for table in manager.tables.values():
            manager.schedule_bots(table)
        yield
        for table in manager.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
        manager.log.close()
        if checkpointer is not None:
            checkpointer.stop()
        engine.dispose()

    app = FastAPI(title="Paston", lifespan=lifespan)
    app.state.manager = manager

    @app.exception_handler(TableError)
    async def table_error(request: Request, err: TableError) -> JSONResponse:
        return _http_error(err)

    # --- lobby API ----------------------------------------------------------------------
    @app.get("/api/meta")
    async def server_meta() -> dict[str, Any]:
        return meta()

    @app.get("/api/tables")
    async def open_tables() -> list[dict[str, Any]]:
        return [t.summary() for t in manager.tables.values() if not t.finished]

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable) -> dict[str, Any]:
        table = manager.create(
            body.name,
            rules_of(body.rules),
            [s.model_dump() for s in body.seats],
            takeover_seconds=body.takeover_seconds,
        )
        manager.schedule_bots(table)
        return {"id": table.id, "invite": f"/t/{table.id}", "table": table.summary()}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return manager.get(table_id).summary()

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take_seat(table_id: str, seat: int, body: TakeSeat) -> dict[str, Any]:
        token = manager.take_seat(table_id, seat, body.name)
        table = manager.get(table_id)
        manager.broadcast(table)
        manager.schedule_bots(table)
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: Rematch) -> dict[str, Any]:
        old = manager.get(table_id)
        new, token = manager.rematch(table_id, body.token)
        manager.broadcast(old)
        manager.schedule_bots(new)
        return {"id": new.id, "invite": f"/t/{new.id}", "token": token}

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str) -> dict[str, Any]:
        manager.record(table_id)  # only once the game is over
        return replay_steps(manager.get(table_id).match)

    @app.post("/api/replay")
    async def record_replay(request: Request) -> JSONResponse:
        body = await request.body()
        if len(body) > MAX_RECORD_BYTES:
            return JSONResponse(
                {"error": {"code": "too-large", "message": "the record is too large"}}, status_code=413
            )
        try:
            match = record_loads(body.decode("utf-8", errors="replace"))
        except RecordError as err:
            return JSONResponse({"error": {"code": err.code, "message": str(err)}}, status_code=400)
        return JSONResponse(replay_steps(match))

    @app.get("/api/games")
    async def finished_games(limit: int = Query(50, ge=1, le=500)) -> list[dict[str, Any]]:
        return manager.finished_summaries(limit)

    @app.get("/api/tables/{table_id}/record")
    async def game_record(table_id: str) -> dict[str, Any]:
        return manager.record(table_id)

    # --- live tables ------------------------------------------------------------------------
    add_table_socket(app, manager)

    # --- the client ---------------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/replay")
    async def replay_open_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/replay/{table_id}")
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app
