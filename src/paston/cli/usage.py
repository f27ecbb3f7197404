"""One error style for the whole command: Typer's own usage errors (a bad option value,
a missing argument, an unknown option) print as the command's other errors do, one
plain line on standard error, ``error: <problem>; <fix>``, with exit status 2, instead of
Typer's usage line and boxed panel.

>>> from typer.testing import CliRunner
>>> import typer
>>> demo = typer.Typer(cls=PastonGroup)
>>> @demo.command()
... def hello(times: int = typer.Option(1, min=1)) -> None:
...     print("hello " * times)
>>> @demo.command()
... def other() -> None: ...
>>> result = CliRunner().invoke(demo, ["hello", "--times", "0"])
>>> result.exit_code
2
>>> result.output.startswith("error: invalid value for '--times': input should be greater than")
True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from typer.core import TyperGroup

from paston.cli.safe import shown


def usage_line(message: str, command_path: str | None) -> str:
    """The ``error:`` line of a usage error: the message with a lower-case start, and a
    pointer to the command's help unless the message gives its own fix (after ``;``).

    >>> usage_line("Missing option '--out' / '-o'.", "paston simulate")
    "error: missing option '--out' / '-o'; see 'paston simulate --help'"
    >>> usage_line("Invalid value for '--players': give two players; e.g. 'pimc,random'", None)
    "error: invalid value for '--players': give two players; e.g. 'pimc,random'"
    """
    text = shown(message.strip().removesuffix("."))
    if text[:1].isupper() and text[1:2].islower():
        text = text[0].lower() + text[1:]
    text = text.replace(": Input should", ": input should")
    if ";" not in text and command_path:
        text += f"; see '{command_path} --help'"
    return f"error: {text}"


class PastonGroup(TyperGroup):
    """The root command group: runs the command and prints usage errors in the command's
    error style (:func:`usage_line`). Everything else is Typer's: help, ``Exit``, Ctrl-C
    (exit 130)."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command; in standalone mode, exit with its status."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            status = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except Exception as err:
            code = getattr(err, "exit_code", None)
            if type(err).__name__ == "NoArgsIsHelpError":  # the help is already printed
                sys.exit(code)
            if type(err).__name__ == "Abort":  # Typer's end of input at a prompt
                print("error: stopped (end of input)", file=sys.stderr)
                sys.exit(1)
            if code is None or not hasattr(err, "format_message"):
                raise
            ctx = getattr(err, "ctx", None)
            path = ctx.command_path if ctx is not None else None
            print(usage_line(err.format_message(), path), file=sys.stderr)
            sys.exit(code)
        sys.exit(status if isinstance(status, int) else 0)


__all__ = ["PastonGroup", "usage_line"]
