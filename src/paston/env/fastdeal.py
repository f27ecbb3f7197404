"""The environments' compiled deal: :class:`FastDeal`, one-deal episodes in C
(``paston.env._fastdeal``) writing :mod:`paston.encoding`'s arrays, with the engine's
:class:`~paston.deal.Deal` behind it rebuilt on demand.

The rules live in the engine; the C core is a mirror of one ordinary deal (dealing and
the R1.4–R1.5 void deals, the auction, R3.4, discard, trump, surrender, whist, play, R7
scores) held to the engine by ``tests/test_env_fastdeal.py`` on every state of thousands
of random deals. It writes every seat's full observation (``full``, the seat's own
observation being the first :data:`~paston.encoding.OBSERVATION_SIZE` entries of its row)
and the legal mask of the seat to move (``mask``) in well under a microsecond a decision.
Every offset it writes at comes from :func:`layout`, read from :mod:`paston.encoding`
when this module is imported.

>>> import random
>>> from paston import encoding
>>> fast = FastDeal(Rules())
>>> mover = fast.reset(random.Random(1))
>>> while mover >= 0:
...     mover = fast.core.step(int(fast.mask.nonzero()[0][0]))
>>> deal = fast.deal()
>>> mover, deal.is_over, fast.core.scores == deal.scores
(-1, True, True)
>>> bool((fast.full[0] == encoding.observe_full(deal, 0)).all())
True
"""

from __future__ import annotations

import random
from typing import Final

import numpy as np

from paston import encoding as enc
from paston.actions import BID_BASE, PASS_ID, SURRENDER_ID, TRUMP_BASE, WHIST_ID
from paston.cards import JACK_OF_SPADES, SEVEN_OF_SPADES
from paston.deal import Deal
from paston.encoding import ACTIONS, Mask, Observation
from paston.env import _fastdeal
from paston.match import Match
from paston.phases import Phase
from paston.result import Redeal
from paston.rules import Rules

__all__ = ["DealRecord", "FastDeal", "MatchReplay", "layout"]

OVER: Final = -1
"""What ``core.step`` returns when the action ended the deal, scored."""
ILLEGAL: Final = -2
"""What ``core.step`` returns for an illegal action (nothing changed)."""
VOID: Final = -3
"""What ``core.step`` returns when all passed and the deal is void (R3.4): deal again."""


def layout() -> dict[str, int | float]:
    """Where the core writes: :mod:`paston.encoding`'s offsets and sizes, the action
    indices, the phases' and redeal reasons' entries, and the two spade cards."""
    out: dict[str, int | float] = {
        "hand": enc.HAND,
        "prikup": enc.PRIKUP,
        "discard": enc.DISCARD,
        "played": enc.PLAYED,
        "trick": enc.TRICK,
        "phase": enc.PHASE,
        "to_move": enc.TO_MOVE,
        "dealer": enc.DEALER,
        "first_bidder": enc.FIRST_BIDDER,
        "first_deal": enc.FIRST_DEAL,
        "bid_by": enc.BID_BY,
        "passed_at": enc.PASSED_AT,
        "high_bid": enc.HIGH_BID,
        "in_auction": enc.IN_AUCTION,
        "declarer": enc.DECLARER,
        "contract": enc.CONTRACT,
        "whist_answer": enc.WHIST_ANSWER,
        "leader": enc.LEADER,
        "void": enc.VOID,
        "tricks": enc.TRICKS,
        "redeal": enc.REDEAL,
        "rules": enc.RULES,
        "totals": enc.TOTALS,
        "scores": enc.SCORES,
        "target": enc.TARGET,
        "full_hands": enc.FULL_HANDS,
        "full_prikup": enc.FULL_PRIKUP,
        "full_discard": enc.FULL_DISCARD,
        "observation_size": enc.OBSERVATION_SIZE,
        "full_observation_size": enc.FULL_OBSERVATION_SIZE,
        "action_count": enc.ACTION_COUNT,
        "discard_offset": enc.DISCARD_OFFSET,
        "pass": enc.INDEX_OF_ID[PASS_ID],
        "bid": enc.INDEX_OF_ID[BID_BASE],
        "trump": enc.INDEX_OF_ID[TRUMP_BASE],
        "surrender": enc.INDEX_OF_ID[SURRENDER_ID],
        "whist": enc.INDEX_OF_ID[WHIST_ID],
        "seven_of_spades": SEVEN_OF_SPADES,
        "jack_of_spades": JACK_OF_SPADES,
        "score_scale": enc.SCORE_SCALE,
        "default_target": enc.DEFAULT_TARGET,
    }
    for phase in Phase:
        out[f"phase_{phase.name.lower()}"] = int(phase)
    for k, reason in enumerate(Redeal):
        out[f"redeal_{reason.name.lower()}"] = k
    return out


_fastdeal.configure(layout())


class FastDeal:
    """One-deal episodes (``episode="deal"``) in the compiled core, with its arrays.

    ``core`` is the :class:`~paston.env._fastdeal.Core` (``step(index)`` returns the seat
    to move next, or :data:`OVER`, :data:`ILLEGAL`, :data:`VOID`); ``full`` (3 ×
    FULL_OBSERVATION_SIZE float32) and ``mask`` (int8) are the arrays it writes, ``rows``
    each seat's observation (views of ``full``). Seeded from a ``random.Random``: the
    same seed gives the same episodes (not the ones the engine's ``Deal.random`` would
    deal: the core has its own generator, decision N12)."""

    __slots__ = ("_applied", "_deal", "core", "first_deal", "full", "mask", "rows", "rules")

    def __init__(self, rules: Rules, first_deal: bool = False) -> None:
        self.rules = rules
        self.first_deal = first_deal
        self.full: Observation = np.zeros((3, enc.FULL_OBSERVATION_SIZE), np.float32)
        self.mask: Mask = np.zeros(enc.ACTION_COUNT, np.int8)
        self.rows: tuple[Observation, ...] = tuple(self.full[s, : enc.OBSERVATION_SIZE] for s in range(3))
        self.core = _fastdeal.Core(
            self.full,
            self.mask,
            lone_flat=rules.lone_defender == "flat",
            surrender_bonus=rules.surrender_bonus,
            all_pass_first_bidder=rules.all_pass_declarer == "first-bidder",
            rotate=rules.second_dealer == "rotate",
            target=rules.target,
            first_deal=first_deal,
        )
        self._deal: Deal | None = None
        self._applied = 0

    def reset(self, rng: random.Random) -> int:
        """A new episode: its dealer and decks drawn from a seed taken from ``rng``; the
        seat to move."""
        self._deal = None
        return self.core.reset(rng.getrandbits(64))

    def redeal(self) -> int:
        """Deal the void deal (R3.4) again, same dealer; the seat to move."""
        self._deal = None
        return self.core.redeal()

    def start(self, dealer: int, *, first_deal: bool, totals: tuple[int, int, int]) -> int:
        """The next deal of a game, by ``dealer``, with the game's ``totals`` shown; the
        seat to move."""
        self._deal = None
        return self.core.start(dealer, first_deal, totals)

    def deal(self) -> Deal:
        """The engine's deal in the core's state: the core's deck and dealer, its actions
        replayed (kept, and brought up to date on the next call)."""
        core = self.core
        deal = self._deal
        if deal is None:
            first = core.first_deal
            deal = Deal(core.deck, dealer=core.dealer, rules=self.rules, first_deal=first)
            self._deal = deal
            self._applied = 0
        if self._applied < core.action_count:
            for index in core.actions[self._applied :]:
                deal.apply(ACTIONS[index])
            self._applied = core.action_count
        return deal


DealRecord = tuple[tuple[int, ...], int, tuple[int, ...]]
"""A deal played in the core: its deck, its dealer and its action indices."""


class MatchReplay:
    """The engine's :class:`~paston.match.Match` of a game played in the core, brought up
    to date on demand from the deals' records (decks, dealers, actions): only what is new
    since the last call is applied."""

    __slots__ = ("_applied", "_done", "_open", "match")

    def __init__(self, rules: Rules, first_dealer: int) -> None:
        self.match = Match(first_dealer=first_dealer, rules=rules)
        self._done = 0  # records entered whole
        self._open = False  # the next record's deal is dealt in the match
        self._applied = 0  # actions of that deal applied

    def update(self, finished: list[DealRecord], current: DealRecord | None) -> Match:
        """The match after the ``finished`` deals (all of the game's so far, in order) and
        the ``current`` deal's actions (``None`` between deals or after the end)."""
        match = self.match
        records = finished[self._done :]
        if current is not None:
            records.append(current)
        new_finished = len(finished) - self._done
        for k, (deck, dealer, actions) in enumerate(records):
            if not self._open:
                deal = match.deal_next(deck)
                assert deal.dealer == dealer, "the core and the match disagree on the dealer"
                self._open = True
                self._applied = 0
            for index in actions[self._applied :]:
                match.apply(ACTIONS[index])
            self._applied = len(actions)
            if k < new_finished:
                self._done += 1
                self._open = False
        return match
