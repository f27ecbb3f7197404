"""Abuse limits of the HTTP side: who a client is (its address, ``X-Forwarded-For`` only
from trusted proxies), how fast it may create tables (a token bucket per address), and
how many open tables it and the whole server may hold.

>>> limits = Limits(create_burst=2, create_every=10.0)
>>> gate = CreationGate(limits)
>>> [gate.take("198.51.100.7", now=0.0) for _ in range(3)]
[None, None, 10.0]
>>> gate.take("198.51.100.7", now=10.0) is None  # one token back after 10 s
True
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from paston.server.table_error import TableError

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: Buckets kept before the full ones (clients not seen lately) are forgotten.
TRACKED_CLIENTS = 10_000


def parse_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """Addresses and CIDR networks from ``--trusted-proxy`` values (each may hold several,
    comma-separated). A bad one is a :class:`ValueError` naming it.

    >>> [str(n) for n in parse_networks(["127.0.0.1", "10.0.0.0/8, ::1"])]
    ['127.0.0.1/32', '10.0.0.0/8', '::1/128']
    >>> parse_networks(["10.0.0.300"])
    Traceback (most recent call last):
    ValueError: not an address or network: '10.0.0.300'
    """
    out: list[Network] = []
    for value in values:
        for part in (p.strip() for p in value.split(",")):
            if not part:
                continue
            try:
                out.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"not an address or network: {part!r}") from None
    return tuple(out)


@dataclass(frozen=True)
class Limits:
    """The HTTP limits of a server (``paston serve`` options of the same names).

    - ``create_burst``, ``create_every``: each client address may create ``create_burst``
      tables at once, then one more every ``create_every`` seconds (a token bucket);
    - ``tables_per_client``: open tables (unfinished, not retired) one address may have made;
    - ``open_tables``: open tables in memory in all;
    - ``retire_after``: seconds without a connection after which an open table leaves
      memory and the lobby (stored; its seat tokens and address still open it);
    - ``private_after``: seconds without a connection after which a private table (a
      lesson's) is closed and forgotten;
    - ``lobby_streams``, ``lobby_streams_per_client``: pushed lobby streams at once;
    - ``trusted_proxies``: peers whose ``X-Forwarded-For`` names the client;
    - ``replay_bytes``: the largest record a person may open in the replay viewer;
    - ``sockets_per_client``: table sockets one address may hold open at once, over all
      tables (see :mod:`paston.server.web.socketguard`).
    """

    create_burst: int = 10
    create_every: float = 10.0
    tables_per_client: int = 20
    open_tables: int = 1000
    retire_after: float = 24 * 3600.0
    private_after: float = 60.0
    lobby_streams: int = 1000
    lobby_streams_per_client: int = 10
    trusted_proxies: tuple[Network, ...] = ()
    replay_bytes: int = 1_000_000
    sockets_per_client: int = 64


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def client_key(peer: str | None, headers: Mapping[str, str], trusted: tuple[Network, ...]) -> str:
    """The client a request is counted against: the direct peer's address, or, when the
    peer is a trusted proxy, the nearest address of ``X-Forwarded-For`` that is not one
    (read from the right: the left part is whatever the client wrote). IPv6 clients are
    counted by their /64 network (one machine usually holds a whole /64).

    >>> proxy = parse_networks(["10.0.0.1"])
    >>> client_key("10.0.0.1", {"x-forwarded-for": "6.6.6.6, 203.0.113.9"}, proxy)
    '203.0.113.9'
    >>> client_key("198.51.100.2", {"x-forwarded-for": "203.0.113.9"}, proxy)
    '198.51.100.2'
    >>> client_key("2001:db8:1:2:3:4:5:6", {}, ())
    '2001:db8:1:2::/64'
    """
    address = _address(peer or "")
    if address is None:
        return peer or "unknown"
    if any(address in net for net in trusted):
        hops = [h for h in headers.get("x-forwarded-for", "").split(",") if h.strip()]
        for hop in reversed(hops):
            candidate = _address(hop)
            if candidate is None:
                break  # garbage from beyond the proxies: count the last good one
            address = candidate
            if not any(candidate in net for net in trusted):
                break
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


@dataclass
class CreationGate:
    """Table creation per client: a token bucket each (``create_burst`` tokens, one back
    every ``create_every`` seconds), and the tables each client made (for the cap)."""

    limits: Limits
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)  # client -> (tokens, when)
    made: dict[str, set[str]] = field(default_factory=dict)  # client -> ids of tables it created

    def tokens(self, client: str, now: float) -> float:
        """The client's tokens at ``now``."""
        burst = float(self.limits.create_burst)
        if self.limits.create_every <= 0:  # no rate limit
            return burst
        tokens, when = self.buckets.get(client, (burst, now))
        return min(burst, tokens + max(0.0, now - when) / self.limits.create_every)

    def take(self, client: str, now: float) -> float | None:
        """Take a token: ``None`` when there was one, else the seconds until there is."""
        tokens = self.tokens(client, now)
        if tokens < 1.0:
            return (1.0 - tokens) * self.limits.create_every
        self.buckets[client] = (tokens - 1.0, now)
        if len(self.buckets) > TRACKED_CLIENTS:
            self.prune(now)
        return None

    def check(self, client: str, open_ids: Mapping[str, object], now: float) -> None:
        """Raise the refusal (caps first, then the rate) for a new table by ``client``;
        ``open_ids`` are the open tables of the server. A refused request costs no token."""
        self.check_total(open_ids)
        mine = self.made.get(client, set())
        mine.intersection_update(open_ids)
        if len(mine) >= self.limits.tables_per_client:
            raise LimitError(
                "too-many-tables",
                f"you have {len(mine)} open tables, the most one address may have; finish or leave one first",
            )
        wait = self.take(client, now)
        if wait is not None:
            raise LimitError("rate-limited", "too many new tables; try again shortly", wait)

    def check_total(self, open_ids: Mapping[str, object]) -> None:
        """Raise the refusal of any new table when the server has its most open tables."""
        if len(open_ids) >= self.limits.open_tables:
            raise LimitError(
                "server-full", f"the server has its maximum of {self.limits.open_tables} open tables", 60.0
            )

    def created(self, client: str, table_id: str) -> None:
        """``client`` made the table ``table_id``."""
        self.made.setdefault(client, set()).add(table_id)

    def prune(self, now: float, open_ids: Mapping[str, object] | None = None) -> None:
        """Forget full buckets and, given the open tables, clients with none."""
        burst = float(self.limits.create_burst)
        for client in [c for c in self.buckets if self.tokens(c, now) >= burst]:
            del self.buckets[client]
        if open_ids is not None:
            for client, ids in list(self.made.items()):
                ids.intersection_update(open_ids)
                if not ids:
                    del self.made[client]


class LimitError(TableError):
    """A request refused by a limit: HTTP 429, with ``Retry-After`` when a wait helps.

    >>> LimitError("rate-limited", "slow down", 2.5).retry_after
    3
    """

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(code, message)
        self.retry_after = None if retry_after is None else max(1, math.ceil(retry_after))
