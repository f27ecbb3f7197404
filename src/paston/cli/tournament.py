"""``paston tournament``: duplicate evaluation of two computer players."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import typer
from rich.table import Table

from paston.cli.common import fail, out_console, parse_players, parse_rules, progress_bar
from paston.eval.stats import bootstrap_ci, summarize
from paston.eval.tournament import DealResultRow, run_tournament


def tournament(
    players: str = typer.Option(
        ..., "--players", "-p", help="Two players, e.g. 'pimc,heuristic' or 'pimc:4,pimc:2'."
    ),
    deals: int = typer.Option(
        100, "--deals", "-n", min=1, max=1_000_000, help="Deals (each played 6 times)."
    ),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the deals and the bots (reproducible)."),
    workers: int = typer.Option(
        0, "--workers", "-w", min=0, max=256, help="Processes to use (0 = one per CPU core)."
    ),
    rules: str = typer.Option("spanish", "--rules", "-r", help="Preset and/or switches."),
    out: Path | None = typer.Option(
        None, "--out", "-o", dir_okay=False, help="Write every played deal as a paston/1 record (JSON Lines)."
    ),
    resamples: int = typer.Option(2000, "--bootstrap", min=100, max=100_000, help="Bootstrap resamples."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Duplicate tournament: the same deals in all six seatings of two bots; mean points per deal
    with bootstrap 95% confidence intervals, make/surrender/whist rates, contract mix, times."""
    rule_set = parse_rules(rules)
    names = parse_players(players, 2, "--players")
    a, b = names
    if a == b:
        raise typer.BadParameter("give two different players", param_hint="--players")
    if out is not None and not (out.parent if str(out.parent) else Path(".")).is_dir():
        raise typer.BadParameter(f"the folder {out.parent} does not exist", param_hint="--out")
    n_workers = workers or os.cpu_count() or 1
    all_rows: list[list[DealResultRow]] = []
    start = time.perf_counter()
    f = None
    try:
        f = open(out, "w", encoding="utf-8") if out is not None else None  # noqa: SIM115
        with progress_bar("duplicate deals", quiet) as progress:
            task = progress.add_task("deals", total=deals)
            for rows in run_tournament(
                a,
                b,
                deals=deals,
                seed=seed,
                workers=n_workers,
                rules=rule_set,
                progress=lambda k: progress.advance(task, k),
            ):
                all_rows.append(rows)
                if f is not None:
                    for row in rows:
                        f.write(json.dumps(row.record, ensure_ascii=False, separators=(",", ":")) + "\n")
                    f.flush()
    except OSError as err:
        fail(f"cannot write {out}: {err.strerror}")
    finally:
        if f is not None:
            f.close()
    elapsed = time.perf_counter() - start
    summary = summarize(all_rows, a, b)
    console = out_console()
    table = Table(title=f"Duplicate tournament: {deals} deals × 6 seatings, seed {seed}", show_edge=False)
    for col in ("player", "points/deal [95% CI]", "made", "surr.", "whist", "ms/dec."):
        table.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
    for name in (a, b):
        s = summary[name]
        lo, hi = bootstrap_ci(s.per_deal, resamples=resamples, seed=seed)
        table.add_row(
            name,
            f"{s.mean:+.2f} [{lo:+.2f}, {hi:+.2f}]",
            f"{s.make_rate:.1%}",
            f"{s.surrender_rate:.1%}",
            f"{s.whist_rate:.1%}",
            f"{s.mean_decision_ms:.2f}",
        )
    console.print(table)
    diff = [x - y for x, y in zip(summary[a].per_deal, summary[b].per_deal, strict=True)]
    lo, hi = bootstrap_ci(diff, resamples=resamples, seed=seed)
    mean = sum(diff) / len(diff)
    verdict = "significant" if lo > 0 or hi < 0 else "not significant"
    console.print(
        f"{a} − {b}: {mean:+.2f} points per deal, 95% CI [{lo:+.2f}, {hi:+.2f}] ({verdict})", markup=False
    )
    for name in (a, b):
        mix = summary[name].contracts
        total = sum(mix.values())
        parts = ", ".join(f"{k} {v / total:.0%}" for k, v in sorted(mix.items(), key=lambda kv: -kv[1]))
        console.print(f"{name} declared {total} times: {parts or '—'}", markup=False)
    console.print(
        f"{deals} deals in {elapsed:.1f} s with {n_workers} worker(s)"
        + (f"; records in {out}" if out is not None else ""),
        markup=False,
    )
