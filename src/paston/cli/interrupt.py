"""Ctrl-C in a long command (``tournament``, ``selfplay``): a line saying how far it got
and how to go on, exit status 130 (the shell's 128 + SIGINT), no traceback.

The pool's workers ignore SIGINT (:func:`paston.eval.executor.start_worker`), so the
terminal's Ctrl-C stops only the parent, which leaves its ``with`` blocks (the progress
bar ends, the workers are terminated, the checkpoint and the records are closed with
every finished deal in them) and then calls :func:`stopped`.

>>> interrupted_line(12, 60, "deal", "run the same command again to go on")
'interrupted after 12 of 60 deals; run the same command again to go on'
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

from paston.cli.safe import shown

INTERRUPTED = 130
"""The exit status after Ctrl-C."""


def interrupted_line(done: int, total: int, unit: str, how: str) -> str:
    """``interrupted after N of M units; how``."""
    return f"interrupted after {done} of {total} {unit}{'' if total == 1 else 's'}; {how}"


def stopped(done: int, total: int, unit: str, how: str) -> NoReturn:
    """Print :func:`interrupted_line` on standard error, on a line of its own (after the
    terminal's ``^C``), and exit with status 130."""
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(shown(interrupted_line(done, total, unit, how)), file=sys.stderr)
    raise typer.Exit(INTERRUPTED)


__all__ = ["INTERRUPTED", "interrupted_line", "stopped"]
