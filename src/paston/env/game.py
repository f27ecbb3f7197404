"""One episode of Paston as the environments run it: the deals, their encodings, the scores.

An episode is one deal (``episode="deal"``: an ordinary deal, dealer drawn at random, dealt
again while it is void, R1.4 and R3.4) or a whole game to the target (``episode="game"``:
a :class:`~paston.match.Match`, R8). One-deal episodes run in the compiled core
(:mod:`paston.env.fastdeal`: a decision with its observations and mask in well under a
microsecond); games keep a :class:`~paston.encoding_fast.DealEncoder` on the deal in
play (a few microseconds). PettingZoo's and Gymnasium's wrappers
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
from paston.encoding import ACTION_COUNT, ACTIONS, OBSERVATION_SIZE, Observation
from paston.encoding_fast import DealEncoder
from paston.env.fastdeal import ILLEGAL, VOID, FastDeal
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
    """The deal (or game) of one episode with its encodings: ``rows`` (each seat's
    observation), ``full`` (3 × FULL_OBSERVATION_SIZE) and ``mask`` (the mover's legal
    actions), arrays that change as the episode goes on (copy what you keep).

    One-deal episodes run in the compiled core (:class:`~paston.env.fastdeal.FastDeal`,
    ``fast``); the engine's :class:`~paston.deal.Deal` (``deal``) is rebuilt from it
    only when asked for (views, error messages, ``render``). Whole games run on a
    :class:`~paston.match.Match` with a :class:`~paston.encoding_fast.DealEncoder`."""

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
        self.fast: FastDeal | None = None
        self.encoder: DealEncoder | None = None
        if self.episode == "deal":
            self.fast = FastDeal(self.rules, self.first_deal)
            self.full, self.mask = self.fast.full, self.fast.mask
        else:
            self.encoder = DealEncoder()
            self.full, self.mask = self.encoder.full, self.encoder.mask
        self.rows: tuple[Observation, ...] = tuple(self.full[s, :OBSERVATION_SIZE] for s in range(3))
        self.match: Match | None = None
        self._deal: Deal | None = None
        self.started = False
        """Whether :meth:`reset` has been called."""
        self.done = True
        self._to_move = -1
        self._decisions = 0
        self._rng = random.Random(0)

    def reset(self, rng: random.Random) -> None:
        """A new episode, its decks shuffled by ``rng``."""
        self._rng = rng
        self.started = True
        self.done = False
        self._decisions = 0
        if self.fast is not None:
            self._to_move = self.fast.reset(rng)
            return
        assert self.encoder is not None
        self.match = Match(first_dealer=rng.randrange(3), rules=self.rules, rng=rng)
        self._deal = self.match.deal
        assert self._deal is not None
        self.encoder.start(self._deal, self.totals)
        self._to_move = self._encoder_mover()

    def _encoder_mover(self) -> int:
        assert self.encoder is not None
        mover = self.encoder.to_move
        return -1 if mover is None else mover

    @property
    def deal(self) -> Deal | None:
        """The engine's deal in play (the last one once the game is over); ``None``
        before :meth:`reset`."""
        if self.fast is not None:
            return self.fast.deal() if self.started else None
        return self._deal

    @property
    def to_move(self) -> int | None:
        """The seat to act (``None`` once the episode is over)."""
        if self.done:
            return None
        mover = self.fast.core.to_move if self.fast is not None else self._to_move
        return mover if mover >= 0 else None

    @property
    def decisions(self) -> int:
        """Decisions so far in the episode (refused ones counted by the wrappers)."""
        if self.fast is not None:
            return self.fast.core.decisions + self._decisions
        return self._decisions

    @decisions.setter
    def decisions(self, value: int) -> None:
        self._decisions = value - (self.fast.core.decisions if self.fast is not None else 0)

    @property
    def totals(self) -> tuple[int, int, int]:
        """The game's totals (zeros in a one-deal episode)."""
        return self.match.totals if self.match is not None else (0, 0, 0)

    def stop(self) -> None:
        """End the episode here (truncated, or ended by an illegal action)."""
        self.done = True

    def is_legal(self, index: int) -> bool:
        """Whether the action with this index is legal for the seat to move."""
        if self.done:
            return False
        if self.fast is not None:
            return self.fast.core.is_legal(index)
        return bool(self.mask[index])

    def view(self, seat: int) -> DealView:
        """``seat``'s view of the deal in play (the last one once the game is over)."""
        deal = self.deal
        assert deal is not None
        return deal.view(seat, self.totals)

    def why_illegal(self, index: int) -> IllegalActionError | None:
        """``None`` if the action with this index is legal for the seat to move, else the
        engine's error naming the rule."""
        deal = self.deal
        if self.done or deal is None:
            return IllegalActionError("R8.3", "episode-over", "the episode is over: reset it")
        if self.is_legal(index):
            return None
        error = deal.why_illegal(ACTIONS[index])
        assert error is not None
        return error

    def act(self, index: int) -> tuple[int, int, int] | None:
        """Play the (legal) action with this index for the seat to move; the deal's R7
        scores when it finishes a scored deal, else ``None``."""
        assert not self.done
        if self.fast is not None:
            code = self.fast.core.step(index)
            assert code != ILLEGAL, "act() takes legal actions only"
            return None if code >= 0 else self.settle(code)
        return self._act_in_match(index)

    def settle(self, code: int) -> tuple[int, int, int] | None:
        """After the core's ``step`` returned ``code`` < 0 (a one-deal episode): the
        scores of the finished deal (the episode is over), or ``None`` after a void deal
        (R3.4: dealt again by the same dealer)."""
        assert self.fast is not None
        if code == VOID:
            self.fast.redeal()
            return None
        self.done = True
        return self.fast.core.scores

    def _act_in_match(self, index: int) -> tuple[int, int, int] | None:
        deal, match, encoder = self._deal, self.match, self.encoder
        assert deal is not None and match is not None and encoder is not None
        self._decisions += 1
        encoder.push(deal, match.apply(ACTIONS[index]))
        if not deal.is_over:
            self._to_move = self._encoder_mover()
            return None
        scores = deal.scores
        if match.is_over:  # the match has scored the deal (R8)
            encoder.set_totals(match.totals, self.rules.target)
            self.done = True
        else:  # and dealt the next
            self._deal = match.deal
            assert self._deal is not None
            encoder.start(self._deal, match.totals)
        self._to_move = self._encoder_mover()
        return scores
