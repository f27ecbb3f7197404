"""The figures that ``compare.py`` measures: which script prints each, with which options,
and how to read it back from the script's output.

A :class:`Figure` names the line it is printed on (a regex for the line's start) and the
number within that line (a regex with one group); an optional section bounds the part
of the output searched (hint_time.py prints the same rows twice). A line that is missing,
or present without its number (``skipped …``), reads as ``None`` with the reason:

>>> f = Figure("x", "engine deals/s", "deals/s", True, r"median:", r"([\\d,.]+) deals/s")
>>> read_figure(f, "trial 1: 9 deals/s\\nmedian: 12,630 deals/s (1 scored)")
Reading(value=12630.0, reason='')
>>> read_figure(f, "Traceback ...").reason
"no 'median:' line"
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

#: A number as the scripts print it: ``12,630``, ``0.898``, ``7``.
NUMBER = r"([0-9][0-9,]*(?:\.[0-9]+)?)"
GROUPS = ("engine", "solver", "env", "bots", "server", "hint")
ENV_LOOPS = ("paston-core", "paston-encoder", "paston-views", "pettingzoo", "gymnasium")
BOT_PLAYERS = ("pimc:1", "pimc:2", "pimc:3", "pimc:4", "infer:3")
SOLVER_MODES = {"three-hand": "three-hand", "two-hand": "two-hand", "max^n": "max^n (three-hand)"}


@dataclass(frozen=True)
class Figure:
    """One number a benchmark script prints, and whether more of it is better."""

    key: str
    label: str
    unit: str
    higher_is_better: bool
    line: str
    """Regex matching the start of the figure's line (at a line start)."""
    value: str
    """Regex with one group: the number, searched within that line."""
    section: tuple[str | None, str | None] = (None, None)
    """Regexes of the lines that start and end the part of the output searched."""

    @property
    def better(self) -> str:
        """``'higher'`` or ``'lower'``: which way is better."""
        return "higher" if self.higher_is_better else "lower"


class Reading(NamedTuple):
    """A figure's value in one run's output, or ``None`` and why not."""

    value: float | None
    reason: str = ""


@dataclass(frozen=True)
class Job:
    """One run of one script, yielding some figures."""

    key: str
    group: str
    script: str
    args: tuple[str, ...]
    figures: tuple[Figure, ...]
    database: str = "sqlite"
    """``'postgres'``: run with ``--database-url`` of a fresh database of the tool's cluster."""


@dataclass(frozen=True)
class Settings:
    """How long each benchmark runs: ``quick`` for a smoke run, else a useful comparison."""

    quick: bool = False
    server_tables: int = 100
    server_seconds: float | None = None
    env_loops: tuple[str, ...] = ENV_LOOPS
    bot_players: tuple[str, ...] = BOT_PLAYERS


def section_of(text: str, start: str | None, end: str | None) -> str:
    """The lines of ``text`` from the first matching ``start`` up to the first matching ``end``.

    >>> section_of("a\\nb\\nc\\nd", r"b", r"d")
    'b\\nc\\n'
    """
    if start is not None:
        found = re.search(start, text, re.MULTILINE)
        text = text[found.start() :] if found else ""
    if end is not None:
        found = re.search(end, text, re.MULTILINE)
        text = text[: found.start()] if found else text
    return text


def read_figure(figure: Figure, text: str) -> Reading:
    """The figure's value in a script's output (see the module's example)."""
    part = section_of(text, *figure.section)
    line = re.search(rf"^(?:{figure.line}).*$", part, re.MULTILINE)
    if line is None:
        return Reading(None, f"no {figure.line!r} line")
    number = re.search(figure.value, line.group(0))
    if number is None:
        return Reading(None, f"its line reads {' '.join(line.group(0).split())[:100]!r}")
    try:
        return Reading(float(number.group(1).replace(",", "")))
    except ValueError:
        return Reading(None, f"unreadable number {number.group(1)!r}")


Section = tuple[str | None, str | None]


def higher(key: str, label: str, unit: str, line: str, value: str, section: Section = (None, None)) -> Figure:
    """A figure of which more is better (a rate)."""
    return Figure(key, label, unit, True, line, value, section)


def lower(key: str, label: str, unit: str, line: str, value: str, section: Section = (None, None)) -> Figure:
    """A figure of which less is better (a time, a count of work)."""
    return Figure(key, label, unit, False, line, value, section)


def engine_jobs(s: Settings) -> list[Job]:
    seconds, trials = ("0.2", "1") if s.quick else ("1", "3")
    views = "engine seat-view deals/s (whole games)"
    figures = (
        higher("engine.deals", "engine deals/s", "deals/s", r"median:", rf"{NUMBER}\s*deals/s"),
        higher(
            "engine.views", views, "deals/s", r"whole games through seat", rf"median\s+{NUMBER}\s*deals/s"
        ),
    )
    return [Job("engine", "engine", "random_play.py", ("--seconds", seconds, "--trials", trials), figures)]


def solver_jobs(s: Settings) -> list[Job]:
    deals, maxn = ("30", "5") if s.quick else ("2000", "200")
    figures: list[Figure] = []
    for short, row in SOLVER_MODES.items():
        start = re.escape(row) + r"\s"
        figures += [
            lower(
                f"solver.{short}.ms",
                f"solver {short} ms/solve (mean)",
                "ms",
                start,
                rf"\bmean\s+{NUMBER}\s*ms",
            ),
            lower(
                f"solver.{short}.nodes", f"solver {short} nodes (mean)", "nodes", start, rf"{NUMBER}\s+nodes"
            ),
        ]
    args = ("--deals", deals, "--maxn-deals", maxn, "--reference-deals", "1", "--seed", "1")
    return [Job("solver", "solver", "solver.py", args, tuple(figures))]


def env_jobs(s: Settings) -> list[Job]:
    if not s.env_loops:
        return []
    seconds, trials = ("0.2", "1") if s.quick else ("1", "2")
    table = (r"^loop\s+median", None)  # the medians' table, after the trials
    figures = tuple(
        higher(f"env.{loop}", f"env {loop} decisions/s", "decisions/s", re.escape(loop) + r"\s",
               rf"^\S+\s+{NUMBER}\s*$", table)
        for loop in s.env_loops
    )  # fmt: skip
    args = ("--seconds", seconds, "--trials", trials, "--only", ",".join(s.env_loops))
    return [Job("env", "env", "env_speed.py", args, figures)]


def bot_jobs(s: Settings) -> list[Job]:
    deals = "1" if s.quick else "10"
    jobs = []
    for player in s.bot_players:
        figures = tuple(
            lower(f"bots.{player}.{phase}", f"bots {player} {what} median ms", "ms", rf"{phase}\s",
                  rf"median\s+{NUMBER}\s*ms")
            for phase, what in (("PLAY", "card"), ("AUCTION", "bid"))
        )  # fmt: skip
        args = ("--player", player, "--deals", deals, "--seed", "1")
        jobs.append(Job(f"bots.{player}", "bots", "bot_decisions.py", args, figures))
    return jobs


def server_jobs(s: Settings) -> list[Job]:
    seconds = s.server_seconds if s.server_seconds is not None else (2.0 if s.quick else 10.0)
    args = ("--tables", str(s.server_tables), "--seconds", f"{seconds:g}", "--seed", "1")
    jobs = []
    for database in ("sqlite", "postgres"):
        at, key = f"server {database}, {s.server_tables} tables:", f"server.{database}"
        figures = (
            lower(f"{key}.p50", f"{at} p50 ms", "ms", r"action -> all", rf"p50\s+{NUMBER}\s*ms"),
            lower(f"{key}.p99", f"{at} p99 ms", "ms", r"action -> all", rf"p99\s+{NUMBER}\s*ms"),
            higher(f"{key}.rate", f"{at} actions/s", "actions/s", r"accepted actions", rf"\({NUMBER}\s*/s\)"),
        )
        jobs.append(Job(key, "server", "server_load.py", args, figures, database))
    return jobs


def hint_jobs(s: Settings) -> list[Job]:
    here, there = (None, r"^end to end"), (r"^end to end", None)  # in this process; via the server
    median = rf"\s\d+\s+{NUMBER}"  # the row's n, then its median
    hints = (
        lower("hint.card", "hint card median ms", "ms", r"card\s", median, here),
        lower("hint.bid", "hint bid median ms", "ms", r"bid or pass\s", median, here),
        lower("hint.server.card", "hint card via server median ms", "ms", r"card\s", median, there),
    )
    rows = (("warm", "warm solver"), ("fresh", "fresh solver"), ("worker", "server worker"))
    analyses = tuple(
        lower(f"analysis.{key}", f"analysis {row} median s", "s", rf"{row}\s", rf"median\s+{NUMBER}\s*s")
        for key, row in rows
    )
    deals, server = ("1", "1") if s.quick else ("4", "2")
    hint_args = ("--deals", deals, "--server-deals", server, "--budget", "0")
    return [
        Job("hint", "hint", "hint_time.py", hint_args, hints),
        Job("analysis", "hint", "analysis_time.py", ("--deals", "1" if s.quick else "5"), analyses),
    ]


BUILDERS = {
    "engine": engine_jobs,
    "solver": solver_jobs,
    "env": env_jobs,
    "bots": bot_jobs,
    "server": server_jobs,
    "hint": hint_jobs,
}


def jobs_for(groups: tuple[str, ...], settings: Settings) -> list[Job]:
    """Every job of the selected groups, in the order of :data:`GROUPS`.

    >>> [j.key for j in jobs_for(("server", "engine"), Settings(quick=True))]
    ['engine', 'server.sqlite', 'server.postgres']
    """
    return [job for group in GROUPS if group in groups for job in BUILDERS[group](settings)]


def known_loops(usage_error: str) -> set[str] | None:
    """The loop names env_speed.py lists when given an unknown one, or None if none listed.

    >>> sorted(known_loops("error: unknown loop(s) ?; known: a, b-c"))
    ['a', 'b-c']
    """
    found = re.search(r"known:\s*(.+)$", usage_error, re.MULTILINE)
    return {name.strip() for name in found.group(1).split(",")} if found else None
