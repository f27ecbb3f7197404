"""A beatable player: the ``heuristic`` with human-looking mistakes (``infer:1``).

Bids, whists and the trump choice are drawn from the heuristic's own preferences
(:func:`bid_preferences`, :func:`whist_preferences`, :func:`trump_preferences`) through a
softmax of ``temperature`` tricks: a close call goes either way, a clear one almost never
(a cold hand is surrendered about once in a million). In card play it follows a simple
rule instead of the heuristic's with probability ``rule``, and plays a random legal card
with probability ``blunder``; the discard is the heuristic's. Only the seat's view is
read, and a seed makes it reproducible.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> bot = NoisyHeuristicPlayer(seed=1)
>>> bot.choose(deal.view(deal.to_move)) in deal.legal_actions()
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from paston.actions import PASS, SURRENDER, Action, Kind
from paston.bots.heuristic import HeuristicPlayer, bid_preferences, trump_preferences, whist_preferences
from paston.cards import ALL_CARDS, SUIT_MASKS
from paston.deal import Phase
from paston.errors import IllegalActionError
from paston.views import DealView


@dataclass(frozen=True, slots=True)
class Noise:
    """How noisy the player is: the softmax ``temperature`` (in tricks) of its bids and
    whists, and ``trump_temperature`` of its trump or surrender choice; the chances that
    a card is chosen by the simple rule (``rule``) or at random (``blunder``) rather than
    by the heuristic."""

    temperature: float = 1.2
    rule: float = 0.3
    blunder: float = 0.2
    trump_temperature: float = 0.8


BEGINNER = Noise()
"""The noise of ``infer:1``."""


def soft_choice(prefs: dict[Action, float], temperature: float, rng: random.Random) -> Action:
    """One of ``prefs`` drawn with probability proportional to ``exp(score / temperature)``.

    >>> prefs = {PASS: 0.0, Action.parse("bid spades"): 20.0}
    >>> soft_choice(prefs, 0.8, random.Random(1))
    Action.parse('bid spades')
    """
    top = max(prefs.values())
    actions = list(prefs)
    weights = [math.exp((prefs[a] - top) / temperature) for a in actions]
    return rng.choices(actions, weights)[0]


def simple_card(view: DealView) -> Action:
    """The beginner's rule: lead the highest card of the longest suit; when following,
    play low to a partner's winner, else win with the highest card that wins, else play
    the lowest card."""
    assert view.contract is not None and view.declarer is not None
    legal = [a.cards[0].index for a in view.legal_actions]
    trump = view.contract.trump_suit
    trick = view.current_trick
    if not trick:
        hand = view.hand.mask
        longest = max(range(4), key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), s != trump))
        return Action.play(ALL_CARDS[max(c for c in legal if c >> 3 == longest)])
    win_seat, win = trick[0][0], trick[0][1].index
    for seat, card in trick[1:]:
        c = card.index
        if (c >> 3 == win >> 3 and c > win) or (c >> 3 == trump and win >> 3 != trump):
            win_seat, win = seat, c
    partner = (win_seat == view.declarer) == (view.seat == view.declarer)
    beats = [c for c in legal if (c >> 3 == win >> 3 and c > win) or (c >> 3 == trump and win >> 3 != trump)]
    if beats and not partner:
        return Action.play(ALL_CARDS[max(beats, key=lambda c: (c >> 3 != trump, c & 7))])
    return Action.play(ALL_CARDS[min(legal, key=lambda c: (c >> 3 == trump, c & 7))])


class NoisyHeuristicPlayer:
    """The heuristic with a softened auction, whist and trump choice and slips in card
    play (see :class:`Noise`). Deterministic given a seed."""

    name = "noisy-heuristic"

    def __init__(self, seed: int | None = None, *, noise: Noise = BEGINNER) -> None:
        self.noise = noise
        self._rng = random.Random(seed)
        self._heuristic = HeuristicPlayer(seed)

    def choose(self, view: DealView) -> Action:
        """Pick a legal action from the seat's view."""
        legal = view.legal_actions
        if not legal:
            raise IllegalActionError("R0.1", "not-your-turn", f"seat {view.seat} has nothing to do now")
        if len(legal) == 1:
            return legal[0]
        action = self._choose(view)
        return action if action in legal else legal[0]

    def _choose(self, view: DealView) -> Action:
        phase, hand, t = view.phase, view.hand.mask, self.noise.temperature
        if phase is Phase.AUCTION:
            bids = [a for a in view.legal_actions if a.kind is Kind.BID]
            return soft_choice(bid_preferences(hand, bids[0]), t, self._rng) if bids else PASS
        if phase is Phase.TRUMP:
            named = (a.contract for a in view.legal_actions if a.kind is Kind.TRUMP)
            allowed = [c for c in named if c is not None]
            prefs = trump_preferences(hand, allowed, SURRENDER in view.legal_actions)
            return soft_choice(prefs, self.noise.trump_temperature, self._rng)
        if phase is Phase.DEFENCE:
            assert view.contract is not None
            alone = len(view.whist_answers) == 1 and not view.whist_answers[0]
            return soft_choice(whist_preferences(hand, view.contract, alone), t, self._rng)
        if phase is Phase.PLAY:
            r = self._rng.random()
            if r < self.noise.blunder:
                return self._rng.choice(view.legal_actions)
            if r < self.noise.blunder + self.noise.rule:
                return simple_card(view)
        return self._heuristic.choose(view)
