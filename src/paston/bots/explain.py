"""Hints: every option the ``pimc`` player considers for the seat to move, with its
expected score from that seat's view and its chance (the fraction of the sampled worlds)
to make the contract, or for a defender to beat it, best first, and the one it would choose.
Options as good as each other (:data:`EQUAL_POINTS`) share a ``group``.

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
>>> hint.goal, hint.groups[0]
('make', 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from paston.actions import Action
from paston.bots.pimc import DEFAULT_LEVEL, LEVELS, Option, PimcPlayer
from paston.errors import IllegalActionError
from paston.phases import Phase
from paston.solver import Solver
from paston.views import DealView

__all__ = ["DEFAULT_LEVEL", "EQUAL_POINTS", "Hint", "Option", "equal_groups", "explain"]

EQUAL_POINTS = 0.05
"""Options whose expected scores differ by at most this many points, and whose chances
round to the same percent, are equally good. Below 1/16 of a point: at the hints' level
(16 worlds for a card) a real difference of even one point in one sampled world shows."""


def equal_groups(options: tuple[Option, ...]) -> tuple[int, ...]:
    """Each option's group, in the options' order: an option joins the group of the one
    before it when it is as good as that group's first option (:data:`EQUAL_POINTS`), else
    starts the next group. Group 0 holds the player's choice.

    >>> from paston.actions import PASS, WHIST
    >>> equal_groups((Option(WHIST, -40.0, None, 0.0), Option(PASS, -40.01, None, 0.0)))
    (0, 0)
    >>> equal_groups((Option(WHIST, 2.0, None, 0.5), Option(PASS, 0.0, None)))
    (0, 1)
    """
    groups: list[int] = []
    head: Option | None = None
    for option in options:
        if head is None or not _equal(head, option):
            head = option
            groups.append(groups[-1] + 1 if groups else 0)
        else:
            groups.append(groups[-1])
    return tuple(groups)


def _equal(a: Option, b: Option) -> bool:
    if abs(a.score - b.score) > EQUAL_POINTS:
        return False
    if a.chance is None or b.chance is None:
        return a.chance is b.chance
    return round(a.chance * 100) == round(b.chance * 100)


@dataclass(frozen=True)
class Hint:
    """The options of one decision, best first (the player's order of preference), and
    the player's choice. ``goal`` says what an option's ``chance`` is of: ``"make"`` the
    contract (the declarer, a bidder, the discard and the trump) or ``"beat"`` it (a
    defender in the card play, whist or pass)."""

    seat: int
    phase: Phase
    options: tuple[Option, ...]
    chosen: Action
    level: int
    worlds: int
    goal: str = "make"

    @property
    def groups(self) -> tuple[int, ...]:
        """Each option's group of equally good options (:func:`equal_groups`)."""
        return equal_groups(self.options)

    def to_dict(self) -> dict[str, object]:
        """The JSON form (actions in their canonical text)."""
        return {
            "seat": self.seat,
            "phase": self.phase.name.lower(),
            "goal": self.goal,
            "options": [
                {
                    "action": str(o.action),
                    "score": o.score,
                    "tricks": o.tricks,
                    "chance": o.chance,
                    "group": g,
                }
                for o, g in zip(self.options, self.groups, strict=True)
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
    defending = view.phase is Phase.DEFENCE or (view.phase is Phase.PLAY and view.seat != view.declarer)
    return Hint(
        seat=view.seat,
        phase=view.phase,
        options=options,
        chosen=chosen,
        level=level,
        worlds=scored.worlds,
        goal="beat" if defending else "make",
    )
