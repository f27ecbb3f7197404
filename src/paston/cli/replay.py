"""``paston replay``: a readable deal-by-deal account of a recorded game."""

from __future__ import annotations

from pathlib import Path

import typer

from paston.cli.common import fail, out_console
from paston.errors import RecordError
from paston.record import iter_file
from paston.text import match_account


def replay(
    file: Path = typer.Argument(
        ..., help="A record file (one JSON object or JSON Lines).", exists=True, dir_okay=False, readable=True
    ),
    game: int = typer.Option(0, "--game", "-g", min=0, help="Which game of the file (0 = the first)."),
) -> None:
    """Print hands, auction, contract, defence, every trick, scores and totals of a game."""
    try:
        items = list(iter_file(file))
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read {file}: {err}")
    if game >= len(items):
        fail(f"{file} holds {len(items)} game(s); --game must be below {len(items)}", 2)
    item = items[game]
    if isinstance(item, RecordError):
        fail(f"{file}: {item}")
    console = out_console()
    for line in match_account(item):
        console.print(line, markup=False)
