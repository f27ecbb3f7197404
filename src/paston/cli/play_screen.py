"""``paston play`` on the full screen (:mod:`paston.tui`): which mode a game gets, the
language from the locale, and what is printed once the screen closes.

>>> full_screen(plain=False, stdin_tty=True, stdout_tty=True)
True
>>> full_screen(plain=False, stdin_tty=False, stdout_tty=True)
False
>>> full_screen(plain=True, stdin_tty=True, stdout_tty=True)
False
>>> locale_language({"LC_ALL": "", "LC_MESSAGES": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"})
'ru'
>>> locale_language({}), locale_language({"LANG": "C.UTF-8"})
('en', 'en')
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from pathlib import Path

import typer

from paston.bots import Player
from paston.match import Match
from paston.translations import LANGUAGES

__all__ = ["full_screen", "locale_language", "play_full_screen"]

LANGUAGE_HELP = f"The language of the screen: {', '.join(LANGUAGES)} (default: from the locale, LANG)."


def full_screen(*, plain: bool, stdin_tty: bool, stdout_tty: bool) -> bool:
    """The full screen when a person is at a terminal and did not ask for ``--plain``
    (screen readers, scripts and pipes get the line mode)."""
    return not plain and stdin_tty and stdout_tty


def locale_language(environ: Mapping[str, str]) -> str:
    """The language of the first locale variable set (LC_ALL, LC_MESSAGES, LANG), if it
    is one of the client's; English otherwise."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            code = value.split(".")[0].split("_")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def play_full_screen(
    match: Match,
    people: Collection[int],
    bots: dict[int, Player],
    out: Path,
    deck_rng: random.Random,
    *,
    lang: str,
    four_colour: bool,
    seed: int,
) -> None:
    """Run the full-screen game; then say where the record is and how to go on."""
    from paston.tui.session import GameSession
    from paston.tui.table_app import run_app
    from paston.tui.words import Words

    session = GameSession(match, people, bots, out, deck_rng)
    outcome = run_app(session, words=Words(lang), four_colour=four_colour)
    if outcome.finished:
        w = match.winners
        who = " and ".join(match.seats[s] for s in w)
        typer.echo(f"Game over: {who} {'share the victory' if len(w) > 1 else 'wins'}. Record saved to {out}")
        return
    typer.echo(f"Game saved (unfinished) to {out}. Go on with: paston play --resume {out} --seed {seed}")
