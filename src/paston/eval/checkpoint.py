"""A tournament's checkpoint: the results of each finished deal, one JSON line per deal, so
that a long tournament stopped by a crash, a reboot or Ctrl-C goes on where it stopped.

The first line names the tournament (format, players, seed, rules); each later line holds
one deal's six rows without their records. A line cut short by a crash is dropped (and
cut from the file) when the checkpoint is read again.

>>> import tempfile, pathlib
>>> from paston.eval.tournament import play_duplicate_deal
>>> path = pathlib.Path(tempfile.mkdtemp()) / "t.ckpt"
>>> ckpt = Checkpoint.open(path, ("heuristic", "random"), seed=1, rules=Rules())
>>> ckpt.done
[]
>>> ckpt.append(play_duplicate_deal(0, "heuristic", "random", seed=1))
>>> ckpt.close()
>>> again = Checkpoint.open(path, ("heuristic", "random"), seed=1, rules=Rules())
>>> len(again.done), [r.arrangement for r in again.done[0]][0]
(1, ('heuristic', 'heuristic', 'random'))
>>> again.close()
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from paston.eval.tournament import DealResultRow
from paston.result import Outcome
from paston.rules import Rules

FORMAT = "paston-tournament-checkpoint/1"


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used for this tournament (another tournament's,
    or damaged beyond its last line)."""


def row_to_json(row: DealResultRow) -> dict[str, Any]:
    """A row as JSON, without its record (times rounded to the microsecond)."""
    return {
        "arrangement": list(row.arrangement),
        "scores": list(row.scores),
        "declarer": row.declarer,
        "outcome": str(row.outcome),
        "contract": row.contract,
        "defenders": list(row.defenders),
        "tricks": list(row.tricks),
        "whist_answers": [[seat, said] for seat, said in row.whist_answers],
        "decision_times": [[round(t, 6) for t in seat] for seat in row.decision_times],
    }


def row_from_json(deal: int, data: dict[str, Any]) -> DealResultRow:
    """The row of :func:`row_to_json` (its record empty)."""
    a0, a1, a2 = (str(x) for x in data["arrangement"])
    s0, s1, s2 = (int(x) for x in data["scores"])
    t0, t1, t2 = (int(x) for x in data["tricks"])
    d0, d1, d2 = (tuple(float(t) for t in seat) for seat in data["decision_times"])
    declarer = data["declarer"]
    return DealResultRow(
        deal=deal,
        arrangement=(a0, a1, a2),
        scores=(s0, s1, s2),
        declarer=None if declarer is None else int(declarer),
        outcome=Outcome(data["outcome"]),
        contract=None if data["contract"] is None else str(data["contract"]),
        defenders=tuple(int(x) for x in data["defenders"]),
        tricks=(t0, t1, t2),
        whist_answers=tuple((int(seat), bool(said)) for seat, said in data["whist_answers"]),
        decision_times=(d0, d1, d2),
        record={},
    )


def _header(players: tuple[str, str], seed: int | str, rules: Rules) -> dict[str, Any]:
    return {"format": FORMAT, "players": list(players), "seed": seed, "rules": rules.to_dict()}


class Checkpoint:
    """An open checkpoint file: the deals already done, and :meth:`append` for the next."""

    def __init__(self, path: Path, done: list[list[DealResultRow]], file: IO[str]) -> None:
        self.path = path
        self.done = done
        self._file = file

    @classmethod
    def open(cls, path: Path, players: tuple[str, str], *, seed: int | str, rules: Rules) -> Checkpoint:
        """Open (or start) the checkpoint of this tournament; :class:`CheckpointError` if
        the file belongs to another tournament or is damaged before its last line."""
        header = _header(players, seed, rules)
        done: list[list[DealResultRow]] = []
        if not path.exists() or path.stat().st_size == 0:
            file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (kept open for appends)
            file.write(json.dumps(header, separators=(",", ":")) + "\n")
            file.flush()
            return cls(path, done, file)
        keep = 0  # bytes of whole, valid lines
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        complete, tail = lines[:-1], lines[-1]
        if not complete:
            raise CheckpointError(f"{path} is not a tournament checkpoint (no header line)")
        try:
            found = json.loads(complete[0])
        except ValueError:
            raise CheckpointError(
                f"{path} is not a tournament checkpoint (its first line is not JSON)"
            ) from None
        if not isinstance(found, dict) or found.get("format") != FORMAT:
            raise CheckpointError(f"{path} is not a tournament checkpoint ({FORMAT})")
        for key in ("players", "seed", "rules"):
            if found.get(key) != header[key]:
                raise CheckpointError(
                    f"{path} is the checkpoint of another tournament: it was made with {key} "
                    f"{json.dumps(found.get(key))}, this run has {json.dumps(header[key])}"
                )
        keep = len(complete[0]) + 1
        for number, line in enumerate(complete[1:], start=2):
            try:
                data = json.loads(line)
                deal = int(data["deal"])
                if deal != len(done):
                    raise CheckpointError(
                        f"{path} line {number}: deal {deal} where deal {len(done)} was expected"
                    )
                rows = [row_from_json(deal, r) for r in data["rows"]]
            except CheckpointError:
                raise
            except (ValueError, KeyError, TypeError) as err:
                if number == len(complete):  # a last line cut short: drop it
                    break
                raise CheckpointError(f"{path} line {number} is damaged: {err}") from None
            done.append(rows)
            keep += len(line) + 1
        if tail or keep < sum(len(x) + 1 for x in complete):
            with open(path, "r+b") as f:
                f.truncate(keep)
        file = open(path, "a", encoding="utf-8")  # noqa: SIM115 (kept open for appends)
        return cls(path, done, file)

    def append(self, rows: Sequence[DealResultRow]) -> None:
        """Record the next deal's rows (flushed and synced to disk)."""
        deal = rows[0].deal
        line = {"deal": deal, "rows": [row_to_json(r) for r in rows]}
        self._file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file."""
        self._file.close()
