"""A fast rule-based player: hand evaluation for bidding, a sensible discard and trump,
surrender when hopeless, whist when it expects its quota, and card play by the usual
rules (second hand low, third hand high, covering honours, drawing trumps, ruffing,
leading through strength, playing low to a partner's winner).

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> bot = HeuristicPlayer(seed=1)
>>> bot.choose(deal.view(deal.to_move)) in deal.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from paston.actions import PASS, SURRENDER, WHIST, Action, Kind
from paston.bots.evaluation import best_discard, declarer_tricks, defence_tricks
from paston.bots.knowledge import voids_from_view
from paston.cards import ALL_CARDS, SUIT_MASKS
from paston.contracts import Contract, allowed_trumps
from paston.deal import Phase
from paston.errors import IllegalActionError
from paston.views import DealView

PRIKUP_VALUE = 0.6  # expected tricks gained by taking the prikup and discarding two


def contract_estimates(hand: int, extra: float) -> dict[Contract, float]:
    """Expected declarer tricks for each ordinary contract (and best spades)."""
    out = {Contract(s): declarer_tricks(hand, s) + extra for s in range(4)}
    out[Contract.BEST_SPADES] = out[Contract.SPADES]
    return out


def best_of(preferences: dict[Action, float]) -> Action:
    """The preferred action: the highest score, the first listed among equals."""
    return max(preferences, key=lambda a: preferences[a])


def bid_preferences(hand: int, bid: Action, aggression: float = 0.0) -> dict[Action, float]:
    """The heuristic's scores for bidding ``bid`` (the next step of the ladder) or passing
    with ``hand``: bidding scores its margin in expected tricks over what the heuristic
    needs, passing 0; :meth:`HeuristicPlayer.choose` takes the highest (a tie bids).

    >>> from paston.cards import CardSet
    >>> bid = Action.parse("bid spades")
    >>> prefs = bid_preferences(CardSet.parse("AH KH QH JH 9H AS KC 7D 8D 9D").mask, bid)
    >>> round(prefs[bid], 2), prefs[PASS]
    (1.3, 0.0)
    """
    assert bid.contract is not None
    estimates = contract_estimates(hand, PRIKUP_VALUE)
    if bid.contract is Contract.BEST_SPADES:
        margin = estimates[Contract.SPADES] - (8.0 - aggression)
    else:
        # we may later name the bid suit or any higher ordinary suit
        best = max(estimates[c] for c in Contract if bid.contract <= c < Contract.BEST_SPADES)
        margin = best - (6.2 - aggression)
    return {bid: margin, PASS: 0.0}


def whist_preferences(
    hand: int, contract: Contract, alone: bool, aggression: float = 0.0
) -> dict[Action, float]:
    """The heuristic's scores for whist (its expected defensive tricks over its quota:
    3.6 when the partner passed and it would defend ``alone``, R5.2, else 1.7) and pass (0)."""
    est = defence_tricks(hand, contract.trump_suit)
    need = (3.6 if alone else 1.7) - aggression
    return {WHIST: est - need, PASS: 0.0}


def trump_preferences(
    hand: int, allowed: list[Contract], surrender: bool, aggression: float = 0.0
) -> dict[Action, float]:
    """The heuristic's scores for naming each allowed contract (expected tricks, nudged
    towards the dearer multiplier when safe and the cheaper when marginal) and, when
    legal, for surrendering. With a hopeless hand (under 4.6 tricks) it names spades if
    allowed (failing costs no more than surrendering), else surrenders a dear contract:
    that action is put above the others by how hopeless the hand is."""

    def key(c: Contract) -> float:
        est = declarer_tricks(hand, c.trump_suit)
        return est + (0.15 * c.multiplier if est >= 7.5 else -0.05 * c.multiplier)

    # the cheaper contract first: ``best_of`` takes the first among equal scores
    prefs: dict[Action, float] = {Action.trump(c): key(c) for c in sorted(allowed)}
    contract = max(sorted(allowed), key=key)
    top = prefs[Action.trump(contract)]
    short = 4.6 - aggression - declarer_tricks(hand, contract.trump_suit)
    if surrender:
        prefs[SURRENDER] = top - max(-short, 0.0) - 1.0
    if short > 0:
        if Contract.SPADES in allowed:
            prefs[Action.trump(Contract.SPADES)] = top + short
        elif contract.multiplier >= 2 and surrender:
            prefs[SURRENDER] = top + short
    return prefs


class HeuristicPlayer:
    """Rule-based play; about a millisecond a decision. Deterministic given a seed."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, *, aggression: float = 0.0) -> None:
        self._rng = random.Random(seed)
        self.aggression = aggression

    def choose(self, view: DealView) -> Action:
        """Pick a legal action from the seat's view."""
        legal = view.legal_actions
        if not legal:
            raise IllegalActionError("R0.1", "not-your-turn", f"seat {view.seat} has nothing to do now")
        phase = view.phase
        if phase is Phase.AUCTION:
            action = self._bid(view)
        elif phase is Phase.DISCARD:
            action = self._discard(view)
        elif phase is Phase.TRUMP:
            action = self._trump(view)
        elif phase is Phase.DEFENCE:
            action = self._defence(view)
        else:
            action = self._play(view)
        return action if action in legal else legal[0]

    # --- bidding -----------------------------------------------------------------------
    def _bid(self, view: DealView) -> Action:
        bids = [a for a in view.legal_actions if a.kind is Kind.BID]
        if not bids:
            return PASS
        return best_of(bid_preferences(view.hand.mask, bids[0], self.aggression))

    # --- discard and trump -----------------------------------------------------------------
    def _allowed_trumps(self, view: DealView) -> list[Contract]:
        return [a.contract for a in view.legal_actions if a.kind is Kind.TRUMP and a.contract is not None]

    def _discard(self, view: DealView) -> Action:
        hand = view.hand.mask
        high = view.high_bid
        allowed = allowed_trumps(high)
        best = max(allowed, key=lambda c: declarer_tricks(hand, c.trump_suit))
        a, b = best_discard(hand, best.trump_suit)
        return Action.discard(a, b)

    def _trump(self, view: DealView) -> Action:
        allowed = self._allowed_trumps(view)
        surrender = SURRENDER in view.legal_actions
        return best_of(trump_preferences(view.hand.mask, allowed, surrender, self.aggression))

    # --- whist or pass ---------------------------------------------------------------------
    def _defence(self, view: DealView) -> Action:
        assert view.contract is not None
        alone = len(view.whist_answers) == 1 and not view.whist_answers[0]
        return best_of(whist_preferences(view.hand.mask, view.contract, alone, self.aggression))

    # --- card play -----------------------------------------------------------------------------
    def _play(self, view: DealView) -> Action:
        assert view.contract is not None and view.declarer is not None and view.seat is not None
        legal = [a.cards[0].index for a in view.legal_actions]
        trump = view.contract.trump_suit
        me = view.seat
        declarer = view.declarer
        my_side = me == declarer
        trick = view.current_trick
        remaining_out = ~(view.hand.mask | view.played.mask) & 0xFFFFFFFF
        if view.discard is not None:
            remaining_out &= ~view.discard.mask
        voids = voids_from_view(view)
        opponents = [s for s in (declarer, *view.defenders) if (s == declarer) != my_side]

        def is_top(c: int) -> bool:
            suit = c >> 3
            higher = remaining_out & SUIT_MASKS[suit] & ~((1 << (c + 1)) - 1)
            return not higher

        def low(cards: list[int]) -> int:
            return min(cards, key=lambda c: (c & 7, c >> 3 == trump))

        if not trick:
            return Action.play(
                ALL_CARDS[self._lead(view, legal, trump, my_side, opponents, voids, is_top, low)]
            )
        lead = trick[0][1].suit
        win_seat, win_card = trick[0][0], trick[0][1].index
        for seat, card in trick[1:]:
            c = card.index
            if (c >> 3 == win_card >> 3 and c > win_card) or (c >> 3 == trump and win_card >> 3 != trump):
                win_seat, win_card = seat, c
        partner_winning = (win_seat == declarer) == my_side
        last = len(trick) == len(view.defenders)  # two-player: second card; three: third card

        def beats(c: int) -> bool:
            return (c >> 3 == win_card >> 3 and c > win_card) or (c >> 3 == trump and win_card >> 3 != trump)

        winners = [c for c in legal if beats(c)]
        if partner_winning:
            if last or is_top(win_card):
                return Action.play(ALL_CARDS[low(legal)])
            # partner may be overtaken by the last player: play low unless we can make sure
            sure = [c for c in winners if is_top(c)]
            return Action.play(ALL_CARDS[min(sure) if sure and not last else low(legal)])
        if winners:
            if last:
                return Action.play(ALL_CARDS[min(winners, key=lambda c: (c >> 3 == trump, c & 7))])
            # second hand: win with a top card, cover an honour, else low
            tops = [c for c in winners if is_top(c)]
            if tops:
                return Action.play(ALL_CARDS[min(tops)])
            if win_card & 7 >= 4 and win_card >> 3 == lead:
                return Action.play(ALL_CARDS[min(winners)])  # cover an honour
            if winners[0] >> 3 == trump and lead != trump:
                return Action.play(ALL_CARDS[min(winners)])  # ruff
            return Action.play(ALL_CARDS[low(legal)])
        return Action.play(ALL_CARDS[self._discard_low(view, legal, trump)])

    def _discard_low(self, view: DealView, legal: list[int], trump: int) -> int:
        hand = view.hand.mask

        def cost(c: int) -> tuple[int, int, int]:
            suit = c >> 3
            return (suit == trump, c & 7, -(hand & SUIT_MASKS[suit]).bit_count())

        return min(legal, key=cost)

    def _lead(
        self,
        view: DealView,
        legal: list[int],
        trump: int,
        my_side: bool,
        opponents: list[int],
        voids: tuple[int, int, int],
        is_top: Callable[[int], bool],
        low: Callable[[list[int]], int],
    ) -> int:
        hand = view.hand.mask
        trumps_out = view.played.mask & SUIT_MASKS[trump]
        my_trumps = hand & SUIT_MASKS[trump]
        outstanding_trumps = (~(hand | trumps_out) & SUIT_MASKS[trump] & 0xFFFFFFFF).bit_count()
        if view.discard is not None:
            outstanding_trumps -= (view.discard.mask & SUIT_MASKS[trump]).bit_count()
        if my_side and my_trumps and outstanding_trumps > 0:
            # declarer draws trumps with top trumps, or with length
            tops = [c for c in legal if c >> 3 == trump and is_top(c)]
            if tops:
                return max(tops)
            if my_trumps.bit_count() > outstanding_trumps + 1:
                return min(c for c in legal if c >> 3 == trump)
        tops = [c for c in legal if c >> 3 != trump and is_top(c)]
        ruffers = [o for o in opponents if not voids[o] & SUIT_MASKS[trump]]
        safe_tops = [c for c in tops if not any(voids[o] & SUIT_MASKS[c >> 3] for o in ruffers)]
        if safe_tops:
            return max(safe_tops)
        if not my_side:
            # lead a short side suit (hoping for a ruff) or through strength: low from length
            side = [c for c in legal if c >> 3 != trump]
            if side:

                def key(c: int) -> tuple[int, int]:
                    return ((hand & SUIT_MASKS[c >> 3]).bit_count(), c & 7)

                return min(side, key=key)
        return low(legal)
