"""Shared pieces of the command line: consoles, option parsing, output files, error exits.

>>> RULES_HELP.startswith("Preset (spanish, flat,")
True
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from paston.bots.base import PLAYERS, parse_player_name
from paston.cli.record_places import for_file, game_lines
from paston.cli.safe import shown
from paston.cli.streams import readable
from paston.cli.text import count
from paston.errors import PastonError, RecordError
from paston.match import Match
from paston.record import iter_file
from paston.rules import PRESETS, Rules

RULES_HELP = (
    f"Preset ({', '.join(PRESETS)}) and/or switches, e.g. 'short' or 'spanish,target=61,lone_defender=flat'."
)
"""The help of every ``--rules`` option: the presets come from :data:`paston.rules.PRESETS`."""


def known_players() -> str:
    """The computer players' names for an option's help: ``random, heuristic, pimc (pimc:1 … pimc:5)``."""
    parts = []
    for p in PLAYERS:
        levels = f" ({p.name}:{p.levels[0]} … {p.name}:{p.levels[-1]})" if p.levels else ""
        parts.append(p.name + levels)
    return ", ".join(parts)


def players_epilog() -> str:
    """Every computer player with its description, for the end of a command's help."""
    lines = ["Computer players:"]
    for p in PLAYERS:
        lines.append(f"- {p.name}: {p.description}.")
    return "\n\n".join(lines)


def given(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` (the parameter's name) was given on the command line."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


def output_file(path: Path, option: str, *, force: bool) -> Path:
    """Check an output file before any work: its folder exists (missing folders are not
    created, so a typo does not scatter files), it is not a folder, and it exists only
    with ``--force``. Refuses with ``error: OPTION: …`` and exit status 2 (the message is
    not wrapped, so the path can be copied)."""
    folder = path.parent
    if path.is_dir():
        fail(f"{option}: {path} is a directory, not a file", 2)
    if not folder.is_dir():
        fail(f"{option}: cannot write {path}: the folder {folder} does not exist", 2)
    if path.exists() and not force:
        fail(f"{option}: {path} already exists; use --force to overwrite it, or another name", 2)
    return path


class SafeConsole(Console):
    """A console that prints text as it is: no markup, no emoji codes, no highlighting,
    and every string it renders (lines, table cells, titles) passed through
    :func:`~paston.cli.safe.shown`, so no name can rewrite the terminal.

    >>> import io
    >>> console = SafeConsole(file=io.StringIO(), width=40)
    >>> console.print("[bold red]Ana :smile: A[/b] \x1b[2J")
    >>> console.file.getvalue()
    '[bold red]Ana :smile: A[/b] �[2J\\n'
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(markup=False, emoji=False, highlight=False, **kwargs)

    def render_str(self, text: str, **kwargs: Any) -> Text:
        """The string as Rich text, made safe first (markup is never read)."""
        kwargs["markup"] = False
        kwargs["emoji"] = False
        return super().render_str(shown(text, keep_newlines=True), **kwargs)


def out_console() -> Console:
    """A console on the current standard output (created per command, so tests capture it)."""
    return SafeConsole(file=sys.stdout, soft_wrap=True)


def err_console() -> Console:
    """A console on standard error, for progress and diagnostics."""
    return SafeConsole(file=sys.stderr, soft_wrap=True)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code``: 2 for a usage problem
    (a bad value, a missing file), 1 for a failed check or a failed command. The message
    names the problem and, after a semicolon, the fix; names and values in it are shown
    safely (:func:`~paston.cli.safe.shown`)."""
    print(f"error: {shown(message, keep_newlines=True)}", file=sys.stderr)
    raise typer.Exit(code)


def parse_rules(text: str) -> Rules:
    """``--rules`` value: a preset and/or ``key=value`` switches."""
    try:
        return Rules.parse(text)
    except PastonError as err:
        raise typer.BadParameter(str(err), param_hint="--rules") from None


def parse_seat(text: str, names: tuple[str, str, str], option: str) -> int:
    """A seat given as 0, 1, 2 or by a player's name (case-insensitive)."""
    t = text.strip()
    if t in ("0", "1", "2"):
        return int(t)
    exact = [seat for seat, name in enumerate(names) if name == t]
    if len(exact) == 1:
        return exact[0]
    folded = [seat for seat, name in enumerate(names) if name.lower() == t.lower()]
    if len(folded) == 1:
        return folded[0]
    if len(folded) > 1 or len(exact) > 1:
        raise typer.BadParameter(f"{text!r} is ambiguous: give the seat number (0, 1, 2)", param_hint=option)
    raise typer.BadParameter(
        f"{text!r} is not a seat (0, 1, 2) or a player name ({', '.join(names)})", param_hint=option
    )


def parse_int_list(text: str, option: str) -> list[int]:
    """``7,3,0`` → ``[7, 3, 0]``."""
    try:
        return [int(p) for p in text.replace(" ", "").split(",") if p != ""]
    except ValueError:
        raise typer.BadParameter(
            f"expected numbers separated by commas, not {text!r}", param_hint=option
        ) from None


def parse_names(text: str, option: str) -> tuple[str, str, str]:
    """Three comma-separated names."""
    names = [p.strip() for p in text.split(",")]
    if len(names) != 3 or not all(names):
        raise typer.BadParameter(f"give exactly three comma-separated names, not {text!r}", param_hint=option)
    if len({n.lower() for n in names}) != 3:
        raise typer.BadParameter(
            f"the three names must differ (ignoring case), not {text!r}", param_hint=option
        )
    if any(n in ("0", "1", "2") for n in names):
        raise typer.BadParameter("a name may not be a seat number (0, 1, 2)", param_hint=option)
    return names[0], names[1], names[2]


def parse_players(text: str, count: int, option: str) -> list[str]:
    """``count`` comma-separated computer player names, each checked."""
    names = [p.strip().lower() for p in text.split(",")]
    if len(names) != count:
        words = ("two", "three")[count - 2]
        raise typer.BadParameter(f"give {words} players, not {text!r}", param_hint=option)
    for name in names:
        try:
            parse_player_name(name)
        except PastonError as err:
            raise typer.BadParameter(str(err), param_hint=option) from None
    return names


def load_game(file: Path, game: int) -> Match:
    """Game ``game`` of a record file, or a readable error and exit."""
    source = readable(file)
    try:
        items = list(iter_file(source))
        text = source.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read {file}: {err}")
    if game >= len(items):
        fail(f"{file} holds {count(len(items), 'game')}; --game must be below {len(items)}", 2)
    item = items[game]
    if isinstance(item, RecordError):
        fail(f"{file}: {for_file(item, text, game_lines(text, len(items)))}")
    return item


def progress_bar(label: str, quiet: bool) -> Progress:
    """A progress bar on stderr (nothing when ``quiet``; cleared when done)."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console(),
        disable=quiet,
        transient=True,
    )
