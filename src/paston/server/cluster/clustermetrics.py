"""A cluster worker's Prometheus metrics, read at each scrape from its
:class:`~paston.server.cluster.node.ClusterNode` (beside the server's own,
:mod:`paston.server.web.metrics`): takeovers, fenced refusals, tables owned, whether
Redis answers, and the table sockets this worker holds for its own clients.
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import Metric
from prometheus_client.registry import Collector

from paston.server.cluster.node import ClusterNode
from paston.server.web.metrics import WEBSOCKETS, counter, gauge


class ClusterCollector(Collector):
    """What a scrape reads from one worker of a cluster."""

    def __init__(self, node: ClusterNode) -> None:
        self.node = node

    def collect(self) -> Iterator[Metric]:
        node = self.node
        yield counter("paston_cluster_takeovers", "Tables taken over from a dead worker.", node.takeovers)
        yield counter(
            "paston_fenced_refused",
            "Changes refused by the fence (another worker owns the table).",
            node.fenced,
        )
        yield gauge("paston_cluster_tables_owned", "Tables this worker owns.", len(node.owned))
        yield gauge(
            "paston_cluster_redis_up", "1 while the Redis subscription is up.", node.bus.connected.is_set()
        )
        yield gauge("paston_websockets", WEBSOCKETS, websockets(node))


def websockets(node: ClusterNode) -> int:
    """The worker's own clients' table sockets: those at its tables (less other workers'
    tunnels, which the socket guard counts too) and those at other workers' (gateways)."""
    counted = sum(node.sockets._open.values())
    return max(0, counted - len(node.tunnels)) + len(node.gates)
