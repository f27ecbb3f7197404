"""A stranger against a real ``paston serve`` (issue 22): what held before the fixes of
this file did not, each test written against the defect as it was found.

- A forged ``X-Forwarded-For`` from a loopback peer was believed by uvicorn, so every
  per-address limit could be dodged (40 creations, 40 × 201).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.server_process import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # two tables at once per address, then one more every minute
    proc = ServerProcess(tmp_path_factory.mktemp("strangers"), "--create-burst", "2", "--create-every", "60")
    yield proc
    proc.stop()


def test_a_forged_forwarded_for_does_not_dodge_the_creation_limit(server: ServerProcess) -> None:
    """Without ``--trusted-proxy`` the header is ignored: forty forged addresses are one
    client (the peer's), which may make two tables and no more."""
    seats = [{"kind": "human"}] * 3
    statuses = []
    for k in range(40):
        status, body, _ = server.request(
            "POST",
            "/api/tables",
            {"name": f"forged {k}", "seats": seats},
            headers={"X-Forwarded-For": f"203.0.113.{k + 1}", "X-Real-IP": f"198.51.100.{k + 1}"},
        )
        statuses.append(status)
        if status != 201:
            assert body["error"]["code"] == "rate-limited", body
    assert statuses.count(201) == 2 and statuses.count(429) == 38, statuses
