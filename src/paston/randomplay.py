"""A seeded random player and its play-out loop: random legal actions, biased towards
bidding, defending and playing on, so that random games reach every phase.

The tests' record, property and golden games are played by it (``tests/helpers.py``
imports it), and so are the games of ``benchmarks/enddeal_summary.py``. Its use of the
random generator is fixed: the golden files and every seeded test depend on it.

>>> import random
>>> from paston.match import Match
>>> match = Match(first_dealer=0, rng=random.Random(1))
>>> play_out(match, random.Random(2), max_deals=3)
43
>>> match.completed_deals, match.totals
(3, (60, 0, 12))
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from paston.actions import Action, Kind
from paston.deal import Deal
from paston.match import Match

__all__ = ["play_out", "weighted_choice"]


def weighted_choice(
    rng: random.Random,
    deal_or_legal: Deal | Sequence[Action],
    *,
    bid_prob: float = 0.55,
    whist_prob: float = 0.65,
    surrender_prob: float = 0.08,
) -> Action:
    """A random legal action, biased towards bidding, defending and playing on.

    In the auction one ``rng.random()`` decides between the bid (below ``bid_prob``) and
    pass; in the defence one decides between whist (below ``whist_prob``) and pass; when
    trump is named one decides a surrender (below ``surrender_prob``), else ``rng.choice``
    picks the trump; in the other phases ``rng.choice`` picks any legal action. The golden
    files and every seeded test depend on exactly this use of ``rng``: changing it changes
    the games they play.

    >>> deal = Deal.random(random.Random(1), dealer=0)
    >>> str(weighted_choice(random.Random(1), deal, bid_prob=1.0))
    'bid spades'
    >>> str(weighted_choice(random.Random(1), deal, bid_prob=0.0))
    'pass'
    """
    legal = deal_or_legal.legal_actions() if isinstance(deal_or_legal, Deal) else tuple(deal_or_legal)
    kinds = {a.kind for a in legal}
    if Kind.BID in kinds:
        wanted = Kind.BID if rng.random() < bid_prob else Kind.PASS
        return next(a for a in legal if a.kind is wanted)
    if Kind.WHIST in kinds:
        wanted = Kind.WHIST if rng.random() < whist_prob else Kind.PASS
        return next(a for a in legal if a.kind is wanted)
    if Kind.TRUMP in kinds:
        if rng.random() < surrender_prob:
            return next(a for a in legal if a.kind is Kind.SURRENDER)
        return rng.choice([a for a in legal if a.kind is Kind.TRUMP])
    return rng.choice(legal)


def play_out(
    match: Match,
    rng: random.Random,
    *,
    max_actions: int | None = None,
    max_deals: int | None = None,
    bid_prob: float = 0.55,
) -> int:
    """Let :func:`weighted_choice` play ``match`` until no deal is in progress (the game is
    over, or the deal ended and the match deals only when asked), or ``max_actions``
    actions were taken, or ``match.completed_deals`` reached ``max_deals``. Returns the
    number of actions taken.

    >>> match = Match(first_dealer=0, rng=random.Random(5))
    >>> play_out(match, random.Random(6), max_actions=4)
    4
    >>> _ = play_out(match, random.Random(6))
    >>> match.is_over
    True
    """
    n = 0
    while match.deal is not None and (max_actions is None or n < max_actions):
        if max_deals is not None and match.completed_deals >= max_deals:
            break
        deal = match.deal
        match.apply(weighted_choice(rng, deal, bid_prob=bid_prob), deal.to_move)
        n += 1
    return n
