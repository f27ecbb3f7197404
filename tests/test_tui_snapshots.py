"""SVG snapshots of the terminal app's main screens (pytest-textual-snapshot), in two
languages at 80×24 and 120×40: the auction, the card play, the end of a deal and help.
A change to how the table looks fails here until the snapshots are updated on purpose
(``pytest tests/test_tui_snapshots.py --snapshot-update``) and looked at."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.tui_helpers import play_until, session
from textual.pilot import Pilot

from paston.tui.table_app import PastonApp
from paston.tui.widgets import Dialog, Outcome
from paston.tui.words import Words


def reach(app: PastonApp, done: Callable[[], bool]) -> Callable[[Pilot[Outcome]], Any]:
    """A ``run_before`` that plays the first legal option until ``done``."""

    async def drive(pilot: Pilot[Outcome]) -> None:
        await play_until(pilot, app, done)
        await pilot.pause(0.05)

    return drive


@pytest.mark.parametrize(("lang", "size"), [("en", (80, 24)), ("hy", (80, 24)), ("en", (120, 40))])
def test_the_auction(snap_compare: Any, tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    app = PastonApp(session(tmp_path, 21), delay=0.0, forced_delay=0.0, words=Words(lang))
    assert snap_compare(
        app, terminal_size=size, run_before=reach(app, lambda: bool(app.choices) and not app.busy)
    )


@pytest.mark.parametrize(("lang", "size"), [("en", (80, 24)), ("ru", (80, 24)), ("ru", (120, 40))])
def test_the_card_play(snap_compare: Any, tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    app = PastonApp(session(tmp_path, 7), delay=0.0, forced_delay=0.0, words=Words(lang))

    def done() -> bool:
        return app.plays_cards() and len(app.choices) > 1 and len(app.session.view(0).completed_tricks) >= 2

    assert snap_compare(app, terminal_size=size, run_before=reach(app, done))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_end_of_a_deal(snap_compare: Any, tmp_path: Path, lang: str) -> None:
    app = PastonApp(session(tmp_path, 7), delay=0.0, forced_delay=0.0, words=Words(lang))

    def done() -> bool:
        return isinstance(app.screen, Dialog) and app.session.match.deals[0].is_over

    assert snap_compare(app, terminal_size=(80, 24), run_before=reach(app, done))


def test_help(snap_compare: Any, tmp_path: Path) -> None:
    app = PastonApp(session(tmp_path, 1), delay=0.0, forced_delay=0.0)
    assert snap_compare(app, press=["question_mark"], terminal_size=(80, 24))
