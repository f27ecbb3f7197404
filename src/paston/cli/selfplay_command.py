"""``paston selfplay``: training records from computer players, in a process pool or on Ray.

The records are ``paston/1`` JSON Lines (one game, or one deal, per line), written in the
jobs' order and flushed line by line; ``--resume`` finishes a file that a crash or Ctrl-C
cut short, and the finished file equals one made in a single run, byte for byte.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

from paston.cli.common import (
    RULES_HELP,
    err_console,
    fail,
    known_players,
    output_file,
    parse_players,
    parse_rules,
    progress_bar,
)
from paston.cli.executors import open_executor, ray_option
from paston.cli.interrupt import stopped
from paston.cli.text import count
from paston.eval.selfplay import SelfplayJob, Unit, complete_lines, resumable, run_selfplay


def not_selfplay(path: Path) -> str | None:
    r"""What shows that ``path`` is not self-play output (JSON Lines of paston/1 records),
    or ``None``; a last line cut short (no newline) is a stopped run's and is allowed.
    The first and the last whole line are read (a long file is not parsed line by line).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "x.json"
    >>> _ = p.write_text('{\n "format": "paston/1"\n}\n')
    >>> not_selfplay(p)
    'line 1 is not a JSON object'
    >>> _ = p.write_text('{"format": "paston/1"}\n{"format": "other"}\n{"cut')
    >>> not_selfplay(p)
    'line 2 is not a paston/1 record'
    """
    try:
        data = path.read_bytes()
    except OSError as err:
        return f"cannot read it: {err.strerror}"
    whole = data[: data.rfind(b"\n") + 1].decode("utf-8", "replace").split("\n")[:-1]
    ends = {1: whole[0], len(whole): whole[-1]} if whole else {}
    for n, line in ends.items():
        try:
            record = json.loads(line)
        except ValueError:
            return f"line {n} is not a JSON object"
        if not isinstance(record, dict):
            return f"line {n} is not a JSON object"
        if record.get("format") != "paston/1":
            return f"line {n} is not a paston/1 record"
    return None


def selfplay(
    out: Path = typer.Option(
        ..., "--out", "-o", dir_okay=False, help="Where to write the records (JSON Lines, one per line)."
    ),
    games: int | None = typer.Option(
        None, "--games", "-g", min=1, max=10_000_000, help="Whole games to play (one record each)."
    ),
    deals: int | None = typer.Option(
        None, "--deals", "-d", min=1, max=10_000_000, help="Single deals to play (one record each)."
    ),
    players: str = typer.Option(
        "heuristic,heuristic,heuristic",
        "--players",
        "-p",
        help=f"Three players for seats 0,1,2; known: {known_players()}.",
    ),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed: the same seed gives byte-identical output."),
    rules: str = typer.Option("spanish", "--rules", "-r", help=RULES_HELP),
    max_deals: int = typer.Option(
        1000, "--max-deals", min=1, help="Stop a game after this many deals (its record stays valid)."
    ),
    workers: int = typer.Option(
        0, "--workers", "-w", min=0, max=256, help="Processes to use (0 = one per CPU core)."
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Keep the whole records already in --out and make only the rest."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or summary."),
    force: bool = typer.Option(False, "--force", help="Overwrite the --out file if it exists."),
    ray: str | None = ray_option(),
) -> None:
    """Play games or single deals between computer players and write them as training records.

    Give --games N (whole games to the target) or --deals N (each record one deal, with
    any redeals before it). Record i depends only on the seed and i, so the output is the
    same with any number of workers, on Ray or not; with --games it is the file
    'paston simulate' writes for the same seed.
    """
    if (games is None) == (deals is None):
        raise typer.BadParameter("give exactly one of --games and --deals", param_hint="--games/--deals")
    unit: Unit = "game" if games is not None else "deal"
    total = games if games is not None else deals
    assert total is not None
    rule_set = parse_rules(rules)
    a, b, c = parse_players(players, 3, "--players")
    if resume and force:
        raise typer.BadParameter("give --resume or --force, not both", param_hint="--resume")
    if resume and out.is_file():
        problem = not_selfplay(out)
        if problem is not None:
            fail(
                f"--resume: {out} is not a file paston selfplay wrote ({problem}); give the file it "
                "wrote, or leave --resume out (with --force to overwrite)",
                2,
            )
        try:
            done = complete_lines(out)
        except OSError as err:
            fail(f"cannot read {out}: {err.strerror}")
        if done > total:
            fail(f"--resume: {out} already holds {count(done, 'record')}, more than the {total} asked for", 2)
        last = SelfplayJob(unit, done - 1, (a, b, c), seed, rule_set.to_dict(), max_deals)
        if done and not resumable(out, last):
            fail(
                f"--resume: the last record of {out} is not record {done - 1} of these options; "
                "give the --seed, --players, --rules, --max-deals and --games/--deals of the first run",
                2,
            )
    else:
        output_file(out, "--out", force=force)
        done = 0
    if done == total:
        if not quiet:
            err_console().print(f"{out} already holds all {count(total, 'record')}", markup=False)
        return
    executor = open_executor(workers, ray)
    console = err_console()
    start = time.perf_counter()
    written = done
    try:
        with (
            executor,
            open(out, "a" if done else "w", encoding="utf-8") as f,
            progress_bar(f"self-play ({unit}s)", quiet) as progress,
        ):
            task = progress.add_task(unit + "s", total=total, completed=done)
            for line in run_selfplay(
                unit,
                total,
                (a, b, c),
                seed=seed,
                rules=rule_set,
                max_deals=max_deals,
                start=done,
                executor=executor,
                progress=lambda k: progress.advance(task, k),
            ):
                f.write(line + "\n")
                f.flush()
                written += 1
    except KeyboardInterrupt:  # the workers ignore it; leaving the with blocks stopped them
        stopped(written, total, "record", "run the same command again with --resume to go on")
    except OSError as err:
        fail(f"cannot write {out}: {err.strerror}")
    if not quiet:
        elapsed = time.perf_counter() - start
        made = count(total - done, unit)
        kept = f" (after {count(done, 'record')} kept)" if done else ""
        console.print(f"{made}{kept} in {elapsed:.1f} s with {executor.describe()} → {out}", markup=False)
