"""Shared fixtures: a real PostgreSQL server for the storage tests.

``PASTON_TEST_POSTGRES_URL`` names a server to use; otherwise, when the PostgreSQL
server programs are installed (``.ci/run`` installs Debian's ``postgresql``), a
throwaway cluster is started for the test session and removed afterwards.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(args: list[str]) -> list[str]:
    """Run as the postgres user when we are root (initdb refuses root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    given = os.environ.get("PASTON_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.fail("no PostgreSQL server programs installed: run `bash scripts/test` (it installs them)")
    bindir = os.path.dirname(found[-1])
    folder = tempfile.mkdtemp(prefix="paston-pg-")
    data = os.path.join(folder, "data")
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    port = _free_port()
    subprocess.run(
        _as_postgres([f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"]),
        check=True,
        capture_output=True,
    )
    subprocess.run(
        _as_postgres(
            [
                f"{bindir}/pg_ctl",
                "-D",
                data,
                "-l",
                os.path.join(folder, "log"),
                "-w",
                "-o",
                f"-p {port} -k {folder} -c listen_addresses=127.0.0.1",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    try:
        for _ in range(50):
            ready = subprocess.run(
                [f"{bindir}/pg_isready", "-h", "127.0.0.1", "-p", str(port)], capture_output=True
            )
            if ready.returncode == 0:
                break
            time.sleep(0.2)
        subprocess.run(
            _as_postgres(
                [
                    f"{bindir}/createdb" if os.path.exists(f"{bindir}/createdb") else "createdb",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "-U",
                    "postgres",
                    "paston_test",
                ]
            ),
            check=True,
            capture_output=True,
        )
        yield f"postgresql://postgres@127.0.0.1:{port}/paston_test"
    finally:
        subprocess.run(
            _as_postgres([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]), capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)
