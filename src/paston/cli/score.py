"""``paston score`` and ``paston sheet``: scoring for games played with real cards."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import typer
from rich.table import Table

from paston.cli.common import (
    RULES_HELP,
    fail,
    out_console,
    output_file,
    parse_int_list,
    parse_names,
    parse_rules,
    parse_seat,
)
from paston.cli.safe import shown
from paston.cli.text import signed
from paston.contracts import Contract
from paston.errors import PastonError
from paston.result import DealResult, Outcome
from paston.rules import Rules
from paston.sheet import ScoreSheet, score_deal

_CONTRACT_HELP = (
    "spades, clubs, diamonds, hearts, best-spades "
    "(or paston, glitch, dineri, gupa, paston grkha), or surrender"
)


def _result(
    what: str,
    declarer: str,
    defenders: str,
    tricks: str,
    uncontested: bool,
    rules: Rules,
    names: tuple[str, str, str],
) -> DealResult:
    seat = parse_seat(declarer, names, "--declarer")
    try:
        if what.strip().lower() == "surrender":
            if defenders or tricks or uncontested:
                raise typer.BadParameter("a surrender has no defenders, tricks or --uncontested")
            return score_deal("surrender", declarer=seat, rules=rules)
        contract = Contract.parse(what)
        if uncontested:
            if defenders or tricks:
                raise typer.BadParameter("an uncontested deal has no defenders or tricks")
            return score_deal("uncontested", declarer=seat, contract=contract, rules=rules)
        if not defenders or not tricks:
            raise typer.BadParameter(
                "a played deal needs --defenders (who said whist) and --tricks (per seat, e.g. 6,3,1); "
                "use --uncontested if both opponents passed"
            )
        defs = [parse_seat(d, names, "--defenders") for d in defenders.split(",") if d.strip()]
        counts = parse_int_list(tricks, "--tricks")
        return score_deal(
            "played", declarer=seat, contract=contract, defenders=defs, tricks=counts, rules=rules
        )
    except PastonError as err:
        raise typer.BadParameter(by_name(str(err), names)) from None


def by_name(message: str, names: tuple[str, str, str]) -> str:
    """An engine message with its seats named by the players' names.

    >>> by_name("R5.2: seat 2 passed, takes no part", ("Ana", "Bo", "Cy"))
    'R5.2: Cy passed, takes no part'
    """
    return _SEAT.sub(lambda m: names[int(m.group(1))], message)


_SEAT = re.compile(r"\bseat ([0-2])\b")


def _print_result(result: DealResult, names: tuple[str, str, str]) -> None:
    console = out_console()
    table = Table(title="Deal scores", show_edge=False)
    for col in ("seat", "player", "role", "tricks", "score"):
        table.add_column(col, justify="right" if col in ("tricks", "score", "seat") else "left")
    for s in range(3):
        if s == result.declarer:
            role = "declarer"
        elif s in result.defenders:
            role = "defender" if len(result.defenders) == 2 else "lone defender"
        else:
            role = "opponent" if result.outcome is not Outcome.PLAYED else "passed"
        table.add_row(
            str(s),
            names[s],
            role,
            str(result.tricks[s]) if result.outcome is Outcome.PLAYED else "—",
            signed(result.scores[s]),
        )
    contract = result.contract.pretty() if result.contract is not None else "—"
    console.print(f"{result.outcome}: {contract}")
    console.print(table)


def score(
    contract: str = typer.Argument(..., help=_CONTRACT_HELP),
    declarer: str = typer.Option("0", "--declarer", "-d", help="The declarer: seat 0, 1, 2 or a name."),
    defenders: str = typer.Option(
        "", "--defenders", "-w", help="Who said whist, comma-separated seats or names (e.g. 1,2)."
    ),
    tricks: str = typer.Option("", "--tricks", "-t", help="Tricks per seat 0,1,2, e.g. 6,3,1 (sum 10)."),
    uncontested: bool = typer.Option(False, "--uncontested", "-u", help="Both opponents passed (R5.3)."),
    rules: str = typer.Option("spanish", "--rules", "-r", help=RULES_HELP),
    names: str = typer.Option("Seat 0,Seat 1,Seat 2", "--names", help="Three player names."),
) -> None:
    """Score one deal played with real cards (R7) and print the three deal scores."""
    rule_set = parse_rules(rules)
    players = parse_names(names, "--names")
    _print_result(_result(contract, declarer, defenders, tricks, uncontested, rule_set, players), players)


sheet_app = typer.Typer(
    help="Keep a running score sheet of a game at a real table (new, add, show, undo; saved after "
    "every change).",
    no_args_is_help=True,
)


def _load(path: Path) -> ScoreSheet:
    try:
        return ScoreSheet.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        fail(f"no sheet at {path}; start one with: paston sheet new {path} --players A,B,C", 2)
    except PastonError as err:
        fail(f"{path}: {err}")
    except (OSError, ValueError, RecursionError) as err:  # UnicodeDecodeError and JSON errors are ValueErrors
        fail(f"cannot read the sheet {path}: {err}")


def _save(sheet: ScoreSheet, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(sheet.to_dict(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as err:
        fail(f"cannot save the sheet {path}: {err.strerror}")


def _show(sheet: ScoreSheet) -> None:
    console = out_console()
    names = tuple(shown(name) for name in sheet.players)
    table = Table(title=f"Paston score sheet (target {sheet.rules.target})", show_edge=False)
    table.add_column("#", justify="right")
    table.add_column("deal")
    for n in names:
        table.add_column(n, justify="right")
    history = sheet.totals_history
    for i, e in enumerate(sheet.entries):
        contract = e.contract.word if e.contract is not None else ""
        what = f"{names[e.declarer]}: {e.outcome} {contract}".strip()
        resets = sheet.resets(i)
        cells = []
        for s in range(3):
            cell = f"{signed(e.scores[s])} → {history[i][s]}"
            if s in resets:
                cell += " ↺0"
            cells.append(cell)
        table.add_row(str(i + 1), what, *cells)
    console.print(table)
    totals = sheet.totals
    console.print("Totals: " + ", ".join(f"{names[s]} {totals[s]}" for s in range(3)))
    if any(sheet.resets(i) for i in range(len(sheet.entries))):
        console.print(f"↺0: a total of exactly -{sheet.rules.target} was reset to 0 (R8.2).")
    w = sheet.winners
    if w:
        who = " and ".join(names[s] for s in w)
        console.print(f"Game over: {who} {'share the victory' if len(w) > 1 else 'wins'} (R8.3).")


@sheet_app.command("new")
def sheet_new(
    file: Path = typer.Argument(..., help="Where to keep the sheet (JSON).", dir_okay=False),
    players: str = typer.Option(..., "--players", "-p", help="Three names, seats 0,1,2 clockwise."),
    rules: str = typer.Option("spanish", "--rules", "-r", help=RULES_HELP),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing sheet."),
) -> None:
    """Start a new score sheet."""
    names = parse_names(players, "--players")
    rule_set = parse_rules(rules)
    output_file(file, "FILE", force=force)
    sheet = ScoreSheet(players=names, rules=rule_set)
    _save(sheet, file)
    out_console().print(
        f"New sheet {file}: {', '.join(shown(n) for n in names)}; rules {rule_set.describe()}", markup=False
    )


@sheet_app.command("add")
def sheet_add(
    file: Path = typer.Argument(..., help="The sheet file.", dir_okay=False),
    contract: str = typer.Argument(..., help=_CONTRACT_HELP),
    declarer: str = typer.Option(..., "--declarer", "-d", help="The declarer: seat or name."),
    defenders: str = typer.Option("", "--defenders", "-w", help="Who said whist: seats or names."),
    tricks: str = typer.Option("", "--tricks", "-t", help="Tricks per seat 0,1,2, e.g. 6,3,1."),
    uncontested: bool = typer.Option(False, "--uncontested", "-u", help="Both opponents passed."),
) -> None:
    """Add a deal to the sheet and show the totals."""
    sheet = _load(file)
    result = _result(contract, declarer, defenders, tricks, uncontested, sheet.rules, sheet.players)
    try:
        sheet.add(result)
    except PastonError as err:
        fail(str(err))
    _save(sheet, file)
    _show(sheet)


@sheet_app.command("show")
def sheet_show(file: Path = typer.Argument(..., help="The sheet file.", dir_okay=False)) -> None:
    """Show every deal, the running totals, resets and the winner."""
    _show(_load(file))


@sheet_app.command("undo")
def sheet_undo(file: Path = typer.Argument(..., help="The sheet file.", dir_okay=False)) -> None:
    """Remove the last deal entered."""
    sheet = _load(file)
    try:
        sheet.undo()
    except PastonError as err:
        fail(str(err))
    _save(sheet, file)
    _show(sheet)
