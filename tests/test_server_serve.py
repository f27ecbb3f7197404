"""``paston serve`` as a person starts it: a database it cannot use is one clear line on
stderr and a non-zero exit (no traceback, no "running"); "running" is printed once the
server listens; a password in the database URL is never shown."""

from __future__ import annotations

import os
import socket
import subprocess
import urllib.request
from pathlib import Path

import pytest
from tests.server_process import paston_command


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(database_url: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    return subprocess.run(
        [*paston_command(), "serve", "--port", str(_port()), "--database-url", database_url],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def _assert_one_line_failure(done: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert done.returncode == 2, done
    assert "running" not in done.stdout and "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: cannot open the database ")
    for text in expected:
        assert text in lines[0], lines[0]


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://ana:s3cret-pw@127.0.0.1:{port}/paston", "postgresql://ana:***@127.0.0.1:"),
        # given as a parameter, the password was once printed in clear
        ("postgresql://ana@127.0.0.1:{port}/paston?password=s3cret-pw", "/paston?password=***"),
        ("postgresql://ana@127.0.0.1:{port}/paston?sslmode=disable&password=s3cret-pw", "password=***&ssl"),
    ],
)
def test_an_unreachable_postgresql_server_is_one_line_and_hides_the_password(
    tmp_path: Path, url: str, shown: str
) -> None:
    done = _serve(url.format(port=_port()), tmp_path)  # nothing listens there
    _assert_one_line_failure(done, shown, "refused")
    assert "s3cret-pw" not in done.stderr + done.stdout


def test_an_sqlite_file_in_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "folder"
    done = _serve(f"sqlite:///{missing / 'paston.db'}", tmp_path)
    _assert_one_line_failure(done, f"the folder {missing} does not exist")
    assert not missing.exists()


def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.db"
    bogus.write_text("these are my notes, not a database\n" * 200)
    done = _serve(f"sqlite:///{bogus}", tmp_path)
    _assert_one_line_failure(done, str(bogus), "not a database")
    assert bogus.read_text().startswith("these are my notes")


def test_running_is_said_once_the_server_listens_and_the_password_is_masked(
    postgres_url: str, tmp_path: Path
) -> None:
    # the test cluster trusts local connections, so any password is accepted (and must not be shown)
    url = postgres_url.replace("postgres@", "postgres:s3cret-pw@", 1)
    assert "s3cret-pw" in url
    port = _port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [*paston_command(), "serve", "--port", str(port), "--database-url", url, "--bot-delay", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert f"Paston is running: open http://localhost:{port}/" in first, first
        # said once the server listens: the API answers at once
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=5) as res:
            assert res.status == 200
        data = proc.stdout.readline()
        assert data.startswith("Data: postgresql://postgres:***@127.0.0.1:"), data
        assert "s3cret-pw" not in first + data
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("the server did not stop")
