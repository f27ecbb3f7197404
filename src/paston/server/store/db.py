"""Storage: SQLAlchemy 2 models and the database connection (SQLite or PostgreSQL).

The schema is created and upgraded by the Alembic migrations in
``paston/server/store/migrations`` when the server starts.
"""

from __future__ import annotations

import os
import re
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.sql.dml import Update
from sqlalchemy.sql.expression import bindparam

from paston.errors import PastonError
from paston.server.table_error import TableError


class DatabaseError(PastonError):
    """The database cannot be opened or used; the message names it (password hidden)
    and the problem, in one line."""

    code = "database"


def default_data_dir() -> Path:
    """The user's data directory for Paston (``$XDG_DATA_HOME/paston`` or ``~/.local/share/paston``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "paston"


def default_database_url() -> str:
    """An SQLite file in the user's data directory."""
    folder = default_data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'paston.db'}"


def normalize_url(url: str) -> str:
    """Accept ``postgresql://`` and pick the installed driver (psycopg)."""
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("postgres://"):
        return "postgresql+psycopg://" + url[len("postgres://") :]
    return url


#: Query parameters of a database URL that hold a secret (libpq's and psycopg's names).
SECRET_PARAMETERS = frozenset({"password", "passfile", "sslpassword", "sslkey", "sslkeylogfile"})


def display_url(url: str) -> str:
    """The URL as it may be shown: any password replaced by ``***``, in the user part or
    given as a query parameter (``?password=``).

    >>> display_url("postgresql://ana:secret@db.example:5432/paston")
    'postgresql://ana:***@db.example:5432/paston'
    >>> display_url("postgresql://ana@db.example/paston?password=secret&sslmode=require")
    'postgresql://ana@db.example/paston?password=***&sslmode=require'
    >>> display_url("sqlite:///data/paston.db")
    'sqlite:///data/paston.db'
    """
    try:
        parsed = make_url(url)
    except Exception:  # not a URL SQLAlchemy reads: hide between ':' and '@', and the parameters
        hidden = re.sub(r"(//[^/@:]*:)[^/@]*@", r"\1***@", url)
        names = "|".join(sorted(SECRET_PARAMETERS))
        return re.sub(rf"(?i)([?&](?:{names})=)[^&]*", r"\1***", hidden)
    secret = {k: "-" for k in parsed.query if k.lower() in SECRET_PARAMETERS}
    shown = parsed.update_query_dict(secret).render_as_string(hide_password=True)
    for key in secret:  # "-" stands in for "***", which the query would percent-encode
        shown = re.sub(rf"([?&]{re.escape(key)}=)-(?=&|$)", r"\1***", shown)
    return shown


def _reason(err: BaseException, url: str) -> str:
    """One line saying why the database at ``url`` could not be used."""
    inner = err.orig if isinstance(err, DBAPIError) and err.orig is not None else err
    lines = [line.strip() for line in str(inner).splitlines() if line.strip()]
    reason = lines[0] if lines else type(inner).__name__
    try:
        parsed = make_url(normalize_url(url))
    except Exception:
        return reason
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(str(parsed.database)).parent
        if not folder.is_dir():
            return f"{reason} (the folder {folder} does not exist)"
    return reason


def open_database(url: str) -> Engine:
    """An engine for ``url``, connected and migrated to the newest schema; raises
    :class:`DatabaseError` (one line, password hidden) when the database cannot be used:
    a server that cannot be reached, a folder that does not exist, a file that is not a
    database."""
    try:
        engine = make_engine(url)
    except Exception as err:
        raise DatabaseError(f"cannot use the database {display_url(url)}: {_reason(err, url)}") from None
    try:
        migrate(engine)
    except Exception as err:
        engine.dispose()
        raise DatabaseError(f"cannot open the database {display_url(url)}: {_reason(err, url)}") from None
    return engine


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


class FencedOut(TableError):
    """A change of a table whose ownership passed to another worker of the cluster: it is
    not committed (see :func:`fence_check`).

    ``fence`` is the token the refused change was made with (``-1``: a copy of the table
    this worker already gave up).

    >>> err = FencedOut("t1", 4)
    >>> err.code, err.table_id, err.fence
    ('not-owner', 't1', 4)
    """

    def __init__(self, table_id: str, fence: int | None = None) -> None:
        super().__init__("not-owner", f"table {table_id} is played by another worker now; try again")
        self.table_id = table_id
        self.fence = fence


def fence_check() -> Update:
    """The one check of a table's fencing token (a cluster, :mod:`paston.server.cluster`):
    ``UPDATE tables SET fence = fence WHERE id = :t AND fence = :f``. It changes nothing,
    matches one row only while the table holds the token ``f``, and locks that row until
    the transaction ends, so a takeover's bump (which locks the same row) comes wholly
    before or after the commit it guards. Every fenced write runs it in its own
    transaction: the action log's group commits (:class:`ActionLog`) and every other
    change of a table (:func:`paston.server.tables.tablestore.check_fence`)."""
    return (
        update(TableRow)
        .where(TableRow.id == bindparam("t"), TableRow.fence == bindparam("f"))
        .values(fence=TableRow.fence)
    )


class Base(DeclarativeBase):
    """Declarative base of the models."""


class TableRow(Base):
    """A table: its name, rules and seat settings."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    settings: Mapped[dict[str, object]] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # the fencing token of the server that owns the table in a cluster (server/cluster)
    fence: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class SeatRow(Base):
    """A seat of a table: a person (with a hashed token once taken) or a bot."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))  # "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class DealRow(Base):
    """A deal's shuffle: the server's secret (revealed after the deal), its published
    commitment and, with ``algorithm`` ``paston-deck/1``, the seats' seeds as
    ``[[seed, chooser], …]`` (``None`` while they are being collected). Rows without an
    algorithm were dealt before it: their deck is ``random.Random(seed)``'s."""

    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # index in the record's deals
    seed: Mapped[str] = mapped_column(String(64))
    commit: Mapped[str] = mapped_column(String(64))
    algorithm: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seeds: Mapped[list[list[str]] | None] = mapped_column(JSON, nullable=True)


class ActionRow(Base):
    """One accepted action: the log every table is rebuilt from."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)  # 0, 1, 2 … over the whole game
    deal: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    command_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    fence: Mapped[int | None] = mapped_column(Integer, nullable=True)  # its owner's token (a cluster)


class AnalysisRow(Base):
    """The analysis of one finished deal at one ``pimc`` level (the JSON of
    :func:`paston.eval.analysis.analyze_deal`), computed once."""

    __tablename__ = "analyses"
    __table_args__ = (UniqueConstraint("table_id", "deal", "level"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    deal: Mapped[int] = mapped_column(Integer)  # index in the record's deals
    level: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ScoreSheetRow(Base):
    """A score sheet of a game played with real cards (``/sheet``): its players, rules and
    deals (the ``deals`` of a ``paston-sheet/1`` file), the owner token's hash (who may add
    and undo), a hash of the address that made it (for the per-address limit) and a
    ``version`` that every change bumps (two changes at once: one wins, one is refused)."""

    __tablename__ = "score_sheets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # the read-only share id
    players: Mapped[list[str]] = mapped_column(JSON)
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    deals: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    token_hash: Mapped[str] = mapped_column(String(64))
    creator: Mapped[str] = mapped_column(String(64), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


#: Seconds to wait for a database server to answer a connection.
CONNECT_TIMEOUT = 10


def make_engine(url: str) -> Engine:
    """An engine for the URL. SQLite files get a busy timeout and write-ahead logging
    (a commit survives a crash of the server process; readers never block the writer)."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            # checkpoints (which wait for the disk) run in the background: WalCheckpointer
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # a server that cannot be reached fails in seconds, not after the system's long TCP timeout
    timeout = {} if "connect_timeout" in make_url(url).query else {"connect_timeout": CONNECT_TIMEOUT}
    return create_engine(url, pool_pre_ping=True, connect_args=timeout)


class WalCheckpointer:
    """For SQLite: copies the write-ahead log into the database file every ``interval``
    seconds on a thread of its own (a passive checkpoint never blocks the writer), so no
    commit of a move has to wait for the disk. Nothing is lost without it: a log that
    was not copied is read back when the database is opened.

    >>> WalCheckpointer.wanted("postgresql://u@h/db"), WalCheckpointer.wanted("sqlite:///x.db")
    (False, True)
    """

    def __init__(self, engine: Engine, interval: float = 1.0) -> None:
        self._engine = engine
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wal-checkpoint", daemon=True)

    @staticmethod
    def wanted(url: str) -> bool:
        """Whether the database at ``url`` is an SQLite file."""
        return normalize_url(url).startswith("sqlite")

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop, after a last checkpoint that also empties the log file."""
        self._stop.set()
        self._thread.join(timeout=30)
        self.checkpoint("TRUNCATE")

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        connection = self._engine.raw_connection()
        try:
            connection.cursor().execute(f"PRAGMA wal_checkpoint({mode})")
        finally:
            connection.close()

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self.checkpoint()
            except Exception:  # a busy or closed database: try again next time
                continue


def session_factory(engine: Engine) -> sessionmaker:  # type: ignore[type-arg]
    """Sessions bound to the engine."""
    return sessionmaker(engine, expire_on_commit=False)


#: The PostgreSQL advisory lock key that serializes migrations ("PASTON" in ASCII).
MIGRATION_LOCK = 0x504153544F4E


def migrate(engine: Engine) -> None:
    """Apply the Alembic migrations up to the newest. On PostgreSQL one process at a time
    (an advisory lock held by the migrating transaction): workers of a cluster started
    together on a fresh database once raced their migrations (``duplicate key …
    pg_type_typname_nsp_index``); now the later ones wait, then find nothing to do."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(%(key)s)", {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
