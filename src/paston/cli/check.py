"""``paston check``: validate game records by replaying them through the engine.

Problems are located in the file as an editor counts lines
(:mod:`paston.cli.record_places`)."""

from __future__ import annotations

from pathlib import Path

import typer

from paston.cli.common import out_console
from paston.cli.record_places import for_file, game_lines
from paston.cli.streams import readable
from paston.cli.text import count
from paston.errors import RecordError
from paston.record import iter_file


def check(
    files: list[Path] = typer.Argument(
        ..., help="Record files: one JSON object or JSON Lines.", dir_okay=False
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only problems."),
) -> None:
    """Validate paston/1 records; exit 0 only if every game of every file is valid."""
    console = out_console()
    bad = 0
    for path in files:
        good = 0
        errors: list[str] = []
        source = readable(path)
        try:
            items = list(iter_file(source))
            text = source.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as err:
            items, text = [], ""
            errors.append(f"cannot read the file: {err}")
        lines = game_lines(text, len(items))
        for item in items:
            if isinstance(item, RecordError):
                errors.append(for_file(item, text, lines))
            else:
                good += 1
        for e in errors:
            console.print(f"{path}: {e}", markup=False)
        if errors:
            bad += 1
            console.print(f"{path}: INVALID ({len(errors)} bad, {good} valid)", markup=False)
        elif not quiet:
            console.print(f"{path}: OK ({count(good, 'game')})", markup=False)
    if bad:
        raise typer.Exit(1)
