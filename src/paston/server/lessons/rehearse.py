"""A lesson played through as a lesson table plays it: the learner (seat 0) follows the
hint (the ``pimc`` player's choice from the learner's view, seeded as a lesson table
seeds its hints) and the two computer players choose with the fixed seeds of the
lesson's table (:func:`bot_seed`). Used by the course's tests (every lesson must work
when the advice is followed) and to look for new lesson deals.

>>> from paston.server.lessons.course import LESSONS
>>> played = rehearse(LESSONS[0])
>>> played.learner()[0], played.result.tricks[LEARNER] >= 6
(Action.parse('bid spades'), True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from paston.actions import Action
from paston.bots.base import make_player
from paston.bots.explain import explain
from paston.match import Match
from paston.result import DealResult
from paston.server.lessons.course import Lesson
from paston.server.work.botjobs import decision_seed
from paston.views import DealView

#: The learner's seat at a lesson table (the creator's seat).
LEARNER = 0
#: The computer players of a lesson table (quick and sensible, and seeded: reproducible).
LESSON_BOT = "heuristic"
#: The seed of a table's hints (paston.server.tables.hints.HINT_SEED, the same: a test
#: checks it; the tables' room comes after this one).
HINT_SEED = 0x48494E54
#: The ``pimc`` level of the hints.
HINT_LEVEL = 3


def bot_seed(key: str, seat: int) -> int:
    """The fixed seed of a lesson table's computer player at ``seat`` (``key``: the lesson's ``bots``)."""
    digest = hashlib.sha256(f"paston-lesson-bot:{key}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def hint_choice(view: DealView, version: int) -> Action:
    """What the hint recommends for the learner's decision at table ``version``."""
    return explain(view, level=HINT_LEVEL, seed=decision_seed(HINT_SEED, version)).chosen


@dataclass(frozen=True)
class Rehearsal:
    """A lesson deal played to its end: each decision (seat, action) and the result."""

    moves: tuple[tuple[int, Action], ...]
    result: DealResult | None

    def learner(self) -> list[Action]:
        """The learner's own actions, in order."""
        return [a for s, a in self.moves if s == LEARNER]


def rehearse(
    lesson: Lesson,
    *,
    learner: Callable[[DealView, int], Action] = hint_choice,
) -> Rehearsal:
    """Play the lesson's deal: the learner by ``learner(view, version)``, the others
    by the lesson table's seeded computer players; until the deal is over."""
    match = Match(first_dealer=lesson.dealer, seats=("", "", ""))
    match.deal_next(lesson.deck())
    bots = {s: bot_seed(lesson.bots, s) for s in (1, 2)}
    moves: list[tuple[int, Action]] = []
    version = 0
    deal = match.deals[-1]
    while not deal.is_over:
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        if seat == LEARNER:
            action = learner(view, version)
        else:
            action = make_player(LESSON_BOT, seed=decision_seed(bots[seat], version)).choose(view)
        match.apply(action, seat)
        moves.append((seat, action))
        version += 1
    return Rehearsal(tuple(moves), deal.result)
