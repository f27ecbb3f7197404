"""``paston play``: play a whole game in the terminal against two computer players,
or resume one saved by ``quit``.

The computer players sit as ``Computer A (infer, level 3)`` and ``Computer B (random)``
(the letters in seat order), so that two of the same kind read apart; games saved
before this naming (``infer:3 (1)``) still resume.

>>> computer_name(0, "infer:3"), computer_name(1, "random")
('Computer A (infer, level 3)', 'Computer B (random)')
>>> bot_name("Computer B (pimc, level 2)", 2), bot_name("pimc:3 (1)", 1), bot_name("random", 2)
('pimc:2', 'pimc:3', 'random')
>>> bot_name("Ana", 0), bot_name("random (2)", 1), bot_name("Computer A (nobody)", 1)
(None, None, None)
"""

from __future__ import annotations

import os
import random
import re
import secrets
import sys
from datetime import datetime
from pathlib import Path

import typer

from paston.bots import Player, make_player
from paston.bots.base import parse_player_name
from paston.bots.registry import DEFAULT_PLAYER, PLAYERS_BY_NAME
from paston.cli.common import (
    RULES_HELP,
    fail,
    given,
    known_players,
    output_file,
    parse_rules,
)
from paston.cli.play_screen import LANGUAGE_HELP, full_screen, locale_language, play_full_screen
from paston.cli.safe import shown
from paston.cli.terminal import TerminalGame
from paston.cli.text import PERSON, count
from paston.dealing import shuffled_deck
from paston.errors import PastonError, RecordError
from paston.match import Match
from paston.record import iter_file
from paston.translations import LANGUAGES

_SEAT_SUFFIX = re.compile(r"(.*) \(([0-2])\)")
_COMPUTER = re.compile(r"Computer [A-Z] \(([a-z]+)(?:, level ([0-9]))?\)", re.IGNORECASE)


def computer_name(index: int, player: str) -> str:
    """The seat name of the ``index``-th computer player (0: ``Computer A``) playing as
    ``player`` (``infer:3``)."""
    kind, _, level = player.partition(":")
    return f"Computer {chr(ord('A') + index)} ({kind}" + (f", level {level})" if level else ")")


def bot_name(seat_name: str, seat: int) -> str | None:
    """The computer player a seat name stands for (``Computer A (pimc, level 3)`` →
    ``pimc:3``; the older ``pimc:3 (1)`` in seat 1 and a bare player name too), or
    ``None`` for a person."""
    computer = _COMPUTER.fullmatch(seat_name)
    if computer is not None:
        seat_name = computer.group(1) + (f":{computer.group(2)}" if computer.group(2) else "")
    found = _SEAT_SUFFIX.fullmatch(seat_name)
    if found is not None:
        if int(found.group(2)) != seat:
            return None
        seat_name = found.group(1)
    try:
        kind, level = parse_player_name(seat_name)
    except PastonError:
        return None
    return kind if level is None else f"{kind}:{level}"


def _rng(seed: int) -> random.Random:
    return random.Random(f"paston-play:{seed}")


def _bots(names: dict[int, str], rng: random.Random) -> dict[int, Player]:
    """The computer players, seeded from ``rng`` in seat order."""
    return {s: make_player(names[s], seed=rng.getrandbits(64)) for s in sorted(names)}


def _new_game(
    name: str, seat: int, opponents: str, level: int, seed: int, rules: str, humans: int = 1
) -> tuple[Match, dict[int, Player], random.Random]:
    rule_set = parse_rules(rules)
    bot_names = [o.strip().lower() for o in opponents.split(",")][: 3 - humans]
    if len(bot_names) != 3 - humans:
        raise typer.BadParameter(
            f"give {3 - humans} of {known_players()}, not {opponents!r}", param_hint="--opponents"
        )
    for i, text in enumerate(bot_names):
        try:
            kind, bot_level = parse_player_name(text)
        except PastonError as err:
            raise typer.BadParameter(str(err), param_hint="--opponents") from None
        bot_names[i] = kind if bot_level is None else f"{kind}:{bot_level}"
        if bot_level is None and PLAYERS_BY_NAME[kind].levels:
            bot_names[i] = f"{kind}:{level}"
    people = [(seat + i) % 3 for i in range(humans)]
    given_names = [n.strip() for n in name.split(",")] if humans > 1 else [name.strip()]
    if humans > 1 and name == PERSON:
        given_names = [f"Player {i + 1}" for i in range(humans)]
    if len(given_names) != humans:
        raise typer.BadParameter(
            f"give {humans} names separated by commas for --humans {humans}, not {name!r}",
            param_hint="--name",
        )
    if len(set(given_names)) != len(given_names):
        raise typer.BadParameter("each person needs a name of their own", param_hint="--name")
    names = ["", "", ""]
    for s, person in zip(people, given_names, strict=True):
        if not person:
            raise typer.BadParameter("the name may not be empty", param_hint="--name")
        if bot_name(person, s) is not None or _SEAT_SUFFIX.fullmatch(person) or _COMPUTER.match(person):
            raise typer.BadParameter(
                f"{person!r} looks like a computer player's name; choose another, so that every name "
                "shown differs and a saved game tells who played",
                param_hint="--name",
            )
        names[s] = person
    other = [s for s in range(3) if s not in people]
    for index, (s, bot) in enumerate(zip(other, bot_names, strict=True)):
        names[s] = computer_name(index, bot)
    rng = _rng(seed)
    bots = _bots({s: bot for s, bot in zip(other, bot_names, strict=True)}, rng)
    match = Match(first_dealer=rng.randrange(3), rules=rule_set, seats=tuple(names))
    return match, bots, rng


def _resume(
    file: Path, seat: int | None, seed: int | None, *, many: bool = False
) -> tuple[Match, int, dict[int, Player], int, random.Random]:
    """The saved game, the person's seat, the rebuilt opponents, the seed and the deck
    source of the deals to come. With the game's own seed, the opponents get their seeds
    again and the deals to come are the ones the game would have had."""
    try:
        items = list(iter_file(file))
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read {file}: {err}")
    if len(items) != 1:
        fail(
            f"{file} holds {count(len(items), 'game')}; --resume needs a file with one game, "
            "as paston play saves",
            2,
        )
    match = items[0]
    if isinstance(match, RecordError):
        fail(f"{file}: {match}")
    if match.is_over:
        fail(f"the game in {file} is over; there is nothing to resume", 2)
    bots = {s: bot_name(n, s) for s, n in enumerate(match.seats)}
    if seat is None:
        people = [s for s, bot in bots.items() if bot is None]
        if many and len(people) > 1:
            people = people[:1]  # the others are people too: see _people
        if len(people) != 1:
            fail(
                f"cannot tell which seat is yours in {file} (seats: {', '.join(match.seats)}); give --seat",
                2,
            )
        seat = people[0]
    opponents = {s: bot for s, bot in bots.items() if s != seat and not (many and bot is None)}
    missing = [match.seats[s] for s, bot in opponents.items() if bot is None]
    if missing:
        fail(f"{missing[0]!r} in {file} is not a computer player's name, so it cannot be rebuilt", 2)
    named = {s: bot for s, bot in opponents.items() if bot is not None}
    if seed is None:
        seed = secrets.randbelow(2**32)
        rng = _rng(seed)
        return match, seat, _bots(named, rng), seed, rng
    rng = _rng(seed)
    rebuilt = _bots(named, rng)
    same = rng.randrange(3) == match.first_dealer and all(
        [int(c) for c in shuffled_deck(rng)] == [int(c) for c in deal.deck] for deal in match.deals
    )
    if not same:
        fail(f"{file} was not dealt with --seed {seed}; leave --seed out to go on with new random deals", 2)
    return match, seat, rebuilt, seed, rng


def play(
    ctx: typer.Context,
    name: str = typer.Option(PERSON, "--name", help="Your name on the score sheet."),
    seat: int = typer.Option(0, "--seat", min=0, max=2, help="Your seat (0, 1, 2; clockwise)."),
    opponents: str = typer.Option(
        f"{DEFAULT_PLAYER},{DEFAULT_PLAYER}",
        "--opponents",
        help=f"The two computer players; known: {known_players()}.",
    ),
    level: int = typer.Option(
        3,
        "--level",
        "-l",
        min=1,
        max=5,
        help="Strength of opponents named without a level (infer, pimc): 1 (weakest) to 5 (strongest).",
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Seed for a reproducible game (random if not given)."
    ),
    rules: str = typer.Option("spanish", "--rules", "-r", help=RULES_HELP),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        dir_okay=False,
        help="Where to save the game record (default: paston-DATE.json here).",
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite the --out file if it exists."),
    pause: bool | None = typer.Option(
        None,
        "--pause/--no-pause",
        help="Wait for Enter after each deal's summary (default: when the input is a terminal).",
    ),
    plain: bool = typer.Option(
        False,
        "--plain",
        help="Numbered prompts line by line instead of the full screen (the default when the input "
        "or output is not a terminal; for screen readers and scripts).",
    ),
    lang: str | None = typer.Option(None, "--lang", help=LANGUAGE_HELP),
    four_colour: bool = typer.Option(
        False, "--four-colour", help="Each suit its own colour (♠ white, ♣ green, ♦ blue, ♥ red)."
    ),
    humans: int = typer.Option(
        1,
        "--humans",
        min=1,
        max=3,
        help="People at this keyboard (2 or 3: hot-seat, the full screen hides the hand between "
        "turns); give their names with --name 'Ana,Bo'.",
    ),
    resume: Path | None = typer.Option(
        None,
        "--resume",
        exists=True,
        dir_okay=False,
        help="Go on with a game saved by 'quit' (saved again to the same file); with --seed, the "
        "seed the game printed, to get the deals it would have had.",
    ),
) -> None:
    """Play a full game of Paston in the terminal against two computer players.

    At a terminal the game opens on the full screen: press the number under a card or a
    choice (or use the arrows and Enter, or the mouse), ? for help. With --plain (or
    when the input is not a terminal) every decision lists the legal choices: type a
    number or the action itself; 'help' at any prompt explains the rest. The record is
    saved after every deal and on quit.
    """
    if lang is not None and lang not in LANGUAGES:
        raise typer.BadParameter(f"choose one of {', '.join(LANGUAGES)}, not {lang!r}", param_hint="--lang")
    language = lang or locale_language(os.environ)
    screen = full_screen(plain=plain, stdin_tty=sys.stdin.isatty(), stdout_tty=sys.stdout.isatty())
    if humans > 1 and not screen:
        raise typer.BadParameter(
            "people sharing a keyboard need the full screen (it hides each hand between turns); "
            "run in a terminal without --plain",
            param_hint="--humans",
        )
    if resume is not None:
        for option in ("name", "opponents", "level", "rules", "out", "force"):
            if given(ctx, option):
                raise typer.BadParameter(
                    f"--resume continues the saved game with its own {option}; leave --{option} out",
                    param_hint=f"--resume and --{option}",
                )
        match, human, bots, seed, rng = _resume(
            resume, seat if given(ctx, "seat") else None, seed, many=screen
        )
        if screen:
            people = [s for s in range(3) if s not in bots]
            play_full_screen(
                match, people, bots, resume, rng, lang=language, four_colour=four_colour, seed=seed
            )
            return
        game = TerminalGame(match, human, bots, resume, rng, pause=_pauses(pause))
        game.say(
            f"Paston — resuming {resume}: {you_are(match.seats[human], human)}. Seed {seed}. "
            f"Game to {match.rules.target}. Type 'help' for help."
        )
        _run(game, resume, resumed=True)
        return
    if seed is None:
        seed = secrets.randbelow(2**32)
    match, bots, rng = _new_game(name, seat, opponents, level, seed, rules, humans)
    if out is None:
        out = Path(f"paston-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
    output_file(out, "--out", force=force)
    if screen:
        people = [s for s in range(3) if s not in bots]
        play_full_screen(match, people, bots, out, rng, lang=language, four_colour=four_colour, seed=seed)
        return
    game = TerminalGame(match, seat, bots, out, rng, pause=_pauses(pause))
    other = [s for s in range(3) if s != seat]
    names = match.seats
    game.say(
        f"Paston — {you_are(names[seat], seat)}; your opponents are {names[other[0]]} and "
        f"{names[other[1]]}. Seed {seed}. Game to {match.rules.target}. Type 'help' for help."
    )
    _run(game, out)


def you_are(name: str, seat: int) -> str:
    """Where the person sits, in the second person, naming them unless they are "You".

    >>> you_are("You", 0), you_are("Ana", 2)
    ('you sit in seat 0', 'you are Ana, in seat 2')
    """
    if name.strip().lower() == PERSON.lower():
        return f"you sit in seat {seat}"
    return f"you are {shown(name)}, in seat {seat}"


def _pauses(pause: bool | None) -> bool:
    """Whether to wait for Enter after each deal: as asked, else when a person types."""
    return sys.stdin.isatty() if pause is None else pause


def _run(game: TerminalGame, out: Path, *, resumed: bool = False) -> None:
    try:
        game.run(resumed=resumed)
    except OSError as err:
        fail(f"cannot save the game to {out}: {err.strerror}")
