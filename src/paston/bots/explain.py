"""Hints: every option the ``pimc`` player considers for the seat to move, with its
expected score from that seat's view, best first, and the one it would choose.

The valuation is :meth:`paston.bots.pimc.PimcPlayer.options`, the very code the player
decides with, so ``explain(view, level=L, seed=S).chosen`` is what
``PimcPlayer(seed=S, level=L).choose(view)`` plays. Only the seat's view is read: two
deals the seat cannot tell apart give the same hint.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> hint = explain(deal.view(deal.to_move), level=1, seed=1)
>>> hint.chosen in deal.legal_actions(), hint.chosen == hint.options[0].action
(True, True)
>>> {o.action for o in hint.options} <= set(deal.legal_actions())
True
"""

from __future__ import annotations

from dataclasses import dataclass

from paston.actions import Action
from paston.bots.pimc import DEFAULT_LEVEL, LEVELS, Option, PimcPlayer
from paston.errors import IllegalActionError
from paston.phases import Phase
from paston.solver import Solver
from paston.views import DealView

__all__ = ["DEFAULT_LEVEL", "Hint", "Option", "explain"]


@dataclass(frozen=True)
class Hint:
    """The options of one decision, best first (the player's order of preference), and
    the player's choice."""

    seat: int
    phase: Phase
    options: tuple[Option, ...]
    chosen: Action
    level: int
    worlds: int

    def to_dict(self) -> dict[str, object]:
        """The JSON form (actions in their canonical text)."""
        return {
            "seat": self.seat,
            "phase": self.phase.name.lower(),
            "options": [
                {"action": str(o.action), "score": o.score, "tricks": o.tricks} for o in self.options
            ],
            "chosen": str(self.chosen),
            "level": self.level,
            "worlds": self.worlds,
        }


def explain(
    view: DealView,
    *,
    level: int = DEFAULT_LEVEL,
    seed: int = 0,
    time_budget: float | None = None,
    solver: Solver | None = None,
) -> Hint:
    """The hint for the seat of ``view``, which must be the seat to move.

    Raises ``IllegalActionError`` (``not-your-turn``) when the view's seat has nothing
    to do, and ``ValueError`` for a level outside 1–5.
    """
    if level not in LEVELS:
        raise ValueError(f"hint level must be 1 to 5, not {level!r}")
    if view.seat is None or view.seat != view.to_move or not view.legal_actions:
        raise IllegalActionError("R0.1", "not-your-turn", f"seat {view.seat} has nothing to do now")
    player = PimcPlayer(seed=seed, level=level, solver=solver, time_budget=time_budget)
    scored = player.options(view)
    legal = view.legal_actions
    options = tuple(o for o in scored.options if o.action in legal)
    chosen = scored.chosen(legal)
    if not options:  # never expected: the player considers legal actions only
        options = (Option(chosen, 0.0, None),)
    return Hint(
        seat=view.seat, phase=view.phase, options=options, chosen=chosen, level=level, worlds=scored.worlds
    )
