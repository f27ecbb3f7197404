"""Where the hidden cards are, given everything a seat has seen: the other seats' bids
and passes, whist or pass, the declarer's trump or surrender, and the cards played.

Worlds consistent with the view (:mod:`paston.bots.knowledge`) are weighted by the
probability that the other seats would have acted as they did in that world, under an
opponent model: the ``heuristic`` player's preferences (:func:`bid_preferences`,
:func:`whist_preferences`, :func:`trump_preferences`) softened by a softmax with
``temperature`` (in tricks) and mixed with ``noise`` of uniform choice; in card play, a
seat that neither wins the trick nor leads is expected to play its lowest card of the
suit it follows, or its lowest side card when it discards (else ``play_slip``). The
rules speak too: the first bidder of a first deal (R2.1) and the declarer after three
passes (R3.4) were dealt J♠, or 7♠ with J♠ in the prikup.

Each seat's hand at the time of each action is rebuilt from the world: its hidden cards
plus the cards it played since. The declarer's auction hand is not knowable to the
others (the prikup and the discard are hidden, R4.1): its final ten cards stand for it,
less the prikup's expected gain. Only the seat's view is read.

>>> import random
>>> from paston.deal import Deal
>>> deal = Deal.random(random.Random(3), dealer=0)
>>> _ = deal.apply(deal.legal_actions()[0])  # seat 1 bids spades
>>> sampler = InferenceSampler()
>>> worlds = sampler(deal.view(2), 4, random.Random(1))
>>> len(worlds), all(w[2] == deal.hand_mask(2) for w in worlds)
(4, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from paston.actions import Action, Kind
from paston.bots.heuristic import (
    PRIKUP_VALUE,
    HeuristicPlayer,
    bid_preferences,
    trump_preferences,
    whist_preferences,
)
from paston.bots.knowledge import Knowledge, World
from paston.bots.noisy import NoisyHeuristicPlayer
from paston.bots.pimc import DEFAULT_LEVEL, Level, Option, PimcPlayer, Scored
from paston.cards import JACK_OF_SPADES, SEVEN_OF_SPADES, SUIT_MASKS
from paston.contracts import Contract, allowed_trumps
from paston.errors import IllegalActionError
from paston.solver import Solver
from paston.views import DealView


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """How the other seats are expected to act: the heuristic's preferences through a
    softmax of ``temperature`` (tricks), mixed with ``noise`` of uniform choice; a card
    that is not the seat's lowest when following or discarding has likelihood ``play_slip``
    relative to one that is."""

    temperature: float = 1.0
    noise: float = 0.25
    play_slip: float = 0.35


DEFAULT_MODEL = OpponentModel()

FITTED_MODEL = OpponentModel(temperature=2.0, noise=0.05, play_slip=0.10)
"""The settings ``experiments/opponent_model_fit.py`` fitted to how ``pimc:3`` plays (300
deals, seed 2027): they locate the hidden cards a little better on held-out deals, but are
not the default (decision I8, docs/STRENGTH.md)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A choice another seat made before the cards were played: the preferences it had
    (by kind) and what it chose. ``bid`` is the step offered in the auction."""

    seat: int
    kind: str  # "bid", "whist", "trump"
    chosen: Action
    bid: Action | None = None
    alone: bool = False
    contract: Contract | None = None
    allowed: tuple[Contract, ...] = ()


@dataclass(frozen=True, slots=True)
class CardClue:
    """A card played by another seat that neither led nor took the lead: the seat held
    no card of ``lower`` (its cheaper choices) then, unless it slipped. ``later`` are the
    cards the seat played from this one on (its hand then: its hidden cards plus these)."""

    seat: int
    lower: int
    later: int


@dataclass(frozen=True, slots=True)
class Observations:
    """What the view shows of the other seats' choices, ready to score worlds."""

    seat: int
    declarer: int | None
    played_by: tuple[int, int, int]
    decisions: tuple[Decision, ...]
    clues: tuple[CardClue, ...]
    jack_seats: tuple[int, ...] = ()
    """Seats the rules say were dealt J♠, or 7♠ with J♠ in the prikup: the first bidder
    of a first deal (R2.1), the declarer after three passes (R3.4)."""
    taken: bool = False
    """Whether the declarer has taken the prikup (its cards are then the declarer's)."""
    declarer_extra: int = 0
    """The declarer's discard, when the seat is the declarer and knows it."""


def _next_bid(high: Contract | None) -> Action:
    return Action.bid(Contract.SPADES if high is None else Contract(int(high) + 1))


def observe(view: DealView) -> Observations:
    """Read the other seats' decisions and card-play clues from a seat's view."""
    if view.seat is None:
        raise ValueError("inference needs a seat's view, not the public view")
    me = view.seat
    decisions: list[Decision] = []
    high: Contract | None = None
    auction = True
    answers: list[bool] = []
    for event in view.history:
        kind, seat, action = event.kind, event.seat, event.action
        if kind is Kind.PLAY:
            break
        if kind is Kind.DISCARD:
            auction = False
            continue
        if action is None:
            continue
        if auction and kind in (Kind.BID, Kind.PASS):
            offered = _next_bid(high)
            if kind is Kind.BID:
                high = action.contract
            if seat != me:
                decisions.append(Decision(seat, "bid", action, bid=offered))
        elif kind in (Kind.TRUMP, Kind.SURRENDER):
            if seat != me:
                decisions.append(Decision(seat, "trump", action, allowed=allowed_trumps(high)))
        elif kind in (Kind.WHIST, Kind.PASS) and view.contract is not None:
            alone = len(answers) == 1 and not answers[0]
            answers.append(kind is Kind.WHIST)
            if seat != me:
                decisions.append(Decision(seat, "whist", action, alone=alone, contract=view.contract))
    played = [0, 0, 0]
    clues: list[CardClue] = []
    trump = view.contract.trump_suit if view.contract is not None else None
    tricks = [t.plays for t in view.completed_tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    pending: list[tuple[int, int, int]] = []  # (seat, card, lower) in order of play
    for plays in tricks:
        lead = plays[0][1].suit
        win = plays[0][1].index
        for seat, card in plays[1:]:
            c = card.index
            beats = (c >> 3 == win >> 3 and c > win) or (trump is not None and c >> 3 == trump != win >> 3)
            if not beats and seat != me:
                if c >> 3 == lead:  # followed without taking the lead: lower cards of the suit
                    pending.append((seat, c, SUIT_MASKS[lead] & ((1 << c) - 1)))
                elif c >> 3 != trump:  # discarded: lower side cards
                    rank = c & 7
                    lower = sum(((1 << rank) - 1) << (8 * s) for s in range(4) if s != trump)
                    pending.append((seat, c, lower))
            if beats:
                win = c
        for seat, card in plays:
            played[seat] |= card.bit
    # the cards each seat played from each clue on (its hand at that moment, less hidden cards)
    for seat, c, lower in pending:
        later = 0
        seen = False
        for plays in tricks:
            for s, card in plays:
                if card.index == c:
                    seen = True
                if seen and s == seat:
                    later |= card.bit
        clues.append(CardClue(seat, lower, later))
    jack: list[int] = []
    if view.first_deal and view.first_bidder is not None:
        jack.append(view.first_bidder)
    all_passed = view.declarer is not None and high is None
    if all_passed and (view.first_deal or view.rules.all_pass_declarer == "spade-jack"):
        assert view.declarer is not None
        jack.append(view.declarer)
    return Observations(
        me,
        view.declarer,
        (played[0], played[1], played[2]),
        tuple(decisions),
        tuple(clues),
        tuple(jack),
        taken=view.declarer is not None,
        declarer_extra=view.discard.mask if view.discard is not None else 0,
    )


JACK, SEVEN = 1 << JACK_OF_SPADES, 1 << SEVEN_OF_SPADES
RULE_PENALTY = -30.0
"""Log-likelihood of a world the rules exclude (R2.1, R3.4): all but impossible, yet never
zero, so that a view no sampled world explains still has weights."""


def _rules_allow(obs: Observations, world: World, hands: list[int]) -> bool:
    """Whether each seat of ``obs.jack_seats`` was dealt J♠, or 7♠ with J♠ in the prikup."""
    twelve = 0
    if obs.taken and obs.declarer is not None:
        twelve = hands[obs.declarer] | world[3] | obs.declarer_extra
    for seat in obs.jack_seats:
        if not obs.taken:
            ok = bool(world[seat] & JACK or (world[seat] & SEVEN and world[3] & JACK))
        elif seat == obs.declarer:
            ok = bool(twelve & JACK)  # J♠ was in its hand or in the prikup it took
        else:
            ok = bool(hands[seat] & JACK or (hands[seat] & SEVEN and twelve & JACK))
        if not ok:
            return False
    return True


def _log_choice(prefs: dict[Action, float], chosen: Action, model: OpponentModel) -> float:
    """Log-probability of ``chosen`` under the softened preferences."""
    if chosen not in prefs:
        return math.log(model.noise / (len(prefs) + 1))
    top = max(prefs.values())
    exps = {a: math.exp((v - top) / model.temperature) for a, v in prefs.items()}
    p = exps[chosen] / sum(exps.values())
    return math.log((1 - model.noise) * p + model.noise / len(prefs))


@dataclass(frozen=True, slots=True, eq=False)
class Evidence:
    """What a world says of the other seats' actions, before any opponent model: whether
    the rules allow it (R2.1, R3.4), each decision's preferences with the choice made, and
    how many card-play clues it breaks. :func:`score` prices it under a model, so many
    models can be tried on the same worlds (``experiments/opponent_model_fit.py``). Its
    preferences are dictionaries: it compares by identity and is not hashed."""

    allowed: bool
    choices: tuple[tuple[dict[Action, float], Action], ...]
    slips: int


def evidence(obs: Observations, world: World) -> Evidence:
    """The evidence of ``world`` for the observed actions."""
    hands = [world[s] | obs.played_by[s] for s in range(3)]
    choices: list[tuple[dict[Action, float], Action]] = []
    for d in obs.decisions:
        hand = hands[d.seat]
        if d.kind == "bid":
            assert d.bid is not None
            prefs = bid_preferences(hand, d.bid)
            if d.seat == obs.declarer:
                # its final ten cards already hold the prikup's gain
                prefs[d.bid] -= PRIKUP_VALUE
        elif d.kind == "whist":
            assert d.contract is not None
            prefs = whist_preferences(hand, d.contract, d.alone)
        else:
            prefs = trump_preferences(hand, list(d.allowed), True)
        choices.append((prefs, d.chosen))
    slips = sum(1 for clue in obs.clues if (world[clue.seat] | clue.later) & clue.lower)
    return Evidence(_rules_allow(obs, world, hands), tuple(choices), slips)


def score(ev: Evidence, model: OpponentModel = DEFAULT_MODEL) -> float:
    """Log-probability (up to a constant) of the evidence under ``model``."""
    total = 0.0 if ev.allowed else RULE_PENALTY
    for prefs, chosen in ev.choices:
        total += _log_choice(prefs, chosen, model)
    slip = math.log(model.play_slip)
    for _ in range(ev.slips):
        total += slip
    return total


def log_likelihood(obs: Observations, world: World, model: OpponentModel = DEFAULT_MODEL) -> float:
    """Log-probability (up to a constant) that the other seats acted as observed if the
    hidden cards lie as in ``world``."""
    return score(evidence(obs, world), model)


def weighted_worlds(
    view: DealView, n: int, rng: random.Random, model: OpponentModel = DEFAULT_MODEL
) -> list[tuple[World, float]]:
    """``n`` worlds consistent with the view, drawn as pimc draws them, each with its
    normalised importance weight (the likelihood of what the other seats did)."""
    know = Knowledge.from_view(view)
    obs = observe(view)
    worlds = [know.sample(rng) for _ in range(n)]
    logs = [log_likelihood(obs, w, model) for w in worlds]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = sum(weights)
    return [(w, x / total) for w, x in zip(worlds, weights, strict=True)]


def marginals(weighted: list[tuple[World, float]]) -> list[list[float]]:
    """Per card (0–31), the probability of each place (seats 0–2, talon) under the
    weighted worlds."""
    out = [[0.0, 0.0, 0.0, 0.0] for _ in range(32)]
    for world, weight in weighted:
        for place in range(4):
            m = world[place]
            while m:
                low = m & -m
                out[low.bit_length() - 1][place] += weight
                m ^= low
    return out


@dataclass(frozen=True, slots=True)
class InferenceSampler:
    """A pimc world sampler: draws ``oversample`` times as many consistent worlds as asked
    (at least ``minimum``), weights them by :func:`log_likelihood`, and returns ``n`` by
    systematic resampling (equal weights, so pimc's averages need no change)."""

    model: OpponentModel = DEFAULT_MODEL
    oversample: int = 8
    minimum: int = 64

    def __call__(self, view: DealView, n: int, rng: random.Random) -> list[World]:
        pool = weighted_worlds(view, max(n * self.oversample, self.minimum), rng, self.model)
        step = 1.0 / n
        u = rng.random() * step
        out: list[World] = []
        acc = 0.0
        i = -1
        for k in range(n):
            target = u + k * step
            while acc <= target and i + 1 < len(pool):
                i += 1
                acc += pool[i][1]
            out.append(pool[i][0])
        return out


INFER_LEVELS: dict[int, Level] = {
    # about pimc:3's time per decision: weighting 8 draws per world costs about as much
    # as solving the worlds it saves
    3: Level(play=10, bid=8, discard=6, discards_tried=6, whist=6),
    # pimc:3's counts: 1.6 times level 3's worlds for a card
    4: Level(play=16, bid=12, discard=8, discards_tried=8, whist=8),
    # twice level 4's worlds at least, then as many more as pimc:5's time budgets allow
    5: Level(play=32, bid=24, discard=12, discards_tried=12, whist=16, timed=True),
}
"""The worlds each sampling level of ``infer`` draws (level 5 by time, as ``pimc:5``).
Levels 1 and 2 sample nothing: see :data:`SIMPLE_LEVELS`."""

SIMPLE_LEVELS: dict[int, str] = {
    1: "the heuristic with human-looking mistakes (paston.bots.noisy)",
    2: "the heuristic",
}
"""The levels of ``infer`` that play by rules instead of sampling worlds."""


def simple_player(level: int, seed: int | None) -> NoisyHeuristicPlayer | HeuristicPlayer | None:
    """The rule-based player behind ``infer:1`` and ``infer:2`` (else ``None``)."""
    if level == 1:
        return NoisyHeuristicPlayer(seed)
    if level == 2:
        return HeuristicPlayer(seed)
    return None


class InferPlayer(PimcPlayer):
    """``pimc`` valuing worlds drawn by :class:`InferenceSampler` (registered as ``infer``);
    levels 1 and 2 play as :func:`simple_player` instead (their :meth:`options` is its
    choice alone, valued 0 from no worlds).

    >>> import random
    >>> from paston.deal import Deal
    >>> deal = Deal.random(random.Random(3), dealer=0)
    >>> InferPlayer(seed=1, level=1).choose(deal.view(deal.to_move)) in deal.legal_actions()
    True
    """

    name = "infer"

    def __init__(
        self,
        seed: int | None = None,
        *,
        level: int = DEFAULT_LEVEL,
        solver: Solver | None = None,
        time_budget: float | None = None,
        model: OpponentModel = DEFAULT_MODEL,
        threads: int | None = None,
    ) -> None:
        super().__init__(
            seed,
            level=level,
            solver=solver,
            time_budget=time_budget,
            sampler=InferenceSampler(model),
            threads=threads,
            settings=INFER_LEVELS.get(level),
        )
        self.simple = simple_player(level, seed)
        """The rule-based player of levels 1 and 2 (``None`` at the sampling levels)."""

    def options(self, view: DealView) -> Scored:
        """As :meth:`PimcPlayer.options`; at levels 1 and 2 the simple player's choice."""
        if self.simple is None:
            return super().options(view)
        if view.seat is None or view.seat != view.to_move or not view.legal_actions:
            raise IllegalActionError("R0.1", "not-your-turn", f"seat {view.seat} has nothing to do now")
        return Scored((Option(self.simple.choose(view), 0.0, None),), 0)
