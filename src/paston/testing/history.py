"""The checker of a cluster's whole history, after a chaos run (:mod:`paston.testing.chaos`):
what the database holds is read once, and every property a player relies on is checked
against it and against what the players were told.

- every acknowledged command is in the log exactly once, at its acknowledged place
  (the row at ``version - 1`` has that seat, command id and action);
- each table's versions are contiguous (``0 … n-1``), no command id is used twice;
- fencing tokens never go back along a table's log (no move by a former owner after
  a later owner's);
- every table loads at every worker, at the version the log has;
- every finished game's record passes ``paston check`` (read back, written again the
  same) and ``paston verify`` (every deal dealt from its verified deck);
- once the faults have healed, no unfinished table goes longer than the stall limit
  without a move.

A property broken is one :class:`Violation`, naming the table and what is wrong.

>>> rows = [Row(0, 0, "pass", "s0-v0", 1, 0.0), Row(1, 1, "pass", None, 1, 1.0)]
>>> log_violations("t", rows)
[]
>>> [v.what for v in log_violations("t", [Row(1, 0, "pass", None, 1, 0.0)])]
['versions are not contiguous: seq [1]']
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import create_engine, text

from paston.errors import RecordError
from paston.record import read_record, to_record
from paston.server.store.db import normalize_url
from paston.testing.players import Ack


class Row(NamedTuple):
    """One row of the action log, as the checker reads it (``created``: POSIX seconds)."""

    seq: int
    seat: int
    action: str
    command_id: str | None
    fence: int | None
    created: float


@dataclass(frozen=True)
class Violation:
    """A property of the history broken at ``table``."""

    table: str
    what: str

    def __str__(self) -> str:
        return f"table {self.table}: {self.what}"

    @property
    def kind(self) -> str:
        """What is wrong, without the particulars (to count alike violations)."""
        return " ".join(w for w in self.what.split()[:4] if not any(c.isdigit() for c in w))


@dataclass
class Stored:
    """What the database holds of one table: its log, when it was made and when it
    finished (POSIX s)."""

    rows: list[Row]
    created: float
    finished: float | None


def read_history(database_url: str) -> dict[str, Stored]:
    """Every table's action log and end, read from the database at once."""
    engine = create_engine(normalize_url(database_url))
    try:
        with engine.connect() as c:
            tables = {
                table_id: Stored([], _seconds(created), None if finished is None else _seconds(finished))
                for table_id, created, finished in c.execute(text("SELECT id, created, finished FROM tables"))
            }
            query = (
                "SELECT table_id, seq, seat, action, command_id, fence, created"
                " FROM actions ORDER BY table_id, seq"
            )
            for table_id, seq, seat, action, command_id, fence, created in c.execute(text(query)):
                tables.setdefault(table_id, Stored([], 0.0, None)).rows.append(
                    Row(int(seq), int(seat), str(action), command_id, fence, _seconds(created))
                )
    finally:
        engine.dispose()
    return tables


def _seconds(value: datetime | str) -> float:
    return (value if isinstance(value, datetime) else datetime.fromisoformat(value)).timestamp()


def log_violations(table: str, rows: list[Row]) -> list[Violation]:
    """Contiguous versions, command ids used once, fencing tokens never going back."""
    out = []
    if [r.seq for r in rows] != list(range(len(rows))):
        out.append(Violation(table, f"versions are not contiguous: seq {[r.seq for r in rows][:20]}"))
    ids = [(r.seat, r.command_id) for r in rows if r.command_id is not None]
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        out.append(Violation(table, f"command ids in the log more than once: {doubled[:5]}"))
    fences = [r.fence for r in rows]
    if any(f is None for f in fences):
        out.append(Violation(table, "a move without a fencing token"))
    else:
        back = [
            (a.seq, a.fence, b.fence) for a, b in itertools.pairwise(rows) if (b.fence or 0) < (a.fence or 0)
        ]
        if back:
            out.append(
                Violation(
                    table, f"fencing token went back after seq {back[0][0]}: {back[0][1]} -> {back[0][2]}"
                )
            )
    return out


def ack_violations(table: str, seat: int, acks: Iterable[Ack], rows: list[Row]) -> list[Violation]:
    """Every acknowledgement a seat got is the log's row at its place."""
    out = []
    for ack in acks:
        place = ack.version - 1
        row = rows[place] if 0 <= place < len(rows) and rows[place].seq == place else None
        if row is None:
            out.append(
                Violation(
                    table, f"seat {seat}'s acknowledged {ack.command_id} at {ack.version} is not in the log"
                )
            )
        elif (row.seat, row.command_id, row.action) != (seat, ack.command_id, ack.action):
            told = (seat, ack.command_id, ack.action)
            out.append(
                Violation(table, f"seat {seat} was told {told} at {ack.version}; the log has {row[1:4]}")
            )
    return out


def stall_violations(
    table: str, stored: Stored, healed: float, until: float, limit: float
) -> list[Violation]:
    """Once healed (POSIX s; or since the table was made, if later), a move at least every
    ``limit`` seconds until the game's end or ``until``."""
    if stored.finished is not None and stored.finished <= healed:
        return []
    start = max(healed, stored.created)
    end = until if stored.finished is None else min(until, stored.finished)
    if end <= start:
        return []
    times = [start, *(r.created for r in stored.rows if start < r.created <= end), end]
    gap, at = max((b - a, a) for a, b in itertools.pairwise(times))
    if gap > limit:
        return [
            Violation(table, f"no move for {gap:.1f} s after the faults healed (from {at - healed:.1f} s)")
        ]
    return []


def record_violations(table: str, record: Mapping[str, Any]) -> list[Violation]:
    """A finished game's record passes ``paston check`` and ``paston verify``."""
    from paston.cli.verify import verify_game

    try:
        match, fairness = read_record(dict(record))
        if to_record(match, fairness) != record:
            return [Violation(table, "the record does not read back to itself")]
    except RecordError as err:
        return [Violation(table, f"paston check: {err}")]
    _, problems, missing = verify_game(json.loads(json.dumps(record)))
    if problems or missing:
        return [Violation(table, f"paston verify: {problems[:3]} (deals without fairness data: {missing})")]
    if not match.is_over:
        return [Violation(table, "the record of a finished game is not over")]
    return []


Request = Callable[[str, str], tuple[int, Any]]


def load_violations(table: str, rows: list[Row], workers: Mapping[str, Request]) -> list[Violation]:
    """The table loads at every worker (``workers``: a name and its GET), at the log's version."""
    out = []
    for name, get in workers.items():
        try:
            status, body = get("GET", f"/api/tables/{table}")
        except Exception as err:  # a worker that cannot answer is a violation too
            out.append(Violation(table, f"worker {name} could not be asked ({type(err).__name__}: {err})"))
            continue
        if status != 200:
            out.append(Violation(table, f"worker {name} answers {status} {body}"))
        elif int(body.get("version", -1)) != len(rows):
            out.append(
                Violation(table, f"worker {name} is at version {body.get('version')}, the log at {len(rows)}")
            )
    return out
