"""``paston replay``: a readable deal-by-deal account of a recorded game."""

from __future__ import annotations

from pathlib import Path

import typer

from paston.cli.common import load_game, out_console
from paston.cli.text import match_account


def replay(
    file: Path = typer.Argument(..., help="A record file (one JSON object or JSON Lines).", dir_okay=False),
    game: int = typer.Option(0, "--game", "-g", min=0, help="Which game of the file (0 = the first)."),
) -> None:
    """Print hands, auction, contract, defence, every trick, scores and totals of a game."""
    item = load_game(file, game)
    console = out_console()
    for line in match_account(item):
        console.print(line, markup=False)
