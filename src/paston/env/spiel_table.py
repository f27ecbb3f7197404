"""The game behind the OpenSpiel state: the deal as explicit chance, one deal or a whole game.

No OpenSpiel here: :class:`SpielTable` is plain Python on top of the engine, so the
OpenSpiel glue (:mod:`paston.env.openspiel`) stays thin and this part is typed and tested
on its own.

The shuffle is explicit chance, **one chance node per deck position**: the first chance
node chooses the bottom card ``deck[31]`` among the 31 cards other than 7♠ (R1.2: the
bottom card is never 7♠), then ``deck[0]``, ``deck[1]``, …, ``deck[30]`` each among the
cards left, every outcome equally likely. That is exactly the distribution of R1.2's
"shuffle, cut, look at the bottom card, again while it is 7♠" (every deck whose bottom
card is not 7♠, equally likely). The dealt deck then goes to the hands by R1.3.

>>> import random
>>> table = SpielTable(SpielConfig())
>>> rng = random.Random(1)
>>> while table.is_chance:
...     table.apply_chance(rng.choice(table.chance_cards()))
>>> table.deal is not None, table.to_move in (0, 1, 2, None)
(True, True)
>>> len(SpielTable(SpielConfig()).chance_cards())  # the bottom card: never 7S
31
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from paston.actions import Action
from paston.cards import FULL_DECK_MASK, SEVEN_OF_SPADES, mask_indices
from paston.deal import Deal
from paston.encoding_fast import DealEncoder
from paston.match import Match
from paston.rules import Rules
from paston.views import DealView

_BOTTOM_CHOICES = tuple(c for c in range(32) if c != SEVEN_OF_SPADES)
_CHANCE, _DECISION, _OVER = range(3)

MAX_DECISIONS_PER_DEAL = 8 + 1 + 1 + 2 + 30
"""An upper bound on the decisions of one deal: at most 8 in the auction (5 bids, 3
passes), the discard, trump, two whist answers and 30 cards."""

DEAL_SCORE_RANGE = (-40, 320)
"""The lowest and highest R7 score of one seat in one deal: −40 (a failed ×4 contract, a
defender without a trick at ×4) and +320 (a defender taking all ten tricks at ×4)."""


@dataclass(frozen=True, slots=True)
class SpielConfig:
    """The game's parameters: the rule switches, who deals, one deal or a game.

    ``first_deal`` plays the one deal under the first-deal rules (R1.5, R2.1);
    ``whole_game`` plays deals until someone reaches the target (R8.3), stopping
    after ``max_deals`` dealt decks (redeals included) so that every game is finite.
    """

    rules: Rules = field(default_factory=Rules)
    dealer: int = 0
    first_deal: bool = False
    whole_game: bool = False
    max_deals: int = 100

    def __post_init__(self) -> None:
        if type(self.dealer) is not int or not 0 <= self.dealer <= 2:
            raise ValueError(f"dealer must be seat 0, 1 or 2, not {self.dealer!r}")
        if type(self.max_deals) is not int or not 1 <= self.max_deals <= 10_000:
            raise ValueError(f"max_deals must be an integer from 1 to 10000, not {self.max_deals!r}")

    @property
    def max_decisions(self) -> int:
        """An upper bound on the decisions of one game (OpenSpiel's ``max_game_length``)."""
        return MAX_DECISIONS_PER_DEAL * (self.max_deals if self.whole_game else 1)

    @property
    def max_chance_nodes(self) -> int:
        """An upper bound on the chance nodes of one game: 32 per dealt deck."""
        return 32 * (self.max_deals if self.whole_game else 1)

    @property
    def utility_range(self) -> tuple[int, int]:
        """The lowest and highest return of one seat."""
        low, high = DEAL_SCORE_RANGE
        if not self.whole_game:
            return low, high
        # totals stay under the target until the last deal; a reset (R8.2) only raises one
        return low * self.max_deals, self.rules.target - 1 + high


class SpielTable:
    """One game in progress: the chance nodes of each deck, then the deal's decisions.

    ``moves`` is every chance outcome (a card) and every decision (an action id) in
    order; :func:`replay` rebuilds a table from it (how states are serialized).
    """

    __slots__ = ("_status", "_used", "config", "deal", "dealt_decks", "deck", "encoder", "match", "moves")

    def __init__(self, config: SpielConfig) -> None:
        self.config = config
        self.deck: list[int] = []  # the chance outcomes of the deck being dealt, in order
        self._used = 0  # the cards of ``deck`` as a mask
        self.deal: Deal | None = None  # the current (or last) deal
        self.match: Match | None = (
            Match(first_dealer=config.dealer, rules=config.rules) if config.whole_game else None
        )
        self.dealt_decks = 0
        self.moves: list[int] = []
        # every seat's observation of the current deal, kept up to date action by action
        # (a clone has none: it reads its views instead; see paston.env.spiel_encoding)
        self.encoder: DealEncoder | None = None
        self._status = _CHANCE

    def _update(self) -> None:
        """Where the game stands after a move (kept, since OpenSpiel asks often)."""
        deal = self.deal
        if deal is None:
            self._status = _CHANCE
        elif not deal.is_over:
            self._status = _DECISION
        elif self.match is None or self.match.is_over or self.dealt_decks >= self.config.max_deals:
            self._status = _OVER
        else:
            self._status = _CHANCE

    # --- where the game stands --------------------------------------------------------
    @property
    def is_chance(self) -> bool:
        """True while a deck is being dealt."""
        return self._status == _CHANCE

    @property
    def is_over(self) -> bool:
        """True when the game has ended: the one deal is scored or void, or the game
        reached its target (R8.3) or its ``max_deals``."""
        return self._status == _OVER

    @property
    def to_move(self) -> int | None:
        """The seat to decide, or ``None`` at chance nodes and at the end."""
        if self._status != _DECISION:
            return None
        assert self.deal is not None
        return self.deal.to_move

    @property
    def dealer(self) -> int:
        """The dealer of the deck being dealt or of the current deal."""
        if self.deal is not None and not self.deal.is_over:
            return self.deal.dealer
        return self.match.next_dealer if self.match is not None else self.config.dealer

    @property
    def totals(self) -> tuple[int, int, int]:
        """The running totals of a whole game (R8.1); zeros in one-deal mode."""
        return self.match.totals if self.match is not None else (0, 0, 0)

    def returns(self) -> tuple[int, int, int]:
        """At the end: the deal's R7 scores (zeros for a void deal), or a game's totals.
        Zeros before the end (terminal rewards only)."""
        if self._status != _OVER:
            return (0, 0, 0)
        if self.match is not None:
            return self.match.totals
        assert self.deal is not None
        scores = self.deal.scores
        return scores if scores is not None else (0, 0, 0)

    def view(self, seat: int) -> DealView | None:
        """What ``seat`` may know of the current (or last) deal; ``None`` before the first."""
        if self.deal is None:
            return None
        return self.deal.view(seat, self.totals)

    # --- chance --------------------------------------------------------------------------
    def chance_cards(self) -> tuple[int, ...]:
        """The cards the next chance node may choose (each equally likely)."""
        if not self.deck:
            return _BOTTOM_CHOICES
        return mask_indices(FULL_DECK_MASK ^ self._used)

    def deck_position(self) -> int:
        """The deck position the next chance node fills: 31 first, then 0, 1, …, 30."""
        return 31 if not self.deck else len(self.deck) - 1

    def apply_chance(self, card: int) -> None:
        """Place ``card`` at the next deck position; the 32nd card deals the deal."""
        if self._status != _CHANCE:
            raise ValueError("no deck is being dealt now")
        if (
            type(card) is not int
            or not 0 <= card < 32
            or self._used >> card & 1
            or (card == SEVEN_OF_SPADES and not self.deck)
        ):
            raise ValueError(f"card {card!r} cannot be dealt at deck position {self.deck_position()}")
        self.deck.append(card)
        self._used |= 1 << card
        self.moves.append(card)
        if len(self.deck) < 32:
            return
        deck = [*self.deck[1:], self.deck[0]]
        self.deck = []
        self._used = 0
        self.dealt_decks += 1
        totals = self.totals
        if self.match is not None:
            self.deal = self.match.deal_next(deck)
        else:
            cfg = self.config
            self.deal = Deal(deck, dealer=cfg.dealer, rules=cfg.rules, first_deal=cfg.first_deal)
        self.encoder = DealEncoder()
        self.encoder.start(self.deal, totals)
        self._update()

    # --- decisions ---------------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to move (empty at chance nodes and the end)."""
        if self.to_move is None:
            return ()
        assert self.deal is not None
        return self.deal.legal_actions()

    def apply(self, action: Action) -> None:
        """Apply the decision of the seat to move (an illegal one raises and changes nothing)."""
        if self.to_move is None:
            raise ValueError("no seat decides now")
        deal = self.deal
        assert deal is not None
        event = self.match.apply(action) if self.match is not None else deal.apply(action)
        self.moves.append(action.id)
        encoder = self.encoder
        if encoder is not None:
            encoder.push(deal, event)
        if deal.is_over:
            if encoder is not None and self.match is not None:
                encoder.set_totals(self.match.totals, self.config.rules.target)
            self._update()

    # --- copies ------------------------------------------------------------------------
    def clone(self) -> SpielTable:
        """An independent copy (the engine's own cheap clones)."""
        new = object.__new__(SpielTable)
        new.config = self.config
        new.deck = self.deck.copy()
        new._used = self._used
        new._status = self._status
        new.encoder = None
        new.dealt_decks = self.dealt_decks
        new.moves = self.moves.copy()
        if self.match is not None:
            new.match = self.match.clone()
            new.deal = new.match.deals[-1] if new.match.deals else None
        else:
            new.match = None
            new.deal = self.deal.clone() if self.deal is not None else None
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> SpielTable:
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple[SpielConfig, tuple[int, ...]]]:
        return (replay, (self.config, tuple(self.moves)))


def replay(config: SpielConfig, moves: tuple[int, ...]) -> SpielTable:
    """A table rebuilt from its ``moves``: chance cards while a deck is dealt, action ids
    otherwise (how a pickled table comes back)."""
    table = SpielTable(config)
    for move in moves:
        if table.is_chance:
            table.apply_chance(move)
        else:
            table.apply(Action.from_id(move))
    return table
