"""Self-play for training data: computer players' games or single deals as ``paston/1``
records, one JSON line each, made by independent seeded jobs on any executor.

Job ``i`` depends only on ``(seed, i)``: a whole game is ``seeded_game(f"{seed}:{i}")``,
the same game ``paston simulate`` writes for that seed; a single deal is the first deal
of a game (its redeals included, R1.4–R1.5, R3.4) with the deck, first dealer and bots
drawn from ``paston-selfplay-deal:{seed}:{i}``. So a file made on a Ray cluster equals,
byte for byte, one made in a process pool, and an interrupted file can be finished from
where it stopped (:func:`complete_lines`).

>>> line = selfplay_line(SelfplayJob("deal", 0, ("random", "random", "random"), 7, {}, 1))
>>> from paston.record import loads
>>> loads(line).completed_deals
1
>>> line == selfplay_line(SelfplayJob("deal", 0, ("random", "random", "random"), 7, {}, 1))
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from paston.bots.base import make_player
from paston.bots.runner import play_match, seeded_game
from paston.eval.executor import Executor, SerialExecutor
from paston.match import Match
from paston.record import dumps
from paston.rules import Rules

Unit = Literal["game", "deal"]


@dataclass(frozen=True, slots=True)
class SelfplayJob:
    """One record to make: a whole ``game`` or a single ``deal``, number ``index``."""

    unit: Unit
    index: int
    players: tuple[str, str, str]
    seed: int | str
    rules: dict[str, Any]
    max_deals: int = 1000


def selfplay_match(job: SelfplayJob) -> Match:
    """Play the job's game or deal."""
    rules = Rules.from_dict(job.rules)
    if job.unit == "game":
        return seeded_game(f"{job.seed}:{job.index}", job.players, rules=rules, max_deals=job.max_deals)
    rng = random.Random(f"paston-selfplay-deal:{job.seed}:{job.index}")
    first_dealer = rng.randrange(3)
    players = [make_player(name, seed=rng.getrandbits(64)) for name in job.players]
    match = Match(first_dealer=first_dealer, rules=rules, seats=job.players, rng=rng)
    return play_match(match, players, max_deals=1)


def selfplay_line(job: SelfplayJob) -> str:
    """The job's record as one line of JSON (no newline); made in the worker, so only
    text crosses the wire."""
    return dumps(selfplay_match(job))


def complete_lines(path: Path) -> int:
    """How many whole records (lines ending in a newline) ``path`` holds; a last line cut
    short by a crash is removed from the file. A missing file holds none.

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "x.jsonl"
    >>> _ = p.write_text('{"a":1}\\n{"b":2}\\n{"c"')
    >>> complete_lines(p), p.read_text()
    (2, '{"a":1}\\n{"b":2}\\n')
    """
    if not path.exists():
        return 0
    data = path.read_bytes()
    keep = data.rfind(b"\n") + 1
    if keep != len(data):
        with open(path, "r+b") as f:
            f.truncate(keep)
    return data.count(b"\n", 0, keep)


def resumable(path: Path, job: SelfplayJob) -> bool:
    """Whether the last line of ``path`` is the record ``job`` makes: a file begun with
    other options (seed, players, rules, unit) cannot be finished with these."""
    with open(path, "rb") as f:
        lines = f.read().splitlines()
    return bool(lines) and lines[-1].decode("utf-8", "replace") == selfplay_line(job)


def run_selfplay(
    unit: Unit,
    count: int,
    players: tuple[str, str, str],
    *,
    seed: int | str = 0,
    rules: Rules | None = None,
    max_deals: int = 1000,
    start: int = 0,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[str]:
    """The lines of records ``start`` … ``count - 1``, in order, made on ``executor``
    (this process when none; the caller closes it)."""
    rule_dict = (rules or Rules()).to_dict()
    jobs = (SelfplayJob(unit, i, players, seed, rule_dict, max_deals) for i in range(start, count))
    for line in (executor or SerialExecutor()).map(selfplay_line, jobs):
        if progress:
            progress(1)
        yield line


__all__ = [
    "SelfplayJob",
    "Unit",
    "complete_lines",
    "resumable",
    "run_selfplay",
    "selfplay_line",
    "selfplay_match",
]
