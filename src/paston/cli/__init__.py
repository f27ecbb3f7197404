"""The ``paston`` command: simulate, check, verify, replay, score, sheet, play, hint.

>>> from typer.testing import CliRunner
>>> result = CliRunner().invoke(app, ["score", "hearts", "--declarer", "0", "--defenders", "1",
...                                   "--tricks", "7,3,0"])
>>> result.exit_code, "+40" in result.output
(0, True)
"""

from __future__ import annotations

import typer

from paston import __version__
from paston.cli.check import check
from paston.cli.common import players_epilog
from paston.cli.executors import OptionalRayCommand
from paston.cli.hint import hint
from paston.cli.play import play
from paston.cli.replay import replay
from paston.cli.score import score, sheet_app
from paston.cli.selfplay_command import selfplay
from paston.cli.serve import serve
from paston.cli.simulate import simulate
from paston.cli.solve import analyze, solve
from paston.cli.tournament_command import tournament
from paston.cli.usage import PastonGroup
from paston.cli.verify import verify

app = typer.Typer(
    name="paston",
    help="Paston, the Armenian three-player card game: play, simulate, check and replay games, keep scores.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=PastonGroup,
)
app.command(epilog=players_epilog())(play)
app.command(epilog=players_epilog())(simulate)
app.command()(check)
app.command()(verify)
app.command()(replay)
app.command()(score)
app.add_typer(sheet_app, name="sheet")
app.command()(solve)
app.command()(analyze)
app.command()(hint)
app.command(epilog=players_epilog(), cls=OptionalRayCommand)(tournament)
app.command(epilog=players_epilog(), cls=OptionalRayCommand)(selfplay)
app.command()(serve)


def _version(value: bool) -> None:
    if value:
        print(f"paston {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_version, is_eager=True
    ),
) -> None:
    """Paston, the Armenian three-player card game."""


def main() -> None:
    """Entry point of the ``paston`` console script."""
    app()
