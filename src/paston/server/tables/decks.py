"""Fair decks at the server: every seat helps to shuffle (docs/FAIRNESS.md).

Before a deal the server draws a secret from a CSPRNG and publishes its commitment
(SHA-256); each person's client is asked for a seed; the deck is then derived from the
secret and the three seeds by :func:`paston.fairness.derive_deck`, and the secret is
revealed once the deal is over. A :class:`SeedRound` is one deal's collection of seeds.

>>> secret, commit = new_secret()
>>> commitment(secret) == commit
True
>>> r = SeedRound(deal=0, secret=secret, commit=commit, previous=None, expected=frozenset({1}))
>>> r.ready()
False
>>> r.seeds[1] = "ab" * 32
>>> r.ready(), [by for _, by in r.choices()]
(True, ['server', 'seat', 'server'])
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from paston.dealing import shuffled_deck
from paston.fairness import VERSION, commitment, server_seed

__all__ = ["VERSION", "SeedRound", "commitment", "deck_from_seed", "legacy_commitment", "new_secret"]


def new_secret() -> tuple[str, str]:
    """A fresh secret for one deal (32 bytes from the CSPRNG, hexadecimal) and its commitment."""
    secret = secrets.token_hex(32)
    return secret, commitment(secret)


@dataclass(eq=False)
class SeedRound:
    """One deal's seeds being collected: the secret and its published commitment, the
    link of the previous deal's fairness object, the seats whose clients are asked
    (``expected``) and the seeds they sent; ``again`` when it shuffles a table's
    provisional first deal again. It is ready once every asked seat answered,
    or the time ran out (``expired``); every other seat gets the server's seed."""

    deal: int
    secret: str
    commit: str
    previous: str | None
    expected: frozenset[int]
    seeds: dict[int, str] = field(default_factory=dict)
    expired: bool = False
    again: bool = False  # the provisional first deal, shuffled again
    timer: asyncio.Task[None] | None = None

    def ready(self) -> bool:
        """Whether the deck can be derived now."""
        return self.expired or self.expected <= self.seeds.keys()

    def choices(self) -> list[tuple[str, str]]:
        """Each seat's ``(seed, chooser)``: its client's seed, or the server's."""
        return [
            (self.seeds[s], "seat") if s in self.seeds else (server_seed(self.secret, s), "server")
            for s in range(3)
        ]

    def request(self) -> dict[str, Any]:
        """The message asking a client for its seed."""
        return {"type": "seed-request", "deal": self.deal, "commit": self.commit, "previous": self.previous}


# --- deals stored before paston-deck/1 ---------------------------------------------------
def legacy_commitment(seed: str) -> str:
    """The commitment of a deal stored before ``paston-deck/1``: SHA-256 of the seed's text."""
    return hashlib.sha256(seed.encode()).hexdigest()


def deck_from_seed(seed: str) -> list[int]:
    """The deck of a deal stored before ``paston-deck/1``, from its revealed seed
    (``random.Random(seed)``, R1.2: shuffle and cut)."""
    return shuffled_deck(random.Random(seed))
