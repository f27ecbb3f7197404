"""One computer player's decision as a self-contained job: the player's name, a seed, a
time budget and the seat's view (never the deal), so it can be decided in another
process. Each decision makes a fresh player seeded from the seat's seed and the table's
version, so the choice depends only on the job, not on which worker decides it.

>>> import random
>>> from paston.match import Match
>>> match = Match(first_dealer=0, seats=("a", "b", "c"), rng=random.Random(1))
>>> job = Job("heuristic", decision_seed(7, 0), None, match.view(match.to_move))
>>> decode(encode(job)) == job
True
>>> run_job(job) in job.view.legal_actions
True
"""

from __future__ import annotations

import hashlib
import json
import pickle
from dataclasses import dataclass

from paston.actions import Action
from paston.views import DealView

#: The player that stands in for a person who is away, and decides when a computer
#: player's own decision failed (well under a millisecond).
FALLBACK = "heuristic"


@dataclass(frozen=True, slots=True, eq=False)
class BotSeat:
    """A computer player at a seat: its name and its secret seed (the player itself is
    made afresh for each decision, wherever that decision is made)."""

    name: str
    seed: int


@dataclass(frozen=True, slots=True)
class Job:
    """What a worker needs for one decision, and nothing more: ``view`` is the seat's
    own view (its hand, the public actions), never another seat's cards."""

    name: str
    seed: int
    budget: float | None  # seconds pimc may sample (decision B4); None: its full sample count
    view: DealView


@dataclass(frozen=True, slots=True)
class HintJob:
    """A hint (:func:`paston.bots.explain.explain`) for the seat of ``view``, its own view
    only: the ``pimc`` level, a seed and a time budget."""

    level: int
    seed: int
    budget: float | None
    view: DealView


def decision_seed(seed: int, version: int) -> int:
    """The seed of one decision: from the seat's seed and the table's version, so the
    same table state always gets the same decision from the same seat's player.

    >>> decision_seed(1, 5) == decision_seed(1, 5) != decision_seed(1, 6)
    True
    """
    digest = hashlib.sha256(f"paston-bot-decision:{seed}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def encode(job: Job | HintJob) -> bytes:
    """The bytes that cross to a worker process."""
    return pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)


def decode(data: bytes) -> Job | HintJob:
    """A job from :func:`encode` (only ever bytes the server itself wrote)."""
    job = pickle.loads(data)  # written by the server process, over a private pipe
    if not isinstance(job, (Job, HintJob)):
        raise TypeError(f"a bot job was expected, not {type(job).__name__}")
    return job


def run_job(job: Job) -> Action:
    """Decide: a fresh player from the job's name and seed chooses from the view."""
    from paston.bots.base import make_player

    return make_player(job.name, seed=job.seed, time_budget=job.budget).choose(job.view)


def run_hint(job: HintJob) -> str:
    """The hint as JSON text (what crosses back from a worker)."""
    from paston.bots.explain import explain

    hint = explain(job.view, level=job.level, seed=job.seed, time_budget=job.budget)
    return json.dumps(hint.to_dict(), separators=(",", ":"))


def run_any(job: Job | HintJob) -> str:
    """A worker's answer to a job: a decision's action text, or a hint's JSON text."""
    return run_hint(job) if isinstance(job, HintJob) else str(run_job(job))


def fallback(job: Job) -> Action:
    """A fast legal choice for a decision that failed or overran (the heuristic player)."""
    from paston.bots.base import make_player

    return make_player(FALLBACK, seed=job.seed).choose(job.view)
