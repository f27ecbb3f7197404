"""``paston analyze FILE --scores``: every card and decision of a game's finished deals
against perfect play (tricks and R7 points) and against the computer player, as Rich
tables or as the JSON of :func:`paston.eval.analysis.analyze_deal`."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.table import Table

from paston.cards import Card
from paston.cli.common import fail, out_console, progress_bar
from paston.cli.text import count, display_names
from paston.errors import PastonError
from paston.eval.analysis import AnalysisError, analyze_deal
from paston.match import Match
from paston.solver import Solver


def finished_deals(match: Match) -> list[int]:
    """The indexes of the deals that were scored (played, uncontested or surrendered)."""
    return [i for i, d in enumerate(match.deals) if d.is_over and d.result is not None]


def _pretty(text: str) -> str:
    """A card code with its suit symbol (``AH`` → ``A♥``); other actions as they are."""
    if len(text) == 2:
        try:
            return Card.parse(text).pretty()
        except PastonError:  # not a card: an action's text
            return text
    return text


def _number(x: float) -> str:
    return f"{x:g}"


def print_analysis(a: dict[str, Any], names: tuple[str, str, str], number: int) -> None:
    """One deal's analysis as tables: cards by trick, decisions, points lost, mistakes."""
    console = out_console()
    console.print(f"Deal {number} (deals[{a['deal']}]), pimc level {a['level']}", markup=False)
    if a["cards"]:
        per_trick = len({c["seat"] for c in a["cards"]})
        cards = Table(title="Cards (cost against perfect play)", show_edge=False)
        for col in ("trick", "player", "card", "tricks lost", "points lost", "best", "pimc"):
            cards.add_column(col, justify="right" if "lost" in col or col == "trick" else "left")
        for n, c in enumerate(a["cards"]):
            cards.add_row(
                str(n // per_trick + 1),
                names[c["seat"]],
                _pretty(c["card"]),
                str(c["cost_tricks"]),
                _number(c["cost_points"]),
                " ".join(_pretty(b) for b in c["best"]),
                _pretty(c["bot"]),
            )
        console.print(cards)
    if a["decisions"]:
        table = Table(title="Decisions (pimc's expected score for each option)", show_edge=False)
        for col in ("player", "phase", "chosen", "options", "pimc"):
            table.add_column(col)
        for d in a["decisions"]:
            options = ", ".join(f"{o['action']} {o['score']:+g}" for o in d["options"]) or "—"
            table.add_row(names[d["seat"]], d["phase"], d["chosen"], options, d["bot"])
        console.print(table)
    console.print(
        "Points lost to mistakes: " + ", ".join(f"{names[s]} {_number(a['totals'][s])}" for s in range(3)),
        markup=False,
    )
    if a["mistakes"]:
        worst = Table(title="Biggest mistakes", show_edge=False)
        for col in ("action", "player", "what", "points lost"):
            worst.add_column(col, justify="right" if col in ("action", "points lost") else "left")
        for m in a["mistakes"]:
            worst.add_row(str(m["index"]), names[m["seat"]], _pretty(m["what"]), _number(m["cost_points"]))
        console.print(worst)


def analyze_scores(match: Match, deal: int | None, level: int, seed: int, quiet: bool, as_json: bool) -> None:
    """Analyse the game's finished deals (or deal ``deal``) and print them."""
    done = finished_deals(match)
    if deal is not None:
        if not 0 <= deal < len(match.deals):
            size = len(match.deals)
            fail(f"the game has {count(size, 'deal')}; --deal must be below {size}", 2)
        if deal not in done:
            fail(f"deal {deal} is not finished (redealt, or still being played): nothing to analyse", 2)
        done = [deal]
    if not done:
        fail("no deal of this game is finished: nothing to analyse", 2)
    solver = Solver()
    results: list[dict[str, Any]] = []
    total = sum(len(match.deals[i].events) for i in done)
    with progress_bar("analysing", quiet) as progress:
        task = progress.add_task("actions", total=total)
        for i in done:
            before = progress.tasks[0].completed

            def step(k: int, _n: int, base: float = before) -> None:
                progress.update(task, completed=base + k)

            try:
                a = analyze_deal(match.deals[i], i, level=level, seed=seed, solver=solver, progress=step)
            except AnalysisError as err:
                fail(str(err), 2)
            results.append(a)
    if as_json:
        typer.echo(json.dumps(results if deal is None else results[0]))
        return
    names = display_names(match.seats)
    number_of: dict[int, int] = {}
    n = 0
    for i, d in enumerate(match.deals):
        if d.redeal is None:
            n += 1
        number_of[i] = n
    totals = [0.0, 0.0, 0.0]
    for a in results:
        print_analysis(a, names, number_of[a["deal"]])
        totals = [t + x for t, x in zip(totals, a["totals"], strict=True)]
    out_console().print(
        "Total points lost to mistakes: "
        + ", ".join(f"{names[s]} {_number(round(totals[s], 2))}" for s in range(3))
        + f" over {count(len(results), 'finished deal')}",
        markup=False,
    )
