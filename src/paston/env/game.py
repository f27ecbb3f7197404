"""One episode of Paston as the environments run it: the deals, their encodings, the scores.

An episode is one deal (``episode="deal"``: an ordinary deal, dealer drawn at random, dealt
again while it is void, R1.4 and R3.4) or a whole game to the target (``episode="game"``:
a :class:`~paston.match.Match`, R8). The deals run in the compiled core
(:mod:`paston.env.fastdeal`: a decision with its observations and mask in well under a
microsecond); the engine's deal and match are rebuilt from it when a view, an error
message or ``render`` needs them. PettingZoo's and Gymnasium's wrappers
(:mod:`paston.env.pettingzoo`, :mod:`paston.env.gymnasium`) share it.

>>> import random
>>> game = EpisodeGame(episode="deal")
>>> game.reset(random.Random(1))
>>> while not game.done:
...     legal = game.mask.nonzero()[0]
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
from paston.env.fastdeal import ILLEGAL, OVER, VOID, DealRecord, FastDeal, MatchReplay
from paston.errors import IllegalActionError
from paston.match import Match, dealer_after
from paston.rules import Rules
from paston.scoring import apply_totals, winners
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
    """The deal (or game) of one episode with its encodings: ``rows`` (each seat's
    observation), ``full`` (3 × FULL_OBSERVATION_SIZE) and ``mask`` (the mover's legal
    actions), arrays that change as the episode goes on (copy what you keep).

    The deals run in the compiled core (:class:`~paston.env.fastdeal.FastDeal`, ``fast``);
    the engine's :class:`~paston.deal.Deal` (``deal``) and, in a game,
    :class:`~paston.match.Match` (``match``) are rebuilt from it only when asked for
    (views, error messages, ``render``). Between the deals of a game the engine's own
    functions score the totals (R8.1–R8.2), find the winners (R8.3) and name the next
    dealer (R2.2–R2.3)."""

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
        self._game = self.episode == "game"
        # a game's first deal is played under the first deal's rules (R1.5, R2.1)
        self.fast = FastDeal(self.rules, self.first_deal or self._game)
        self.core = self.fast.core
        self.full, self.mask, self.rows = self.fast.full, self.fast.mask, self.fast.rows
        self.started = False
        """Whether :meth:`reset` has been called."""
        self.done = True
        self._decisions = 0  # refused actions, counted by the wrappers
        self._totals: tuple[int, int, int] = (0, 0, 0)
        self._completed = 0
        self._finished: list[DealRecord] = []
        self._replay: MatchReplay | None = None

    def reset(self, rng: random.Random) -> None:
        """A new episode, its dealer and decks drawn from ``rng``."""
        self.started = True
        self.done = False
        self._decisions = 0
        self.fast.reset(rng)
        self._totals = (0, 0, 0)
        self._completed = 0
        self._finished = []
        self._replay = MatchReplay(self.rules, self.core.dealer) if self._game else None

    @property
    def deal(self) -> Deal | None:
        """The engine's deal in play (the last one once the game is over); ``None``
        before :meth:`reset`."""
        if not self.started:
            return None
        match = self.match
        return self.fast.deal() if match is None else match.deals[-1]

    @property
    def match(self) -> Match | None:
        """The engine's match of a game episode, up to the action just played (``None``
        in one-deal episodes)."""
        if self._replay is None:
            return None
        core = self.core
        current = (core.deck, core.dealer, core.actions) if core.to_move >= 0 else None
        return self._replay.update(self._finished, current)

    @property
    def to_move(self) -> int | None:
        """The seat to act (``None`` once the episode is over)."""
        mover = self.core.to_move
        return None if self.done or mover < 0 else mover

    @property
    def decisions(self) -> int:
        """Decisions so far in the episode (refused ones counted by the wrappers)."""
        return self.core.decisions + self._decisions

    @decisions.setter
    def decisions(self, value: int) -> None:
        self._decisions = value - self.core.decisions

    @property
    def totals(self) -> tuple[int, int, int]:
        """The game's totals (zeros in a one-deal episode)."""
        return self._totals

    def stop(self) -> None:
        """End the episode here (truncated, or ended by an illegal action)."""
        self.done = True

    def is_legal(self, index: int) -> bool:
        """Whether the action with this index is legal for the seat to move."""
        return not self.done and self.core.is_legal(index)

    def view(self, seat: int) -> DealView:
        """``seat``'s view of the deal in play (the last one once the game is over)."""
        deal = self.deal
        assert deal is not None
        return deal.view(seat, self.totals)

    def why_illegal(self, index: int) -> IllegalActionError | None:
        """``None`` if the action with this index is legal for the seat to move, else the
        engine's error naming the rule."""
        if self.done or not self.started:
            return IllegalActionError("R8.3", "episode-over", "the episode is over: reset it")
        if self.is_legal(index):
            return None
        deal = self.deal
        assert deal is not None
        error = deal.why_illegal(ACTIONS[index])
        assert error is not None
        return error

    def act(self, index: int) -> tuple[int, int, int] | None:
        """Play the (legal) action with this index for the seat to move; the deal's R7
        scores when it finishes a scored deal, else ``None``."""
        assert not self.done
        code = self.core.step(index)
        assert code != ILLEGAL, "act() takes legal actions only"
        return None if code >= 0 else self.settle(code)

    def settle(self, code: int) -> tuple[int, int, int] | None:
        """After the core's ``step`` returned ``code`` < 0 (the deal ended): the deal's
        scores, or ``None`` after a void deal (R3.4: dealt again by the same dealer). A
        one-deal episode ends with its deal; a game adds the scores to the totals (R8.2
        resets included) and ends when someone reaches the target (R8.3), else the
        next dealer deals (R2.2–R2.3)."""
        fast, core = self.fast, self.core
        if self._game:
            self._finished.append((core.deck, core.dealer, core.actions))
        if code == VOID:
            fast.redeal()
            return None
        scores = core.scores
        assert code == OVER and scores is not None
        if not self._game:
            self.done = True
            return scores
        totals = apply_totals(self._totals, scores, rules=self.rules)
        dealer = dealer_after(core.dealer, core.first_bidder, self._completed, self.rules)
        self._totals = totals
        self._completed += 1
        if winners(totals, rules=self.rules):
            self.done = True
            core.set_totals(*totals)
        else:
            fast.start(dealer, first_deal=False, totals=totals)
        return scores
