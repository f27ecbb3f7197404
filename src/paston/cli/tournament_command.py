"""``paston tournament``: duplicate evaluation of two computer players."""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path

import typer
from rich.table import Table

from paston.cli.common import (
    RULES_HELP,
    fail,
    known_players,
    out_console,
    output_file,
    parse_players,
    parse_rules,
    progress_bar,
)
from paston.cli.executors import open_executor, ray_option
from paston.cli.interrupt import stopped
from paston.cli.text import count
from paston.eval.checkpoint import Checkpoint, CheckpointError
from paston.eval.stats import bootstrap_ci, summarize
from paston.eval.tournament import ARRANGEMENT_COUNT, DealResultRow, run_tournament
from paston.rules import Rules

MIN_DEALS_FOR_CI = 30
"""Below this many deals no confidence interval is printed and no significance claimed:
a percentile bootstrap of so few per-deal means understates the spread (with one deal
the interval has zero width)."""


def verdict(mean: float, lo: float, hi: float, deals: int) -> str:
    """The difference line's claim: an interval and whether it excludes zero, or why not.

    >>> verdict(1.78, 1.78, 1.78, 1)
    '+1.78 points per deal (too few deals for a confidence interval (1 < 30); no claim of significance)'
    >>> verdict(0.5, 0.1, 0.9, 200)
    '+0.50 points per deal, 95% CI [+0.10, +0.90] (significant)'
    """
    if deals < MIN_DEALS_FOR_CI:
        why = f"too few deals for a confidence interval ({deals} < {MIN_DEALS_FOR_CI})"
        return f"{mean:+.2f} points per deal ({why}; no claim of significance)"
    interval = f"95% CI [{lo:+.2f}, {hi:+.2f}]"
    if lo == hi:
        return (
            f"{mean:+.2f} points per deal, {interval} (a zero-width interval: every deal gave the same "
            "difference; no claim of significance)"
        )
    claim = "significant" if lo > 0 or hi < 0 else "not significant"
    return f"{mean:+.2f} points per deal, {interval} ({claim})"


def open_checkpoint(
    path: Path | None, players: tuple[str, str], seed: int, rules: Rules
) -> Checkpoint | None:
    """The ``--checkpoint`` file opened (or started), or a clear error."""
    if path is None:
        return None
    try:
        return Checkpoint.open(path, players, seed=seed, rules=rules)
    except CheckpointError as err:
        fail(f"--checkpoint: {err}")
    except OSError as err:
        fail(f"--checkpoint: cannot use {path}: {err.strerror}")


def keep_records(out: Path, lines: int) -> None:
    """On resuming: keep the first ``lines`` records of ``--out`` (those of the deals the
    checkpoint holds), dropping any of an unfinished deal; an error if it has fewer."""
    try:
        with open(out, "rb") as f:
            data = f.read().split(b"\n")
    except FileNotFoundError:
        fail(f"--out {out} does not exist, but the checkpoint holds finished deals: resume without --out")
    except OSError as err:
        fail(f"cannot read {out}: {err.strerror}")
    whole = data[:-1]
    if len(whole) < lines:
        fail(f"--out {out} holds {len(whole)} records, fewer than the checkpoint's {lines}")
    with open(out, "r+b") as f:
        f.truncate(sum(len(line) + 1 for line in whole[:lines]))


def tournament(
    players: str = typer.Option(
        ...,
        "--players",
        "-p",
        help=f"Two players, e.g. 'pimc,heuristic' or 'pimc:4,pimc:2'; known: {known_players()}.",
    ),
    deals: int = typer.Option(
        100, "--deals", "-n", min=1, max=1_000_000, help="Deals (each played 6 times)."
    ),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the deals and the bots (reproducible)."),
    workers: int = typer.Option(
        0, "--workers", "-w", min=0, max=256, help="Processes to use (0 = one per CPU core)."
    ),
    rules: str = typer.Option("spanish", "--rules", "-r", help=RULES_HELP),
    out: Path | None = typer.Option(
        None, "--out", "-o", dir_okay=False, help="Write every played deal as a paston/1 record (JSON Lines)."
    ),
    resamples: int = typer.Option(2000, "--bootstrap", min=100, max=100_000, help="Bootstrap resamples."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    force: bool = typer.Option(False, "--force", help="Overwrite the --out file if it exists."),
    checkpoint: Path | None = typer.Option(
        None,
        "--checkpoint",
        dir_okay=False,
        help="Keep each finished deal's results in this file, and go on from it if it exists "
        "(the same players, seed and rules): a stopped tournament resumes where it stopped.",
    ),
    ray: str | None = ray_option(),
) -> None:
    """Compare two computer players in a duplicate tournament.

    The same deals are played in all six seatings of the two players; the report gives
    mean points per deal with bootstrap 95% confidence intervals (from 30 deals on),
    make, surrender and whist rates, the contract mix and decision times.
    """
    rule_set = parse_rules(rules)
    names = parse_players(players, 2, "--players")
    a, b = names
    if a == b:
        raise typer.BadParameter("give two different players", param_hint="--players")
    saved = open_checkpoint(checkpoint, (a, b), seed, rule_set)
    all_rows: list[list[DealResultRow]] = saved.done[:deals] if saved else []
    if out is not None:
        if all_rows:
            keep_records(out, ARRANGEMENT_COUNT * len(all_rows))
        else:
            output_file(out, "--out", force=force)
    executor = open_executor(workers, ray)
    start = time.perf_counter()
    f = None
    interrupted = False
    try:
        mode = "a" if all_rows else "w"
        f = open(out, mode, encoding="utf-8") if out is not None else None  # noqa: SIM115
        with executor, progress_bar("duplicate deals", quiet) as progress:
            task = progress.add_task("deals", total=deals, completed=len(all_rows))
            for rows in run_tournament(
                a,
                b,
                deals=deals,
                seed=seed,
                rules=rule_set,
                progress=lambda k: progress.advance(task, k),
                start=len(all_rows),
                executor=executor,
            ):
                all_rows.append(rows)
                if f is not None:
                    for row in rows:
                        f.write(json.dumps(row.record, ensure_ascii=False, separators=(",", ":")) + "\n")
                    f.flush()
                if saved is not None:
                    saved.append(rows)
    except KeyboardInterrupt:  # the workers ignore it; leaving the with blocks stopped them
        interrupted = True
    except OSError as err:
        fail(f"cannot write {err.filename or out}: {err.strerror}")
    finally:
        if f is not None:
            f.close()
        if saved is not None:
            saved.close()
    if interrupted:
        if checkpoint is None:
            how = "nothing was kept: give --checkpoint FILE to be able to go on after a stop"
        else:
            how = f"run the same command again (with --checkpoint {shlex.quote(str(checkpoint))}) to go on"
        stopped(len(all_rows), deals, "deal", how)
    elapsed = time.perf_counter() - start
    summary = summarize(all_rows, a, b)
    console = out_console()
    with_ci = deals >= MIN_DEALS_FOR_CI
    table = Table(
        title=f"Duplicate tournament: {count(deals, 'deal')} × 6 seatings, seed {seed}", show_edge=False
    )
    points = "points/deal [95% CI]" if with_ci else "points/deal"
    for col in ("player", points, "made", "surr.", "whist"):
        table.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
    for name in (a, b):
        s = summary[name]
        lo, hi = bootstrap_ci(s.per_deal, resamples=resamples, seed=seed)
        table.add_row(
            name,
            f"{s.mean:+.2f} [{lo:+.2f}, {hi:+.2f}]" if with_ci else f"{s.mean:+.2f}",
            f"{s.make_rate:.1%}",
            f"{s.surrender_rate:.1%}",
            f"{s.whist_rate:.1%}",
        )
    console.print(table)
    times = Table(title="Decision times (ms)", show_edge=False)
    for col in ("player", "decisions", "mean", "median", "p99"):
        times.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
    for name in (a, b):
        s = summary[name]
        times.add_row(
            name,
            f"{s.decisions:,}",
            f"{s.mean_decision_ms:.2f}",
            f"{s.median_decision_ms:.2f}",
            f"{s.p99_decision_ms:.2f}",
        )
    console.print(times)
    diff = [x - y for x, y in zip(summary[a].per_deal, summary[b].per_deal, strict=True)]
    lo, hi = bootstrap_ci(diff, resamples=resamples, seed=seed)
    mean = sum(diff) / len(diff)
    console.print(f"{a} − {b}: {verdict(mean, lo, hi, deals)}", markup=False)
    for name in (a, b):
        mix = summary[name].contracts
        total = sum(mix.values())
        parts = ", ".join(f"{k} {v / total:.0%}" for k, v in sorted(mix.items(), key=lambda kv: -kv[1]))
        console.print(f"{name} declared {count(total, 'time')}: {parts or '—'}", markup=False)
    resumed = f" (resumed after {count(len(saved.done), 'deal')})" if saved and saved.done else ""
    console.print(
        f"{count(deals, 'deal')} in {elapsed:.1f} s with {executor.describe()}{resumed}"
        + (f"; records in {out}" if out is not None else ""),
        markup=False,
    )
