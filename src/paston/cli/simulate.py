"""``paston simulate``: play many computer games and write their records."""

from __future__ import annotations

import sys
import time
from contextlib import nullcontext
from pathlib import Path

import typer

from paston.bots.runner import seeded_game
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
from paston.cli.text import count
from paston.errors import PastonError
from paston.record import dumps


def simulate(
    out_name: str = typer.Option(
        ..., "--out", "-o", help="Where to write the records (JSON Lines); - for standard output."
    ),
    games: int = typer.Option(1, "--games", "-n", min=1, max=1_000_000, help="Number of games."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed: the same seed gives byte-identical output."),
    players: str = typer.Option(
        "random,random,random",
        "--players",
        "-p",
        help=f"Three players for seats 0,1,2; known: {known_players()}.",
    ),
    rules: str = typer.Option("spanish", "--rules", "-r", help=RULES_HELP),
    max_deals: int = typer.Option(
        1000, "--max-deals", min=1, help="Stop a game after this many deals (its record stays valid)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or summary."),
    force: bool = typer.Option(False, "--force", help="Overwrite the --out file if it exists."),
) -> None:
    """Play N complete games between computer players and write them as paston/1 JSON Lines."""
    rule_set = parse_rules(rules)
    names = parse_players(players, 3, "--players")
    if not out_name.strip():
        fail("--out: the file name is empty; give a file name, or - for standard output", 2)
    out = Path(out_name)
    to_stdout = out_name == "-"
    if not to_stdout:
        output_file(out, "--out", force=force)
    console = err_console()
    start = time.perf_counter()
    deals = 0
    tmp = out.with_name(out.name + ".partial")
    try:
        with (
            nullcontext(sys.stdout) if to_stdout else open(tmp, "w", encoding="utf-8") as f,
            progress_bar("simulating", quiet) as progress,
        ):
            task = progress.add_task("games", total=games)
            for i in range(games):
                match = seeded_game(f"{seed}:{i}", names, rules=rule_set, max_deals=max_deals)
                deals += match.completed_deals
                f.write(dumps(match) + "\n")
                f.flush()
                progress.advance(task)
    except OSError as err:
        fail(f"cannot write {out}: {err.strerror}")
    except PastonError as err:  # pragma: no cover - a bug, reported readably
        fail(str(err))
    if not to_stdout:
        tmp.replace(out)
    if not quiet:
        elapsed = time.perf_counter() - start
        console.print(f"{count(games, 'game')}, {count(deals, 'deal')} in {elapsed:.1f} s → {out}")
