"""Fair decks: each deal's deck comes from a secret seed drawn from a CSPRNG, whose
SHA-256 is published before the deal and the seed itself once the deal is over, so
anyone can check the deck.

>>> seed, commit = new_seed()
>>> commitment(seed) == commit, len(deck_from_seed(seed))
(True, 32)
"""

from __future__ import annotations

import hashlib
import random
import secrets

from paston.dealing import shuffled_deck


def commitment(seed: str) -> str:
    """The published commitment to a seed: its SHA-256, in hexadecimal."""
    return hashlib.sha256(seed.encode()).hexdigest()


def new_seed() -> tuple[str, str]:
    """A fresh secret seed and its commitment."""
    seed = secrets.token_hex(16)
    return seed, commitment(seed)


def deck_from_seed(seed: str) -> list[int]:
    """The deck of a deal from its revealed seed (R1.2: shuffle and cut)."""
    return shuffled_deck(random.Random(seed))
