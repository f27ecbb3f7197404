"""``paston serve``: the web app for playing online."""

from __future__ import annotations

import enum
import importlib.util
from typing import TYPE_CHECKING, Any

import typer

from paston.cli.common import fail

if TYPE_CHECKING:
    import uvicorn

#: what ``paston serve`` imports that the bare package does not install (the ``server`` extra)
SERVER_PACKAGES = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "websockets", "prometheus_client")


#: Seconds a kept-alive HTTP connection may stay silent after an answer.
KEEP_ALIVE_SECONDS = 5
#: Seconds between the server's pings on a WebSocket, and for its pong to come back: a
#: client gone without closing (its network dropped) is closed within the two.
WS_PING_INTERVAL = 20.0
WS_PING_TIMEOUT = 20.0


class LogFormat(enum.StrEnum):
    """How ``paston serve`` writes its log."""

    text = "text"
    json = "json"


def missing_server_packages() -> list[str]:
    """The packages of the ``server`` extra that cannot be imported here.

    >>> set(missing_server_packages()) <= set(SERVER_PACKAGES)
    True
    """
    return [name for name in SERVER_PACKAGES if importlib.util.find_spec(name) is None]


def server_config(app: Any, host: str, port: int, max_connections: int | None) -> uvicorn.Config:
    """uvicorn's settings for ``paston serve`` (docs/guide/operating.md).

    >>> config = server_config(None, "127.0.0.1", 8000, 1000)
    >>> config.timeout_keep_alive, config.ws_ping_interval, config.ws_ping_timeout, config.limit_concurrency
    (5, 20.0, 20.0, 1000)
    """
    import uvicorn

    from paston.server.tables.protocol import MAX_FRAME_BYTES
    from paston.server.web.idlehttp import HeadTimeoutProtocol

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        # updates are small: compressing each costs more time than it saves bytes; a frame
        # far beyond the protocol's 4 KB is refused before it is read (close 1009)
        ws_per_message_deflate=False,
        ws_max_size=MAX_FRAME_BYTES,
        # the peer address is the socket's: uvicorn would otherwise take X-Forwarded-For
        # from any local peer as the client; the app reads it from --trusted-proxy peers only
        proxy_headers=False,
        # idle connections end: silent after an answer (5 s), or without a whole request
        # head (idlehttp.HEAD_TIMEOUT); a WebSocket whose client vanished misses a pong
        http=HeadTimeoutProtocol,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=max_connections,  # beyond: HTTP 503
        ws_ping_interval=WS_PING_INTERVAL,
        ws_ping_timeout=WS_PING_TIMEOUT,
    )


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0 for everyone)."),
    port: int = typer.Option(8000, "--port", "-p", min=1, max=65535, help="Port to listen on."),
    database_url: str | None = typer.Option(
        None,
        "--database-url",
        help="sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DB (default: SQLite in your data folder).",
    ),
    bot_delay: float = typer.Option(
        0.6, "--bot-delay", min=0.0, max=10.0, help="Seconds computer players wait."
    ),
    bot_workers: int | None = typer.Option(
        None,
        "--bot-workers",
        min=0,
        max=256,
        help="Processes computer players think in (default: the cores less one; 0: threads of the server).",
    ),
    analysis_workers: int = typer.Option(
        1,
        "--analysis-workers",
        min=0,
        max=64,
        help="Processes that analyse each finished deal (0: a thread of the server).",
    ),
    bot_budget: float = typer.Option(
        2.0,
        "--bot-budget",
        min=0.05,
        max=60.0,
        help="Seconds a computer player may think per decision (after twice that plus one, "
        "a quick player decides for it).",
    ),
    seed_timeout: float = typer.Option(
        5.0,
        "--seed-timeout",
        min=0.0,
        max=60.0,
        help="Seconds a deal waits for the players' browsers to send their seeds (docs/FAIRNESS.md).",
    ),
    next_deal_seconds: float = typer.Option(
        30.0,
        "--next-deal-seconds",
        min=0.0,
        max=3600.0,
        help="Seconds a finished deal stays on show until everyone presses Next, for tables that "
        "do not say (0: deal on at once).",
    ),
    redis_url: str | None = typer.Option(
        None,
        "--redis-url",
        help="redis://HOST:PORT/DB: run as one worker of a cluster sharing the --database-url "
        "(PostgreSQL) with the others; needs the `cluster` extra (pip install 'paston\\[cluster]').",
    ),
    # --- limits for a public server (see paston.server.web.limits.Limits) ---
    trusted_proxy: list[str] = typer.Option(
        [],
        "--trusted-proxy",
        metavar="ADDRESS[/BITS]",
        help="Address or network (CIDR) of a reverse proxy whose X-Forwarded-For names the client; "
        "repeat or separate with commas.",
    ),
    create_burst: int = typer.Option(
        10, "--create-burst", min=1, help="New tables one address may make at once."
    ),
    create_every: float = typer.Option(
        10.0, "--create-every", min=0.0, help="Seconds until an address may make one more table."
    ),
    sockets_per_client: int = typer.Option(
        64, "--sockets-per-client", min=1, help="Table sockets one address may hold open at once."
    ),
    tables_per_client: int = typer.Option(
        20, "--tables-per-client", min=1, help="Open tables one address may have made."
    ),
    open_tables: int = typer.Option(1000, "--open-tables", min=1, help="Open tables in memory in all."),
    retire_after: float = typer.Option(
        86400.0,
        "--retire-after",
        min=1.0,
        help="Seconds without a connection after which a table leaves memory and the lobby (kept stored).",
    ),
    sheet_days: float = typer.Option(
        180.0,
        "--sheet-days",
        min=0.01,
        help="Days after its last change at which a score sheet (/sheet) is deleted.",
    ),
    sheets_per_day: int = typer.Option(
        50, "--sheets-per-day", min=1, help="Score sheets one address may make in 24 hours."
    ),
    max_watchers: int = typer.Option(
        200, "--max-watchers", min=0, max=100_000, help="Spectators a table takes at most."
    ),
    replay_bytes: int = typer.Option(
        1_000_000,
        "--replay-bytes",
        min=1_000,
        max=20_000_000,
        help="Largest record file (bytes) a person may open in the replay viewer.",
    ),
    max_connections: int | None = typer.Option(
        None,
        "--max-connections",
        min=1,
        help="Connections at once; beyond, HTTP requests are answered 503 (default: the "
        "open-file limit, raised to the hard limit at start, less 256).",
    ),
    # --- for the operator (docs/guide/operating.md) ---
    metrics_from: list[str] = typer.Option(
        [],
        "--metrics-from",
        metavar="ADDRESS[/BITS]",
        help="Peers that may read GET /metrics (default: loopback); never a request a proxy forwarded.",
    ),
    log_format: LogFormat = typer.Option(
        LogFormat.text, "--log-format", help="text, or json: one JSON object a line.", case_sensitive=False
    ),
) -> None:
    """Start the Paston web server; open the printed address in a browser.

    Needs the ``server`` extra (``pip install 'paston\\[server]'``)."""
    import contextlib
    import gc
    import socket

    missing = missing_server_packages()
    if missing:
        fail(
            f"paston serve needs the web server's packages ({', '.join(missing)} not installed): "
            "pip install 'paston[server]'",
            2,
        )
    import uvicorn

    from paston.server.store.db import DatabaseError, default_database_url, display_url, open_database
    from paston.server.web import jsonlog, quietlog
    from paston.server.web.app import create_app
    from paston.server.web.limits import Limits, parse_networks
    from paston.server.web.metrics import LOOPBACK
    from paston.server.web.openfiles import connection_limit, raise_open_files
    from paston.server.web.sheets import SheetLimits

    try:
        proxies = parse_networks(trusted_proxy)
    except ValueError as err:
        fail(f"--trusted-proxy: {err}", 2)
    try:
        scrapers = parse_networks(metrics_from) or LOOPBACK
    except ValueError as err:
        fail(f"--metrics-from: {err}", 2)
    as_json = log_format is LogFormat.json

    def say(text: str) -> None:
        print(jsonlog.line(text) if as_json else text, flush=True)

    limits = Limits(
        create_burst=create_burst,
        create_every=create_every,
        tables_per_client=tables_per_client,
        sockets_per_client=sockets_per_client,
        open_tables=open_tables,
        retire_after=retire_after,
        trusted_proxies=proxies,
        replay_bytes=replay_bytes,
    )

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            fail(f"cannot listen on {host}:{port} ({err.strerror}); choose another --port or --host", 2)
    url = database_url or default_database_url()
    if redis_url is not None:
        try:
            import redis  # noqa: F401
        except ImportError:
            fail("--redis-url needs the Redis client: pip install 'paston[cluster]'", 2)
    try:  # opened and migrated before the server starts: a bad database is one line, not a traceback
        open_database(url).dispose()
        app = create_app(
            url,
            bot_delay=bot_delay,
            bot_workers=bot_workers,
            bot_budget=bot_budget,
            seed_timeout=seed_timeout,
            limits=limits,
            sheet_limits=SheetLimits(keep_days=sheet_days, sheets_per_day=sheets_per_day),
            max_watchers=max_watchers,
            analysis_workers=analysis_workers,
            next_deal_seconds=next_deal_seconds,
            redis_url=redis_url,
            metrics_from=scrapers,
        )
    except DatabaseError as err:
        fail(str(err), 2)
    address = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:  # the tables are loaded and the socket listens
                say(f"Paston is running: open {address}")
                say(f"Data: {display_url(url)}")

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            app.state.lobby.close()  # end the lobby's event streams, or stopping waits for them
            await super().shutdown(sockets)

    # Garbage collection tuned for a server: what exists now (code, libraries) is
    # frozen out of every later collection, and young objects are collected less
    # often, so a full collection (which pauses every table) is rarer and shorter.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    # every connection is a file handle: as many as the system allows, and a bound on the
    # connections that leaves handles for the rest (beyond, uvicorn answers 503)
    open_files, _ = raise_open_files()
    if max_connections is None and open_files > 0:
        max_connections = connection_limit(open_files)
    server = Server(server_config(app, host, port, max_connections))
    # one line per error, a few a minute of each kind, whatever a client sends (uvicorn's
    # logging is configured by its Config above: its handlers exist now), in JSON if asked
    if as_json:
        jsonlog.use_json()
    quietlog.install()
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        fail(f"the server could not start on {host}:{port}", 2)
