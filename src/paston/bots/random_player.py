"""A player that picks uniformly among the legal actions of its view."""

from __future__ import annotations

import random

from paston.actions import Action
from paston.errors import IllegalActionError
from paston.views import DealView


class RandomPlayer:
    """Uniform choice among ``view.legal_actions``; reproducible with a seed.

    >>> RandomPlayer(seed=1).name
    'random'
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: DealView) -> Action:
        """Pick an action; the view must be the view of the seat to move."""
        actions = view.legal_actions
        if not actions:
            raise IllegalActionError("R0.1", "not-your-turn", f"seat {view.seat} has nothing to do now")
        return actions[self._rng.randrange(len(actions))]
