"""The light install: the bare package needs no web stack, and ``paston serve`` without
the ``server`` extra says in one line what to install. (``scripts/check-bare-install``,
run by CI, checks the same in a fresh virtual environment with nothing but the package.)"""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from tests.cli_helpers import assert_fails, invoke

ROOT = Path(__file__).resolve().parent.parent
WEB_STACK = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "psycopg", "websockets", "redis")


def project() -> dict[str, object]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return dict(tomllib.load(f)["project"])


def test_the_bare_package_depends_on_no_web_stack() -> None:
    needs = " ".join(project()["dependencies"])  # type: ignore[arg-type]
    assert not [name for name in WEB_STACK if name in needs], needs


def test_the_server_and_cluster_extras_hold_the_web_stack() -> None:
    extras = project()["optional-dependencies"]
    assert isinstance(extras, dict)
    server = " ".join(extras["server"])
    assert all(name in server for name in ("fastapi", "uvicorn", "sqlalchemy", "alembic", "psycopg"))
    assert "paston[server]" in extras["cluster"] and any("redis" in d for d in extras["cluster"])


def test_serve_without_the_server_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def without_fastapi(name: str, *args: object) -> object:
        return None if name == "fastapi" else real(name, *args)  # type: ignore[arg-type]

    serve_module = importlib.import_module("paston.cli.serve")
    monkeypatch.setattr(serve_module.importlib.util, "find_spec", without_fastapi)
    text = assert_fails(invoke("serve", "--port", "18999"), "pip install 'paston[server]'", "fastapi", code=2)
    assert "uvicorn" not in text  # only what is missing is named


def test_the_commands_that_need_no_server_import_none_of_it() -> None:
    """Importing the command line, the engine, the bots and the evaluation loads no web
    package (a fresh interpreter, so nothing imported by other tests counts)."""
    code = (
        "import sys, paston, paston.cli, paston.bots, paston.eval, paston.solver, paston.record\n"
        f"print(sorted(m for m in {WEB_STACK!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
