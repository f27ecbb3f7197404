"""Operating a cluster's workers (issue 22): a worker's ``/metrics`` counts the tables it
took over from a worker killed with ``kill -9``, and its ``/readyz`` fails while Redis
is down (the database still answering) and recovers once Redis is back."""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path

from tests.cluster_helpers import (  # noqa: F401 (fixtures)
    RedisServer,
    Worker,
    database,
    redis_server,
)


def scrape(worker: Worker) -> dict[str, float]:
    with urllib.request.urlopen(worker.base + "/metrics", timeout=10) as res:
        text = res.read().decode()
    return {
        line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line and not line.startswith("#")
    }


def test_a_takeover_is_counted_and_readyz_follows_redis(
    tmp_path: Path,
    database: str,  # noqa: F811
    redis_server: RedisServer,  # noqa: F811
) -> None:
    redis_server.cli("FLUSHALL")
    first = Worker(tmp_path, database, redis_server.url, "w0")
    second = Worker(tmp_path, database, redis_server.url, "w1")
    try:
        status, body = first.request("POST", "/api/tables", {"name": "Ops", "seats": [{"kind": "human"}] * 3})
        assert status == 201, body
        assert scrape(first)["paston_cluster_tables_owned"] == 1
        assert scrape(second)["paston_cluster_takeovers_total"] == 0
        assert second.request("GET", "/readyz") == (
            200,
            {"ok": True, "checks": {"database": "ok", "redis": "ok"}},
        )
        first.kill()
        deadline = time.monotonic() + 20
        while scrape(second)["paston_cluster_takeovers_total"] < 1:
            assert time.monotonic() < deadline, second.log()
            time.sleep(0.2)
        samples = scrape(second)
        assert samples["paston_cluster_tables_owned"] == 1 and samples["paston_fenced_refused_total"] == 0

        redis_server.stop()
        deadline = time.monotonic() + 15
        while (answer := second.request("GET", "/readyz"))[0] == 200:
            assert time.monotonic() < deadline, "readyz never failed"
            time.sleep(0.2)
        status, body = answer
        assert status == 503 and body["checks"]["database"] == "ok", body
        assert body["checks"]["redis"].startswith("failed: ")
        assert scrape(second)["paston_cluster_redis_up"] in (0.0, 1.0)  # still scraped without Redis
        redis_server.start()
        deadline = time.monotonic() + 20
        while second.request("GET", "/readyz")[0] != 200:
            assert time.monotonic() < deadline, "readyz never recovered"
            time.sleep(0.2)
    finally:
        first.stop()
        second.stop()
