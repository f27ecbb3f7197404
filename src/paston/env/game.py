"""One episode of Paston as the environments run it: the deals, their encodings, the scores.

An episode is one deal (``episode="deal"``: an ordinary deal, dealer drawn at random, dealt
again while it is void, R1.4 and R3.4) or a whole game to the target (``episode="game"``:
a :class:`~paston.match.Match`, R8). :class:`EpisodeGame` keeps a
:class:`~paston.encoding_fast.DealEncoder` on the deal in play, so that every decision's
observation and mask cost a few microseconds. PettingZoo's and Gymnasium's wrappers
(:mod:`paston.env.pettingzoo`, :mod:`paston.env.gymnasium`) share it.

>>> import random
>>> game = EpisodeGame(episode="deal")
>>> game.reset(random.Random(1))
>>> while not game.done:
...     legal = game.encoder.mask.nonzero()[0]
...     scores = game.act(int(legal[0]))
>>> scores is not None and len(scores) == 3
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from operator import index as _index
from typing import Final

from paston.deal import Deal
from paston.encoding import ACTION_COUNT, ACTIONS
from paston.encoding_fast import DealEncoder
from paston.errors import IllegalActionError
from paston.match import Match
from paston.rules import Rules
from paston.views import DealView

EPISODES: Final = ("deal", "game")
ILLEGAL_ACTIONS: Final = ("penalty", "terminate", "raise")


def parse_rules(rules: Rules | str | Mapping[str, object] | None) -> Rules:
    """A rule set from a :class:`~paston.rules.Rules`, a text (``"short,surrender_bonus=0"``),
    a record's ``rules`` object, or ``None`` (the defaults)."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.parse(rules)
    if isinstance(rules, Mapping):
        return Rules.from_dict(dict(rules))
    raise ValueError(f"rules must be a Rules, a text or a mapping, not {type(rules).__name__}")


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``, else a ValueError naming the option."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value


def action_number(action: object) -> int:
    """An action index from an int or a NumPy integer (0-d arrays too); a ValueError for
    anything else, naming it."""
    try:
        index = _index(action)  # type: ignore[arg-type]
    except TypeError:
        index = -1
    if not 0 <= index < ACTION_COUNT or action is True or action is False:
        raise ValueError(f"an action is an integer 0 to {ACTION_COUNT - 1}, not {action!r}")
    return index


class EpisodeGame:
    """The deal (or game) of one episode with its encoder."""

    def __init__(
        self,
        *,
        episode: str = "deal",
        rules: Rules | str | Mapping[str, object] | None = None,
        first_deal: bool = False,
    ) -> None:
        self.episode = check_choice("episode", episode, EPISODES)
        self.rules = parse_rules(rules)
        self.first_deal = bool(first_deal)
        self.encoder = DealEncoder()
        self.match: Match | None = None
        self.deal: Deal | None = None
        self.done = True
        self.decisions = 0
        self.to_move: int | None = None
        """The seat to act (``None`` once the episode is over)."""
        self._rng = random.Random(0)

    def reset(self, rng: random.Random) -> None:
        """A new episode, its decks shuffled by ``rng``."""
        self._rng = rng
        if self.episode == "game":
            self.match = Match(first_dealer=rng.randrange(3), rules=self.rules, rng=rng)
            self.deal = self.match.deal
        else:
            self.match = None
            self.deal = self._deal(rng.randrange(3))
        assert self.deal is not None
        self.encoder.start(self.deal, self.totals)
        self.done = False
        self.decisions = 0
        self.to_move = self.encoder.to_move

    def _deal(self, dealer: int) -> Deal:
        while True:  # R1.4, R1.5: a deal void at once is dealt again by the same dealer
            deal = Deal.random(self._rng, dealer=dealer, rules=self.rules, first_deal=self.first_deal)
            if not deal.is_over:
                return deal

    @property
    def totals(self) -> tuple[int, int, int]:
        """The game's totals (zeros in a one-deal episode)."""
        return self.match.totals if self.match is not None else (0, 0, 0)

    def stop(self) -> None:
        """End the episode here (truncated, or ended by an illegal action)."""
        self.done = True
        self.to_move = None

    def is_legal(self, index: int) -> bool:
        """Whether the action with this index is legal for the seat to move."""
        return not self.done and bool(self.encoder.legal_view[index])

    def view(self, seat: int) -> DealView:
        """``seat``'s view of the deal in play (the last one once the game is over)."""
        assert self.deal is not None
        return self.deal.view(seat, self.totals)

    def why_illegal(self, index: int) -> IllegalActionError | None:
        """``None`` if the action with this index is legal for the seat to move, else the
        engine's error naming the rule."""
        if self.done or self.deal is None:
            return IllegalActionError("R8.3", "episode-over", "the episode is over: reset it")
        if self.encoder.legal_view[index]:
            return None
        error = self.deal.why_illegal(ACTIONS[index])
        assert error is not None
        return error

    def act(self, index: int) -> tuple[int, int, int] | None:
        """Play the (legal) action with this index for the seat to move; the deal's R7
        scores when it finishes a scored deal, else ``None``."""
        deal = self.deal
        assert deal is not None and not self.done
        self.decisions += 1
        match = self.match
        event = deal.apply(ACTIONS[index]) if match is None else match.apply(ACTIONS[index])
        self.encoder.push(deal, event)
        if not deal.is_over:
            self.to_move = self.encoder.to_move
            return None
        scores = deal.scores
        if match is not None:  # the match has scored the deal (R8) and dealt the next
            if match.is_over:
                self.encoder.set_totals(match.totals, self.rules.target)
                self.done = True
            else:
                self.deal = match.deal
                assert self.deal is not None
                self.encoder.start(self.deal, match.totals)
        elif deal.redeal is not None:  # R3.4: all passed with J♠ and 7♠ in the prikup
            self.deal = self._deal(deal.dealer)
            self.encoder.start(self.deal)
        else:
            self.done = True
        self.to_move = None if self.done else self.encoder.to_move
        return scores
