"""``paston verify``: re-derive every deck of a record from its fairness data.

Each deal's ``fairness`` object (docs/FAIRNESS.md) must re-derive exactly the deal's
``deck``, its commitment must be the SHA-256 of its secret, the objects of a game must
link up, and the deal's ``hands`` and ``prikup`` must be the ones that deck deals (R1.3):
a record whose cards were not dealt from its verified deck does not verify. The rest of
the rules are ``paston check``'s. Exit 0 when every deal with fairness data matches
(deals without any are named, not verified), 1 when a deal does not match, 2 when the
file cannot be read as records, 3 when it holds nothing to verify (no deal has fairness
data: a script can tell "verified" from "nothing to verify").

>>> from paston.cli.verify import verify_game
>>> verify_game({"deals": [{"deck": []}]})
(0, [], [0])
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from paston.cards import Card, CardSet
from paston.cli.common import out_console
from paston.cli.text import count
from paston.dealing import deal_cards
from paston.errors import ParseError
from paston.fairness import Chain

#: Exit status when no deal of the file has fairness data.
NOTHING_TO_VERIFY = 3


def _deck(value: object) -> list[int] | None:
    if not isinstance(value, list) or len(value) != 32 or not all(isinstance(c, str) for c in value):
        return None
    try:
        return [Card.parse(c).index for c in value]
    except ParseError:
        return None


def dealt_from(entry: dict[str, Any], deck: list[int]) -> str | None:
    """What is wrong with the deal's ``hands`` and ``prikup`` for its ``deck`` (R1.3), or
    ``None`` when they are the ones it deals.

    >>> deck = list(range(32))
    >>> hands, prikup = deal_cards(deck, 0)
    >>> entry = {"dealer": 0, "hands": [CardSet(h).codes() for h in hands],
    ...          "prikup": CardSet(prikup).codes()}
    >>> dealt_from(entry, deck) is None
    True
    >>> entry["hands"][1], entry["hands"][2] = entry["hands"][2], entry["hands"][1]
    >>> dealt_from(entry, deck)
    'R1.3: hand 1 is not the one the verified deck deals to seat 1'
    """
    dealer = entry.get("dealer")
    if type(dealer) is not int or dealer not in (0, 1, 2):
        return "dealer must be 0, 1 or 2"
    hands, prikup = deal_cards(deck, dealer)
    given = entry.get("hands")
    if not isinstance(given, list) or len(given) != 3:
        return "hands must be three lists of card codes"
    for seat, (cards, mask) in enumerate(zip(given, hands, strict=True)):
        if _mask(cards) != mask:
            return f"R1.3: hand {seat} is not the one the verified deck deals to seat {seat}"
    if _mask(entry.get("prikup")) != prikup:
        return "R1.3: the prikup is not the one the verified deck deals"
    return None


def _mask(cards: object) -> int | None:
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return None
    try:
        parsed = [Card.parse(c) for c in cards]
    except ParseError:
        return None
    mask = CardSet(parsed).mask
    return mask if len(set(parsed)) == len(parsed) else None


def verify_game(game: dict[str, Any]) -> tuple[int, list[str], list[int]]:
    """Checks one record object: ``(deals verified, problems, deals without fairness data)``;
    each problem names its deal."""
    chain = Chain()
    verified, problems, missing = 0, [], []
    for i, entry in enumerate(game["deals"]):
        if not isinstance(entry, dict):
            problems.append(f"deal {i}: a deal must be a JSON object")
            chain.check(None, [], i)
            continue
        if "fairness" not in entry:
            missing.append(i)
            chain.check(None, [], i)
            continue
        deck = _deck(entry.get("deck"))
        if entry["fairness"] is None:
            why: str | None = "fairness must be a JSON object (or absent)"
        elif deck is None:
            why = "deck must be a list of 32 card codes"
        else:
            why = chain.check(entry["fairness"], deck, i) or dealt_from(entry, deck)
        if why is None:
            verified += 1
        else:
            problems.append(f"deal {i}: {why}")
    return verified, problems, missing


def read_games(path: Path) -> list[dict[str, Any]]:
    """The record objects of a file (one JSON object, or JSON Lines); ``ValueError`` or
    ``OSError`` when it holds none that can be read."""
    text = path.read_text(encoding="utf-8-sig").strip()
    try:
        whole = json.loads(text)
        items = [whole] if isinstance(whole, dict) else None
    except (ValueError, RecursionError):  # JSON errors, integers too long to read
        items = None
    if items is None:
        items = []
        for n, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    items.append(json.loads(line))
                except (ValueError, RecursionError):  # JSON errors, integers too long to read
                    raise ValueError(f"line {n} is not JSON") from None
    if not items:
        raise ValueError("the file holds no game record")
    for n, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("deals"), list):
            raise ValueError(f"game {n} is not a record (a JSON object with a list of deals)")
    return items


def verify(
    file: Path = typer.Argument(..., help="A record file: one JSON object or JSON Lines.", dir_okay=False),
) -> None:
    """Re-derive every deck of a record from its fairness data (docs/FAIRNESS.md).

    Exit 0 if every deal with fairness data matches (its hands dealt from its deck), 1 if
    a deal does not, 2 if the file cannot be read, 3 if no deal has fairness data.
    """
    console = out_console()
    try:
        games = read_games(file)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        console.print(f"{file}: cannot read the records: {err}", markup=False)
        raise typer.Exit(2) from None
    bad = any_verified = 0
    plain: list[int] = []  # the games without any fairness data: counted, not listed one by one
    for n, game in enumerate(games):
        where = f"{file}: game {n}" if len(games) > 1 else str(file)
        verified, problems, missing = verify_game(game)
        any_verified += verified
        for p in problems:
            console.print(f"{where}: {p}", markup=False)
        if problems:
            bad += 1
            console.print(f"{where}: MISMATCH ({count(len(problems), 'deal')} wrong)", markup=False)
            continue
        if missing and not verified:
            if len(games) > 1:
                plain.append(n)
                continue
            console.print(
                f"{where}: no fairness data in its {count(len(missing), 'deal')}: not verified", markup=False
            )
        elif missing:
            listed = ", ".join(str(i) for i in missing)
            console.print(f"{where}: no fairness data for deals {listed}: not verified", markup=False)
        if verified or not missing:
            console.print(f"{where}: OK ({count(verified, 'deal')} verified)", markup=False)
    if plain:
        first = f" (the first: game {plain[0]})" if len(plain) < len(games) else ""
        console.print(
            f"{file}: {count(len(plain), 'game')} of {len(games)} without fairness data{first}: not verified",
            markup=False,
        )
    if bad:
        raise typer.Exit(1)
    if not any_verified:
        console.print(f"{file}: nothing to verify (no deal has fairness data)", markup=False)
        raise typer.Exit(NOTHING_TO_VERIFY)
