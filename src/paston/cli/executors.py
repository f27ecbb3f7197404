"""Where a command's jobs run: the ``--workers`` process pool or ``--ray [ADDRESS]``.

``--ray`` takes an optional value: alone it means a local Ray instance (``ray.init()``),
with an address it joins that cluster. Click has no such option, so the commands that
offer it are built with :class:`OptionalRayCommand`, which reads a bare ``--ray`` as
``--ray local`` before parsing.

>>> OptionalRayCommand.fill(["--ray", "-n", "3"])
['--ray', 'local', '-n', '3']
>>> OptionalRayCommand.fill(["-n", "3", "--ray"])
['-n', '3', '--ray', 'local']
>>> OptionalRayCommand.fill(["--ray", "10.0.0.5:6379"])
['--ray', '10.0.0.5:6379']
"""

from __future__ import annotations

import os
from typing import Any

import typer
from typer.core import TyperCommand

from paston.cli.common import fail
from paston.eval.distributed import LOCAL, RayUnavailableError, make_executor
from paston.eval.executor import Executor

RAY_HELP = (
    "Spread the work over Ray: alone, a local Ray instance (ray.init()); with an address "
    "(HEAD:6379, auto, ray://HOST:10001), an existing cluster. Needs pip install 'paston\\[ray]'."
)


class OptionalRayCommand(TyperCommand):
    """A command whose ``--ray`` option may be given without a value."""

    @staticmethod
    def fill(args: list[str]) -> list[str]:
        """``args`` with ``local`` after every ``--ray`` that has no value."""
        out: list[str] = []
        for i, arg in enumerate(args):
            out.append(arg)
            if arg == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
                out.append(LOCAL)
        return out

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse, after filling in a bare ``--ray`` (``ctx`` is the click context of Typer's
        own copy of click, whose module is private)."""
        return super().parse_args(ctx, self.fill(args))


def ray_option() -> str | None:
    """The ``--ray [ADDRESS]`` option (``None`` when not given)."""
    value: str | None = typer.Option(None, "--ray", metavar="[ADDRESS]", help=RAY_HELP)
    return value


def open_executor(workers: int, ray: str | None) -> Executor:
    """The executor for ``--workers`` (0: one per core) or ``--ray``; an error exit
    naming the problem when Ray is missing or its cluster cannot be reached."""
    if ray is not None and workers:
        fail("--workers: give --workers or --ray, not both (Ray runs one deal per CPU of the cluster)", 2)
    try:
        return make_executor(workers=workers or os.cpu_count() or 1, ray_address=ray)
    except RayUnavailableError as err:
        fail(str(err))


__all__ = ["RAY_HELP", "OptionalRayCommand", "open_executor", "ray_option"]
