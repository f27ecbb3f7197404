"""``-`` as a file name: standard input where a record file is read (``replay``,
``check``, ``analyze``, ``hint --record``), standard output where records are written
(``simulate --out -``).

The readers take a path, so standard input is read once into a temporary file that is
removed when the command ends.

>>> import io, sys
>>> sys.stdin = io.StringIO('{"format": "paston/1"}')
>>> spooled = readable(Path("-"))
>>> spooled.read_text(encoding="utf-8")
'{"format": "paston/1"}'
>>> sys.stdin = sys.__stdin__
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

import typer

from paston.cli.safe import shown

STDIO = "-"
"""The file name that means standard input or output."""


def is_stdio(path: Path | str) -> bool:
    """Whether ``path`` is ``-``."""
    return str(path) == STDIO


def readable(path: Path) -> Path:
    """``path``, or for ``-`` a temporary file holding what is left of standard input
    (removed when the process ends); a missing file or a folder is a usage error
    (``error: …``, exit status 2)."""
    if not is_stdio(path):
        if path.is_dir():
            _usage(f"{path} is a directory, not a record file; give a file, or - for standard input")
        if not path.exists():
            _usage(f"{path} does not exist; check the name, or give - for standard input")
        return path
    fd, name = tempfile.mkstemp(prefix="paston-stdin-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(sys.stdin.read())
    atexit.register(_remove, Path(name))
    return Path(name)


def _usage(message: str) -> NoReturn:
    print(f"error: {shown(message)}", file=sys.stderr)
    raise typer.Exit(2)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


__all__ = ["STDIO", "is_stdio", "readable"]
