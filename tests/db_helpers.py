"""The databases the server tests run on, as fixtures parametrised over SQLite and the
throwaway PostgreSQL cluster (``postgres_url``, tests/conftest.py): ``any_db``, a database
URL with a clean schema for each test, and ``engine``, a migrated SQLAlchemy engine on a
database of its own (the fencing tests of server/cluster/fencing.py commit through it)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from paston.server.store.db import make_engine, migrate, normalize_url


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'paston.db'}"
    url = str(request.getfixturevalue("postgres_url"))
    # a clean schema for each test
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'fence.db'}")
        migrate(engine)
        yield engine
        engine.dispose()
        return
    base: str = request.getfixturevalue("postgres_url")
    name = f"paston_fence_{uuid.uuid4().hex[:8]}"
    admin = create_engine(normalize_url(base), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    engine = make_engine(base.rsplit("/", 1)[0] + f"/{name}")
    migrate(engine)
    try:
        yield engine
    finally:
        engine.dispose()
        with admin.connect() as c:
            c.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
