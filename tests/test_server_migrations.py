"""Migrations started together (issue 22): workers of a cluster started at once on a fresh
PostgreSQL database raced their migrations (``duplicate key … pg_type_typname_nsp_index``
in 2 of 3 tries). Now they are serialized by an advisory lock: each worker migrates or
waits and finds the database at the newest revision."""

from __future__ import annotations

import threading
import uuid

from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Engine

from paston.server.store.db import make_engine, migrate, normalize_url


def _migrate(engine: Engine, start: threading.Barrier, errors: list[BaseException]) -> None:
    try:
        start.wait()
        migrate(engine)
    except BaseException as err:  # reported by the test
        errors.append(err)


def test_workers_migrating_a_fresh_database_at_once_all_succeed(postgres_url: str) -> None:
    name = f"paston_race_{uuid.uuid4().hex[:8]}"
    admin = create_engine(normalize_url(postgres_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    url = postgres_url.rsplit("/", 1)[0] + f"/{name}"
    engines = [make_engine(url) for _ in range(4)]
    try:
        for round_ in range(3):  # a fresh database each round: the race is at the first migration
            if round_:
                with admin.connect() as c:
                    c.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
                    c.execute(text(f"CREATE DATABASE {name}"))
                for engine in engines:
                    engine.dispose()
            start = threading.Barrier(len(engines))
            errors: list[BaseException] = []

            threads = [threading.Thread(target=_migrate, args=(e, start, errors)) for e in engines]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=120)
            assert errors == [], [str(e).splitlines()[0] for e in errors]
            tables = set(inspect(engines[0]).get_table_names())
            assert {"tables", "actions", "alembic_version"} <= tables, tables
    finally:
        for engine in engines:
            engine.dispose()
        with admin.connect() as c:
            c.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
