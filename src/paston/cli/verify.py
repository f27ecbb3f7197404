"""``paston verify``: re-derive every deck of a record from its fairness data.

Each deal's ``fairness`` object (docs/FAIRNESS.md) must re-derive exactly the deal's
``deck``, its commitment must be the SHA-256 of its secret, and the objects of a game
must link up. Only the decks are checked here; ``paston check`` replays the rules.
Exit 0 when every deal with fairness data matches (deals without any are named, not
verified), 1 when a deal does not match, 2 when the file cannot be read as records.

>>> from paston.cli.verify import verify_game
>>> verify_game({"deals": [{"deck": []}]})
(0, [], [0])
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from paston.cards import Card
from paston.cli.common import out_console
from paston.cli.text import count
from paston.errors import ParseError
from paston.fairness import Chain


def _deck(value: object) -> list[int] | None:
    if not isinstance(value, list) or len(value) != 32 or not all(isinstance(c, str) for c in value):
        return None
    try:
        return [Card.parse(c).index for c in value]
    except ParseError:
        return None


def verify_game(game: dict[str, Any]) -> tuple[int, list[str], list[int]]:
    """Checks one record object: ``(deals verified, problems, deals without fairness data)``;
    each problem names its deal."""
    chain = Chain()
    verified, problems, missing = 0, [], []
    for i, entry in enumerate(game["deals"]):
        if not isinstance(entry, dict):
            problems.append(f"deal {i}: a deal must be a JSON object")
            chain.check(None, [], i)
            continue
        if "fairness" not in entry:
            missing.append(i)
            chain.check(None, [], i)
            continue
        deck = _deck(entry.get("deck"))
        if entry["fairness"] is None:
            why: str | None = "fairness must be a JSON object (or absent)"
        elif deck is None:
            why = "deck must be a list of 32 card codes"
        else:
            why = chain.check(entry["fairness"], deck, i)
        if why is None:
            verified += 1
        else:
            problems.append(f"deal {i}: {why}")
    return verified, problems, missing


def read_games(path: Path) -> list[dict[str, Any]]:
    """The record objects of a file (one JSON object, or JSON Lines); ``ValueError`` or
    ``OSError`` when it holds none that can be read."""
    text = path.read_text(encoding="utf-8-sig").strip()
    try:
        whole = json.loads(text)
        items = [whole] if isinstance(whole, dict) else None
    except (ValueError, RecursionError):  # JSON errors, integers too long to read
        items = None
    if items is None:
        items = []
        for n, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    items.append(json.loads(line))
                except (ValueError, RecursionError):  # JSON errors, integers too long to read
                    raise ValueError(f"line {n} is not JSON") from None
    if not items:
        raise ValueError("the file holds no game record")
    for n, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("deals"), list):
            raise ValueError(f"game {n} is not a record (a JSON object with a list of deals)")
    return items


def verify(
    file: Path = typer.Argument(..., help="A record file: one JSON object or JSON Lines.", dir_okay=False),
) -> None:
    """Re-derive every deck of a record from its fairness data (docs/FAIRNESS.md).

    Exit 0 if every deal with fairness data matches, 1 if a deal does not, 2 if the file
    cannot be read.
    """
    console = out_console()
    try:
        games = read_games(file)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        console.print(f"{file}: cannot read the records: {err}", markup=False)
        raise typer.Exit(2) from None
    bad = 0
    for n, game in enumerate(games):
        where = f"{file}: game {n}" if len(games) > 1 else str(file)
        verified, problems, missing = verify_game(game)
        for p in problems:
            console.print(f"{where}: {p}", markup=False)
        if problems:
            bad += 1
            console.print(f"{where}: MISMATCH ({count(len(problems), 'deal')} wrong)", markup=False)
            continue
        if missing and not verified:
            console.print(
                f"{where}: no fairness data in its {count(len(missing), 'deal')}: not verified", markup=False
            )
        elif missing:
            listed = ", ".join(str(i) for i in missing)
            console.print(f"{where}: no fairness data for deals {listed}: not verified", markup=False)
        if verified or not missing:
            console.print(f"{where}: OK ({count(verified, 'deal')} verified)", markup=False)
    if bad:
        raise typer.Exit(1)
