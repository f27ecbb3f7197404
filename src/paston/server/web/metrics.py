"""Prometheus metrics of one server (``GET /metrics``, the text exposition format).

Each app has a registry of its own (never the library's global one), so several apps in
one process do not clash. What can be read at any time (tables, sockets, queues, counts
the server keeps anyway) is read when Prometheus scrapes, by :class:`ServerCollector`;
only the two histograms (computer players' decision time and queue wait), the refusals
and the 500s are counted as they happen. Labels are few and fixed: never a table id or
an address. The names, all under ``paston_``, are listed in docs/guide/operating.md.

>>> metrics = ServerMetrics()
>>> metrics.refused("http", "rate-limited"); metrics.refused("websocket", "<made up>")
>>> text = metrics.render().decode()
>>> 'paston_refused_total{reason="rate-limited",via="http"} 1.0' in text
True
>>> 'paston_refused_total{reason="other",via="websocket"} 1.0' in text
True
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from paston.server.web.badinput import BadInputLog
from paston.server.web.http import error_response
from paston.server.web.limits import Network, parse_networks
from paston.server.web.websocket import LOGGED
from paston.server.work.botpool import ProcessBotPool

if TYPE_CHECKING:
    from fastapi import FastAPI

    from paston.server.tables.manager import TableManager
    from paston.server.web.lobby import Lobby

#: The ``reason`` label's values: the error codes of refusals (any other is ``other``).
REASONS = frozenset(
    {
        *LOGGED,
        "hint-busy",
        "rate-limited",
        "too-many-tables",
        "server-full",
        "replays-busy",
        "too-many-streams",
        "busy",
        "too-large",
        "not-owner",
        "table-moved",
        "owner-gone",
        "cluster-unavailable",
    }
)
#: HTTP statuses whose error code is counted as a refusal (limits and overload).
REFUSING = frozenset({413, 429, 503})
#: Buckets (seconds) of a computer player's decision and of its wait for a worker.
DECISION_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
WAIT_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
WEBSOCKETS = "Table WebSockets this process holds open (waiting for their hello included)."
#: Who may read ``/metrics`` unless ``paston serve --metrics-from`` says otherwise.
LOOPBACK = parse_networks(["127.0.0.0/8", "::1"])


class ServerMetrics:
    """The registry of one app, with what is counted as it happens."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)  # open file handles and their limit, memory, CPU
        self.decision_seconds = Histogram(
            "paston_bot_decision_seconds",
            "Seconds from asking a computer player for a move to its answer (queue wait included).",
            buckets=DECISION_BUCKETS,
            registry=self.registry,
        )
        self.queue_wait_seconds = Histogram(
            "paston_bot_queue_wait_seconds",
            "Seconds a computer player's decision waited for a free worker process.",
            buckets=WAIT_BUCKETS,
            registry=self.registry,
        )
        self.internal_errors = Counter(
            "paston_http_internal_errors", "HTTP requests answered 500 (internal).", registry=self.registry
        )
        self.refusals: dict[tuple[str, str], int] = {}  # (via, reason) -> count
        self.pool: ProcessBotPool | None = None  # its hints refused are counted by the pool
        self.registry.register(_Refusals(self))

    def refused(self, via: str, code: str) -> None:
        """One request refused with error ``code``, over ``via`` (``http``, ``websocket``)."""
        key = (via, code if code in REASONS else "other")
        self.refusals[key] = self.refusals.get(key, 0) + 1

    def watch(
        self,
        manager: TableManager,
        *,
        sockets: Callable[[], int] | None = None,
        lobby: Lobby | None = None,
    ) -> None:
        """Read ``manager``'s tables and queues, ``sockets()`` (the table sockets open) and
        ``lobby``'s streams at each scrape, and time the computer players' decisions. (A
        cluster's worker adds its own collector: ``paston.server.cluster.clustermetrics``.)"""
        self.registry.register(ServerCollector(manager, sockets, lobby))
        manager.bot_runner.on_decision = self.decision_seconds.observe
        pool = manager.bot_runner.pool
        if isinstance(pool, ProcessBotPool):
            pool.on_wait = self.queue_wait_seconds.observe
            self.pool = pool

    def render(self) -> bytes:
        """The text exposition of every metric."""
        return generate_latest(self.registry)


class _Refusals(Collector):
    def __init__(self, metrics: ServerMetrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "paston_refused", "Requests and messages refused, by error code.", labels=["via", "reason"]
        )
        counts = dict(self.metrics.refusals)
        pool = self.metrics.pool
        if pool is not None:  # hints refused at once because as many wait already
            counts[("websocket", "hint-busy")] = (
                counts.get(("websocket", "hint-busy"), 0) + pool.hints_refused
            )
        for (via, reason), count in sorted(counts.items()):
            family.add_metric([via, reason], count)
        yield family


class ServerCollector(Collector):
    """What a scrape reads from the running server (nothing is counted for it)."""

    def __init__(
        self,
        manager: TableManager,
        sockets: Callable[[], int] | None,
        lobby: Lobby | None,
    ) -> None:
        self.manager, self.sockets, self.lobby = manager, sockets, lobby

    def collect(self) -> Iterator[Metric]:
        manager = self.manager
        tables = list(manager.tables.values())
        open_now = sum(1 for t in tables if not t.finished)
        family = GaugeMetricFamily("paston_tables", "Tables in memory.", labels=["state"])
        family.add_metric(["open"], open_now)
        family.add_metric(["finished"], len(tables) - open_now)
        yield family
        yield gauge(
            "paston_table_connections",
            "Connections at the tables played here (a cluster: tunnelled ones too).",
            sum(len(t.connections) for t in tables),
        )
        if self.sockets is not None:
            yield gauge("paston_websockets", WEBSOCKETS, self.sockets())
        if self.lobby is not None:
            yield gauge("paston_lobby_streams", "Lobby event streams open.", len(self.lobby.streams))
        pool = manager.bot_runner.pool
        decisions, hints = pool.queued() if isinstance(pool, ProcessBotPool) else (0, 0)
        yield gauge("paston_bot_queue", "Computer players' decisions waiting for a worker.", decisions)
        yield gauge("paston_hint_queue", "Hints waiting for a worker.", hints)
        yield gauge("paston_hints_running", "Hints being computed or waiting.", manager.hints.running())
        yield gauge(
            "paston_analysis_queue", "Deal analyses waiting for a worker.", manager.analyses.waiting()
        )
        yield counter(
            "paston_actions_committed", "Actions committed to the action log.", manager.actions_committed
        )
        yield counter(
            "paston_bot_fallbacks",
            "Decisions the fallback player made (a worker overran, died or was not free).",
            getattr(pool, "fallbacks", 0),
        )


def gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    """A gauge read now."""
    return GaugeMetricFamily(name, documentation, value=value)


def counter(name: str, documentation: str, value: float) -> CounterMetricFamily:
    """A counter read now (a count the server keeps anyway)."""
    return CounterMetricFamily(name, documentation, value=value)


class CountedBadInput(BadInputLog):
    """A :class:`BadInputLog` that counts each piece of bad input (a refused socket
    message) in ``metrics`` too."""

    def __init__(self, metrics: ServerMetrics) -> None:
        super().__init__()
        self.metrics = metrics

    def note(self, kind: str, detail: str) -> None:
        self.metrics.refused("websocket", kind)
        super().note(kind, detail)


class CountRefusals:
    """ASGI middleware: counts HTTP refusals (413, 429, 503) by their error code, and
    500s, including a request that raised (answered 500 by the outermost handler). A
    request with the header ``skip`` is not counted (in a cluster: one another worker
    forwarded, which that worker counts as it answers its client)."""

    def __init__(self, app: ASGIApp, metrics: ServerMetrics, skip: bytes | None = None) -> None:
        self.app = app
        self.metrics = metrics
        self.skip = skip

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        skipped = self.skip is not None and any(k == self.skip for k, _ in scope.get("headers", []))
        if scope["type"] != "http" or skipped:
            await self.app(scope, receive, send)
            return
        status = 0
        body = b""

        async def watched(message: Message) -> None:
            nonlocal status, body
            if message["type"] == "http.response.start":
                status = int(message["status"])
                if status == 500:
                    self.metrics.internal_errors.inc()
            elif message["type"] == "http.response.body" and status in REFUSING and len(body) < 4096:
                body += message.get("body", b"")
                if not message.get("more_body", False):
                    self.metrics.refused("http", _code_of(body))
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:
            if status == 0:
                self.metrics.internal_errors.inc()
            raise


def _code_of(body: bytes) -> str:
    """The error code of an error body (``other`` if it has none).

    >>> _code_of(b'{"error": {"code": "too-large", "message": "..."}}'), _code_of(b"Service Unavailable")
    ('too-large', 'other')
    """
    try:
        code = json.loads(body)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return "other"
    return code if isinstance(code, str) else "other"


def may_scrape(peer: str | None, headers: Mapping[str, str], allowed: tuple[Network, ...]) -> bool:
    """Whether a request may read ``/metrics``: its direct peer is in ``allowed``, and it
    was not forwarded by a proxy (a proxy's own address would otherwise let the public in).

    >>> may_scrape("127.0.0.1", {}, LOOPBACK), may_scrape("203.0.113.9", {}, LOOPBACK)
    (True, False)
    >>> may_scrape("127.0.0.1", {"x-forwarded-for": "203.0.113.9"}, LOOPBACK)
    False
    """
    if peer is None or "x-forwarded-for" in headers or "forwarded" in headers:
        return False
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in allowed)


def add_metrics_route(app: FastAPI, metrics: ServerMetrics, allowed: tuple[Network, ...] = LOOPBACK) -> None:
    """``GET /metrics`` for the peers in ``allowed`` (:func:`may_scrape`); anyone else is
    told there is nothing there (404), as for any unknown address."""

    @app.get("/metrics", include_in_schema=False)
    async def scrape(request: Request) -> Response:
        peer = request.client.host if request.client else None
        if not may_scrape(peer, request.headers, allowed):
            return error_response(404, "not-found", f"there is nothing at {request.url.path}")
        return Response(
            metrics.render(), media_type=CONTENT_TYPE_LATEST, headers={"cache-control": "no-store"}
        )
