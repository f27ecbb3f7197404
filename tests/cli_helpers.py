"""Running the ``paston`` command in process, as the command-line tests do: ``invoke``,
its output unwrapped, clean successes and failures, and ``paston play`` against random
opponents (``play``) driven by ``DRIVE``, typed lines that suit every prompt."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from paston.cli import app

runner = CliRunner()
_BOX = str.maketrans("", "", "│╭╮╰╯─┃━╇┡┩┏┓┗┛╍")


def invoke(*args: object, input: str | None = None) -> Result:
    """Run ``paston ARGS`` with ``input`` on stdin."""
    return runner.invoke(app, [str(a) for a in args], input=input)


def flat(text: str) -> str:
    """Output without Rich's box drawing and line wrapping, for searching messages."""
    return " ".join(text.translate(_BOX).split())


def assert_ok(result: Result) -> str:
    """A clean success; returns the standard output, unwrapped."""
    assert result.exception is None, result.output
    assert result.exit_code == 0, result.output
    return flat(result.stdout)


def assert_fails(result: Result, *needles: str, code: int | None = None) -> str:
    """A clean failure: non-zero exit, no traceback, every needle in the (unwrapped) output."""
    assert result.exit_code != 0, result.output
    if code is not None:
        assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    text = flat(result.output)
    for needle in needles:
        assert needle in text, text
    return text


# Always the first choice; at the discard prompt "1 2" (the two first cards). At other
# prompts "1 2" is refused and the following "1" is taken, so the feed suits every prompt.
DRIVE = "1 2\n1\n" * 2000


def play(out: Path, *args: object, input: str) -> Result:
    """A game against random opponents (fast) unless the test names others."""
    if "--opponents" not in args:
        args = ("--opponents", "random,random", *args)
    return invoke("play", "--out", out, *args, input=input)
