"""``paston check``: validate game records by replaying them through the engine."""

from __future__ import annotations

from pathlib import Path

import typer

from paston.cli.common import out_console
from paston.errors import RecordError
from paston.record import iter_file


def check(
    files: list[Path] = typer.Argument(
        ..., help="Record files: one JSON object or JSON Lines.", exists=True, dir_okay=False, readable=True
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only problems."),
) -> None:
    """Validate paston/1 records; exit 0 only if every game of every file is valid."""
    console = out_console()
    bad = 0
    for path in files:
        good = 0
        errors: list[str] = []
        try:
            for item in iter_file(path):
                if isinstance(item, RecordError):
                    errors.append(str(item))
                else:
                    good += 1
        except (OSError, UnicodeDecodeError) as err:
            errors.append(f"cannot read the file: {err}")
        for e in errors:
            console.print(f"{path}: {e}", markup=False)
        if errors:
            bad += 1
            console.print(f"{path}: INVALID ({len(errors)} bad, {good} valid)", markup=False)
        elif not quiet:
            console.print(f"{path}: OK ({good} game{'s' if good != 1 else ''})", markup=False)
    if bad:
        raise typer.Exit(1)
