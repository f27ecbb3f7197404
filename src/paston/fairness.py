"""Decks every seat helps to shuffle: the ``paston-deck/1`` algorithm (docs/FAIRNESS.md).

A deal's deck comes from the server's secret (whose SHA-256, the *commitment*, is
published before anyone sends a seed) and one seed per seat, by an HMAC-SHA256 byte
stream, Fisher–Yates and the cut of R1.2 (decision D1). The record's ``fairness``
object of a deal holds all of it, and :func:`problem` says whether it re-derives the
deal's deck. Pure functions of their arguments: no randomness, no I/O.

>>> secret = "00" * 32
>>> seeds = [server_seed(secret, s) for s in range(3)]
>>> deck = derive_deck(secret, "t1", 0, None, seeds)
>>> sorted(deck) == list(range(32)), deck[31] != 0
(True, True)
>>> entry = make_entry("t1", 0, secret, [(s, "server") for s in seeds], None)
>>> problem(entry, deck, deal=0, previous=None) is None
True
>>> problem(entry, deck[::-1], deal=0, previous=None)
'the fairness data derive another deck (first difference at position 0)'
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

VERSION = "paston-deck/1"
#: Who chose a seat's seed: the seat's own client, or the server (derived from its secret).
CHOOSERS = ("seat", "server")
SEVEN_OF_SPADES = 0  # card indices: suit * 8 + rank, suits S C D H, ranks 7 8 9 T J Q K A
_HEX64 = re.compile(r"[0-9a-f]{64}")
_KEYS = ("version", "table", "deal", "commitment", "secret", "seeds", "previous")


def is_hex64(value: object) -> bool:
    """Whether ``value`` is 64 lowercase hexadecimal digits (32 bytes)."""
    return isinstance(value, str) and _HEX64.fullmatch(value) is not None


def commitment(secret: str) -> str:
    """The published commitment to a secret: SHA-256 of its 32 bytes, in hexadecimal."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def server_seed(secret: str, seat: int) -> str:
    """The seed the server gives a seat that sent none (a computer player, a stand-in, a
    person whose browser did not answer in time): fixed by the secret, so chosen before
    the commitment was published."""
    return hmac.new(
        bytes.fromhex(secret), f"{VERSION} server seed {seat}".encode(), hashlib.sha256
    ).hexdigest()


def message(table: str, deal: int, previous: str | None, seeds: Sequence[str]) -> bytes:
    """The HMAC message of a deal: lines of text joined by ``\\n`` (UTF-8)."""
    return "\n".join([VERSION, table, str(deal), previous or "", *seeds]).encode()


def stream(secret: str, msg: bytes) -> Iterator[int]:
    """The byte stream: HMAC-SHA256(secret, msg ‖ counter as 8 bytes big-endian) for
    counter 0, 1, 2, …, each block's 32 bytes in order."""
    key = bytes.fromhex(secret)
    counter = 0
    while True:
        yield from hmac.new(key, msg + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1


def uniform(source: Iterator[int], n: int) -> int:
    """An integer in ``0 … n-1`` (1 ≤ n ≤ 256) without bias: bytes at or above the
    largest multiple of ``n`` are skipped."""
    limit = 256 - 256 % n
    while True:
        b = next(source)
        if b < limit:
            return b % n


def derive_deck(secret: str, table: str, deal: int, previous: str | None, seeds: Sequence[str]) -> list[int]:
    """The deck (card indices in dealing order): Fisher–Yates from the top index down,
    then a cut at 1–31 (the top ``cut`` cards go under); both again while the bottom
    card is 7♠ (R1.2, D1)."""
    source = stream(secret, message(table, deal, previous, seeds))
    deck = list(range(32))
    while True:
        for i in range(31, 0, -1):
            j = uniform(source, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        cut = 1 + uniform(source, 31)
        deck = deck[cut:] + deck[:cut]
        if deck[31] != SEVEN_OF_SPADES:
            return deck


def make_entry(
    table: str, deal: int, secret: str, seeds: Sequence[tuple[str, str]], previous: str | None
) -> dict[str, Any]:
    """A deal's ``fairness`` object; ``seeds`` are three ``(seed, chooser)``."""
    return {
        "version": VERSION,
        "table": table,
        "deal": deal,
        "commitment": commitment(secret),
        "secret": secret,
        "seeds": [{"seed": seed, "by": by} for seed, by in seeds],
        "previous": previous,
    }


def link(entry: Mapping[str, Any]) -> str:
    """The hash the next deal's ``previous`` holds: SHA-256 of the entry's fields as
    lines of text (version, table, deal, previous or "", commitment, secret, then each
    seat's seed and chooser)."""
    seeds = [part for s in entry["seeds"] for part in (s["seed"], s["by"])]
    fields = [entry["version"], entry["table"], str(entry["deal"]), entry["previous"] or ""]
    text = "\n".join([*fields, entry["commitment"], entry["secret"], *seeds])
    return hashlib.sha256(text.encode()).hexdigest()


def _shape(entry: object, deal: int) -> str | None:
    """What is wrong with the form of a fairness object, or ``None``."""
    if not isinstance(entry, dict):
        return "fairness must be a JSON object"
    if set(entry) != set(_KEYS):
        missing, extra = sorted(set(_KEYS) - set(entry)), sorted(set(entry) - set(_KEYS))
        return f"fairness keys: missing {missing}, unknown {extra}"
    if entry["version"] != VERSION:
        return f"fairness version must be {VERSION!r}, not {entry['version']!r}"
    if not isinstance(entry["table"], str) or not 1 <= len(entry["table"]) <= 64:
        return "fairness table must be a table id (1 to 64 characters)"
    if type(entry["deal"]) is not int or entry["deal"] != deal:
        return f"fairness deal must be {deal}, the deal's index, not {entry['deal']!r}"
    for key in ("commitment", "secret"):
        if not is_hex64(entry[key]):
            return f"fairness {key} must be 64 lowercase hexadecimal digits"
    if entry["previous"] is not None and not is_hex64(entry["previous"]):
        return "fairness previous must be null or 64 lowercase hexadecimal digits"
    seeds = entry["seeds"]
    if not isinstance(seeds, list) or len(seeds) != 3:
        return "fairness seeds must be a list of three, one per seat"
    for seat, s in enumerate(seeds):
        if not isinstance(s, dict) or set(s) != {"seed", "by"}:
            return f"fairness seeds[{seat}] must be an object with seed and by"
        if not is_hex64(s["seed"]):
            return f"fairness seeds[{seat}].seed must be 64 lowercase hexadecimal digits"
        if s["by"] not in CHOOSERS:
            return f"fairness seeds[{seat}].by must be 'seat' or 'server', not {s['by']!r}"
    return None


def problem(entry: object, deck: Sequence[int], *, deal: int, previous: str | None) -> str | None:
    """Why a deal's fairness object does not prove its deck, or ``None`` when it does:
    its form, the commitment (SHA-256 of the secret), the server's seeds (derived from
    the secret), the chain (``previous`` is the link of the previous deal's fairness
    object, or ``null`` when that deal has none) and the deck itself."""
    shape = _shape(entry, deal)
    if shape is not None:
        return shape
    assert isinstance(entry, dict)
    secret = entry["secret"]
    if commitment(secret) != entry["commitment"]:
        return "the fairness secret does not match its commitment (SHA-256)"
    for seat, s in enumerate(entry["seeds"]):
        if s["by"] == "server" and s["seed"] != server_seed(secret, seat):
            return f"the server's seed for seat {seat} is not the one its secret gives"
    if entry["previous"] != previous:
        want = "null" if previous is None else previous
        return f"fairness previous must be {want}, the link of the previous deal's fairness"
    derived = derive_deck(secret, entry["table"], deal, previous, [s["seed"] for s in entry["seeds"]])
    if list(deck) != derived:
        at = next((k for k, (a, b) in enumerate(zip(deck, derived, strict=False)) if a != b), len(derived))
        return f"the fairness data derive another deck (first difference at position {at})"
    return None


class Chain:
    """Checks the deals of one game in order: each ``fairness`` object with
    :func:`problem`, its ``previous`` against the link of the deal before, and that all
    name one table.

    >>> chain = Chain()
    >>> chain.check(None, list(range(32)), 0) is None, chain.previous
    (True, None)
    """

    def __init__(self) -> None:
        self.previous: str | None = None
        self.table: str | None = None

    def check(self, entry: object, deck: Sequence[int], deal: int) -> str | None:
        """What is wrong with deal ``deal``'s fairness object ``entry`` (``None``: the
        deal has none) for its ``deck``, or ``None``. Call it for every deal in order."""
        if entry is None:
            self.previous = None
            return None
        why = problem(entry, deck, deal=deal, previous=self.previous)
        if why is not None:
            ok_shape = _shape(entry, deal) is None
            self.previous = link(entry) if ok_shape and isinstance(entry, dict) else None
            return why
        assert isinstance(entry, dict)
        if self.table is not None and entry["table"] != self.table:
            why = f"fairness table {entry['table']!r} is not the game's table {self.table!r}"
        self.table = entry["table"]
        self.previous = link(entry)
        return why
