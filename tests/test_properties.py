"""Property tests over random games (hypothesis).

Every game is driven through the engine *and* through :class:`RefDeal`, a small,
deliberately naive reference model of RULES.md written here from the rules text
(it shares no logic with the engine: it works on card codes and Python sets).
At every step the engine must agree with the model on whose turn it is, the hands,
the legal actions (checked against a brute force over every action id, both with
``is_legal`` and by trying each action on a clone), and in the end on the result,
the scores, the totals, the next dealer and the winners.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Iterator
from enum import Enum
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import DEAL_GROUPS, play_deal_out, play_out, round_trip, weighted_choice
from paston import record
from paston.actions import NUM_ACTION_IDS, Action, Kind
from paston.cards import ALL_CARDS, Card, CardSet
from paston.deal import Deal, Phase
from paston.errors import IllegalActionError, ParseError
from paston.match import Match
from paston.rules import Rules

# --------------------------------------------------------------------------------------
# Every action id the engine knows (unused ids raise ParseError).


def _all_actions() -> tuple[Action, ...]:
    out = []
    for i in range(NUM_ACTION_IDS):
        try:
            out.append(Action.from_id(i))
        except ParseError:
            continue
    return tuple(out)


ALL_ACTIONS = _all_actions()
FULL_MASK = (1 << 32) - 1
ALL_CODES = frozenset(str(c) for c in ALL_CARDS)

# --------------------------------------------------------------------------------------
# The reference model (RULES.md R1–R8), on card codes such as "TH".

RANKS = "789TJQKA"
SUITS = "SCDH"
LADDER = ("spades", "clubs", "diamonds", "hearts", "best-spades")  # R3.1
MULT = (1, 2, 3, 4, 4)  # R7
SPADE_SEQ = frozenset({"7S", "8S", "9S", "TS", "JS", "QS"})  # R1.4


def suit_of(code: str) -> int:
    return SUITS.index(code[1])


def rank_of(code: str) -> int:
    return RANKS.index(code[0])


def trump_suit_of(level: int) -> int:
    return 0 if level == 4 else level  # R4.2: best spades is played with spades as trump


def action_key(a: Action) -> tuple[Any, ...]:
    """An engine action as a plain key: ("bid", "clubs"), ("play", "AH"), ("discard", {..})."""
    d = a.to_record(0)
    t = d["type"]
    if t in ("bid", "trump"):
        return (t, d["value"])
    if t == "play":
        return (t, d["card"])
    if t == "discard":
        return (t, frozenset(d["cards"]))
    return (t,)


class RefDeal:
    """One deal, straight from RULES.md."""

    def __init__(self, deck: list[str], dealer: int, rules: Rules, first_deal: bool) -> None:
        assert len(deck) == 32 and set(deck) == ALL_CODES and deck[31] != "7S"  # R1.2
        self.rules = rules
        self.dealer = dealer
        self.first_deal = first_deal
        left, mid = (dealer + 1) % 3, (dealer + 2) % 3
        dealt: dict[int, list[str]] = {0: [], 1: [], 2: []}
        # R1.3: 2 each (L, M, D), 2 to the prikup, then four rounds of 2 each.
        dealt[left] += deck[0:2]
        dealt[mid] += deck[2:4]
        dealt[dealer] += deck[4:6]
        self.prikup = frozenset(deck[6:8])
        for base in (8, 14, 20, 26):
            dealt[left] += deck[base : base + 2]
            dealt[mid] += deck[base + 2 : base + 4]
            dealt[dealer] += deck[base + 4 : base + 6]
        self.dealt = [frozenset(dealt[s]) for s in range(3)]
        self.hands = [set(h) for h in self.dealt]
        self.redeal: str | None = None
        self.first_bidder: int | None = None
        self.phase = "auction"
        self.to_move: int | None = None
        self.passed: set[int] = set()
        self.high: int | None = None
        self.high_bidder: int | None = None
        self.declarer: int | None = None
        self.bid: int | None = None  # None after an all-pass auction
        self.contract: int | None = None
        self.discard: frozenset[str] = frozenset()
        self.answers: list[tuple[int, bool]] = []
        self.defenders: set[int] = set()
        self.active: list[int] = []
        self.trick: list[tuple[int, str]] = []
        self.done: list[tuple[int, list[tuple[int, str]], int]] = []
        self.tricks = [0, 0, 0]
        self.played: set[str] = set()
        self.result: dict[str, Any] | None = None
        if any(h >= SPADE_SEQ and not ({"KS", "AS"} & h) for h in self.dealt):
            self._void("spade-sequence")  # R1.4
            return
        if first_deal and {"JS", "7S"} <= self.prikup:
            self._void("jack-seven-prikup")  # R1.5
            return
        if first_deal:
            self.first_bidder = self.spade_jack_holder()  # R2.1
            assert self.first_bidder is not None
        else:
            self.first_bidder = left  # R2.3
        self.to_move = self.first_bidder

    def spade_jack_holder(self) -> int | None:
        for card in ("JS", "7S"):
            for s in range(3):
                if card in self.dealt[s]:
                    return s
        return None

    def _void(self, reason: str) -> None:
        self.redeal = reason
        self.phase = "redeal"
        self.to_move = None

    @property
    def over(self) -> bool:
        return self.phase in ("over", "redeal")

    # --- legality -------------------------------------------------------------------
    def legal(self) -> set[tuple[Any, ...]]:
        p = self.phase
        if p == "auction":
            nxt = 0 if self.high is None else self.high + 1  # R3.2: spades first, then the next step
            return {("pass",), ("bid", LADDER[nxt])}
        if p == "discard":
            assert self.declarer is not None
            return {("discard", frozenset(pair)) for pair in combinations(self.hands[self.declarer], 2)}
        if p == "trump":
            if self.bid is None:
                levels = [0, 1, 2, 3]  # R4.2: after all pass, any ordinary suit
            elif self.bid == 4:
                levels = [4]  # best spades only if bid, and then only it
            else:
                levels = list(range(self.bid, 4))
            return {("trump", LADDER[x]) for x in levels} | {("surrender",)}  # R4.3
        if p == "defence":
            return {("whist",), ("pass",)}
        if p == "play":
            assert self.to_move is not None and self.contract is not None
            hand = self.hands[self.to_move]
            if self.trick:
                lead = suit_of(self.trick[0][1])
                follow = {c for c in hand if suit_of(c) == lead}
                if follow:
                    return {("play", c) for c in follow}
                trumps = {c for c in hand if suit_of(c) == trump_suit_of(self.contract)}
                if trumps:
                    return {("play", c) for c in trumps}
            return {("play", c) for c in hand}
        return set()

    def expected_rules(self) -> set[str]:
        """Rules that an illegal action in this phase may cite."""
        return {
            "auction": {"R3.2", "R3.3"},
            "discard": {"R4.1"},
            "trump": {"R4.2", "R4.3"},
            "defence": {"R5.1", "R5.2"},
            "play": {"R6.1", "R6.2"},
            "over": {"R5.3", "R6.3", "R4.3", "R8.3"},
            "redeal": {"R1.4", "R1.5", "R1.6", "R3.4"},
        }[self.phase]

    # --- applying -------------------------------------------------------------------
    def apply(self, key: tuple[Any, ...], seat: int) -> None:
        assert seat == self.to_move, (seat, self.to_move)
        assert key in self.legal(), (key, self.phase)
        p = self.phase
        if p == "auction":
            if key[0] == "pass":
                self.passed.add(seat)
            else:
                self.high = LADDER.index(key[1])
                self.high_bidder = seat
                if self.high == 4:
                    self._declare(seat, 4)  # R3.3 (a)
                    return
            still_in = [s for s in range(3) if s not in self.passed]
            if not still_in:
                self._all_pass()  # R3.3 (c)
                return
            if len(still_in) == 1 and self.high is not None:
                assert self.high_bidder == still_in[0]
                self._declare(still_in[0], self.high)  # R3.3 (b)
                return
            nxt = (seat + 1) % 3
            while nxt in self.passed:
                nxt = (nxt + 1) % 3
            self.to_move = nxt
        elif p == "discard":
            self.discard = key[1]
            self.hands[seat] -= key[1]
            self.phase = "trump"
        elif p == "trump":
            if key[0] == "surrender":  # R7.7
                bonus = self.rules.surrender_bonus
                scores = [bonus, bonus, bonus]
                scores[seat] = -10
                self._finish("surrender", None, [0, 0, 0], scores)
                return
            self.contract = LADDER.index(key[1])
            self.phase = "defence"
            self.to_move = (seat + 1) % 3  # R5.1: left-hand opponent first
        elif p == "defence":
            self.answers.append((seat, key[0] == "whist"))
            if len(self.answers) == 1:
                self.to_move = (seat + 1) % 3
                return
            assert self.declarer is not None and self.contract is not None
            self.defenders = {s for s, w in self.answers if w}
            if not self.defenders:  # R5.3 / R7.6
                scores = [0, 0, 0]
                scores[self.declarer] = 10 if self.contract == 4 else 10 * MULT[self.contract]
                self._finish("uncontested", self.contract, [0, 0, 0], scores)
                return
            self.active = sorted({self.declarer} | self.defenders)
            self.phase = "play"
            self.to_move = self.declarer  # R6.1
        elif p == "play":
            card = key[1]
            self.hands[seat].remove(card)
            self.played.add(card)
            self.trick.append((seat, card))
            if len(self.trick) < len(self.active):
                nxt = (seat + 1) % 3
                while nxt not in self.active:
                    nxt = (nxt + 1) % 3
                self.to_move = nxt
                return
            winner = self.trick_winner(self.trick)
            self.tricks[winner] += 1
            self.done.append((self.trick[0][0], self.trick, winner))
            self.trick = []
            self.to_move = winner  # R6.3
            if len(self.done) == 10:
                self._score_played()
        else:  # pragma: no cover
            raise AssertionError(p)

    def trick_winner(self, trick: list[tuple[int, str]]) -> int:
        assert self.contract is not None
        trump = trump_suit_of(self.contract)
        trumps = [(rank_of(c), s) for s, c in trick if suit_of(c) == trump]
        if trumps:
            return max(trumps)[1]
        lead = suit_of(trick[0][1])
        return max((rank_of(c), s) for s, c in trick if suit_of(c) == lead)[1]

    def _all_pass(self) -> None:
        # R3.4
        if self.rules.all_pass_declarer == "first-bidder" and not self.first_deal:
            assert self.first_bidder is not None
            self._declare(self.first_bidder, None)
            return
        holder = self.spade_jack_holder()
        if holder is None:
            self._void("no-jack-no-seven")
            return
        self._declare(holder, None)

    def _declare(self, seat: int, bid: int | None) -> None:
        self.declarer = seat
        self.bid = bid
        self.hands[seat] |= self.prikup  # R4.1
        self.phase = "discard"
        self.to_move = seat

    def _score_played(self) -> None:
        assert self.declarer is not None and self.contract is not None
        c = self.contract
        m = MULT[c]
        d = self.declarer
        scores = [0, 0, 0]
        if self.tricks[d] >= 6:
            scores[d] = 10 if c == 4 else 10 * m  # R7.1, R7.5
        else:
            scores[d] = -10 * m
        lone = len(self.defenders) == 1
        for s in self.defenders:
            t = self.tricks[s]
            if lone:
                quota = 4
                table = [-10, -9, -8, -7, 0] if self.rules.lone_defender == "graded" else [-10, -9, -9, -9, 0]
            else:
                quota = 2
                table = [-10, -9, 0]
            scores[s] = (table[t] if t <= quota else 10 * (t - quota)) * m  # R7.2, R7.3
        self._finish("played", c, list(self.tricks), scores)

    def _finish(self, outcome: str, contract: int | None, tricks: list[int], scores: list[int]) -> None:
        self.phase = "over"
        self.to_move = None
        self.result = {
            "declarer": self.declarer,
            "outcome": outcome,
            "contract": None if contract is None else LADDER[contract],
            "defenders": set(self.defenders) if outcome == "played" else set(),
            "tricks": tricks,
            "scores": scores,
        }


class RefGame:
    """Dealer rotation, totals and the end of the game (R1.6, R2, R8)."""

    def __init__(self, first_dealer: int, rules: Rules) -> None:
        self.rules = rules
        self.next_dealer = first_dealer
        self.completed = 0
        self.totals = [0, 0, 0]
        self.winners: list[int] = []
        self.deals: list[RefDeal] = []

    def new_deal(self, deck: list[str]) -> RefDeal:
        assert not self.winners
        ref = RefDeal(deck, self.next_dealer, self.rules, first_deal=self.completed == 0)
        self.deals.append(ref)
        if ref.over:
            self.account(ref)
        return ref

    def account(self, ref: RefDeal) -> None:
        assert ref.over
        if ref.redeal is not None:
            return  # R1.6: same dealer, does not count
        assert ref.result is not None
        target = self.rules.target
        self.totals = [t + s for t, s in zip(self.totals, ref.result["scores"], strict=True)]
        self.totals = [0 if t == -target else t for t in self.totals]  # R8.2
        if self.completed == 0 and self.rules.second_dealer == "first-bidder":
            assert ref.first_bidder is not None
            self.next_dealer = ref.first_bidder  # R2.2
        else:
            self.next_dealer = (ref.dealer + 1) % 3  # R2.2 rotate / R2.3
        self.completed += 1
        reached = [t for t in self.totals if t >= target]
        if reached:
            best = max(reached)
            self.winners = [s for s in range(3) if self.totals[s] == best]  # R8.3


# --------------------------------------------------------------------------------------
# Driving games.

PHASE_NAMES = {
    Phase.AUCTION: "auction",
    Phase.DISCARD: "discard",
    Phase.TRUMP: "trump",
    Phase.DEFENCE: "defence",
    Phase.PLAY: "play",
    Phase.OVER: "over",
    Phase.REDEAL: "redeal",
}


def codes(mask_or_set: int | CardSet) -> set[str]:
    cs = CardSet(mask_or_set) if isinstance(mask_or_set, int) else mask_or_set
    return {str(c) for c in cs}


def agree(deal: Deal, ref: RefDeal) -> None:
    """The engine's deal and the reference model are in the same state."""
    assert PHASE_NAMES[deal.phase] == ref.phase
    assert deal.to_move == ref.to_move
    assert deal.redeal == ref.redeal
    assert deal.first_bidder == ref.first_bidder
    assert deal.declarer == ref.declarer
    for s in range(3):
        assert codes(deal.hand(s)) == ref.hands[s], f"hand of seat {s}"
        assert codes(deal.dealt[s]) == set(ref.dealt[s])
    assert codes(deal.prikup) == set(ref.prikup)
    assert codes(deal.discard) == set(ref.discard)
    assert codes(deal.played_mask) == ref.played
    assert list(deal.tricks) == ref.tricks
    assert {action_key(a) for a in deal.legal_actions()} == ref.legal()
    if ref.result is None:
        assert deal.result is None
    else:
        r = deal.result
        assert r is not None
        got = {
            "declarer": r.declarer,
            "outcome": r.outcome,
            "contract": None if r.contract is None else r.contract.name_in_record,
            "defenders": set(r.defenders),
            "tricks": list(r.tricks),
            "scores": list(r.scores),
        }
        assert got == ref.result


StepHook = Callable[[Match, Deal, RefDeal], None]


def run_game(
    seed: int,
    first_dealer: int,
    rules: Rules,
    *,
    max_deals: int = 3,
    max_actions: int | None = None,
    before: StepHook | None = None,
    after: StepHook | None = None,
    on_deal_end: Callable[[Match, Deal, RefDeal], None] | None = None,
) -> tuple[Match, RefGame]:
    """Play a random game (up to ``max_deals`` completed deals) in lockstep with the model."""
    rng = random.Random(seed ^ 0x5A5A5A)
    match = Match(first_dealer=first_dealer, rng=random.Random(seed), rules=rules)
    game = RefGame(first_dealer, rules)

    def sync() -> None:
        while len(game.deals) < len(match.deals):
            deal = match.deals[len(game.deals)]
            ref = game.new_deal([str(ALL_CARDS[c]) for c in deal.deck])
            assert deal.dealer == ref.dealer, "dealer (R1.6, R2)"
            assert deal.first_deal == ref.first_deal
            agree(deal, ref)
            if ref.over and on_deal_end is not None:
                on_deal_end(match, deal, ref)
        assert list(match.totals) == game.totals
        assert list(match.winners) == game.winners
        assert match.is_over == bool(game.winners)

    sync()
    n = 0
    while not match.is_over and match.completed_deals < max_deals:
        if max_actions is not None and n >= max_actions:
            break
        deal = match.deal
        assert deal is not None
        ref = game.deals[-1]
        agree(deal, ref)
        if before is not None:
            before(match, deal, ref)
        action = weighted_choice(rng, deal)
        seat = deal.to_move
        assert seat is not None
        key = action_key(action)
        match.apply(action, seat)
        n += 1
        ref.apply(key, seat)
        agree(deal, ref)
        if after is not None:
            after(match, deal, ref)
        if ref.over:
            game.account(ref)
            if on_deal_end is not None:
                on_deal_end(match, deal, ref)
        sync()
    return match, game


# --------------------------------------------------------------------------------------
# Strategies.

rules_st = st.builds(
    Rules,
    lone_defender=st.sampled_from(["graded", "flat"]),
    surrender_bonus=st.sampled_from([2, 0]),
    all_pass_declarer=st.sampled_from(["spade-jack", "first-bidder"]),
    second_dealer=st.sampled_from(["first-bidder", "rotate"]),
    target=st.sampled_from([10, 20, 40, 121]),
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
dealers = st.integers(min_value=0, max_value=2)

CHEAP = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------------------
# The properties.


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_engine_agrees_with_reference_model(seed: int, first_dealer: int, rules: Rules) -> None:
    """Whole games: every state, result, total, dealer and winner as RULES.md says."""
    match, game = run_game(seed, first_dealer, rules, max_deals=6)
    assert list(match.totals) == game.totals
    assert list(match.winners) == game.winners


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_cards_are_conserved(seed: int, first_dealer: int, rules: Rules) -> None:
    """R0.2/R1.3/R4.1: hands + untaken prikup + discard + played = the 32 cards, disjoint."""

    def check(match: Match, deal: Deal, ref: RefDeal) -> None:
        parts = [deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2), deal.discard.mask, deal.played_mask]
        if deal.declarer is None:
            parts.append(deal.prikup)
        else:
            assert deal.prikup & ~(deal.hand_mask(deal.declarer) | deal.discard.mask | deal.played_mask) == 0
        seen = 0
        for part in parts:
            assert seen & part == 0, "a card is in two places"
            seen |= part
        assert seen == FULL_MASK, "a card went missing"
        assert sum(p.bit_count() for p in parts) == 32
        # hand sizes: 10 each, declarer 12 between taking the prikup and discarding
        sizes = [deal.hand_mask(s).bit_count() for s in range(3)]
        n_played = [0, 0, 0]
        for t in deal.completed_tricks:
            for s, _c in t.plays:
                n_played[s] += 1
        for s, _c in deal.current_trick:
            n_played[s] += 1
        for s in range(3):
            extra = 2 if s == deal.declarer and deal.phase is Phase.DISCARD else 0
            assert sizes[s] + n_played[s] == 10 + extra

    run_game(seed, first_dealer, rules, max_deals=3, before=check, after=check)


@SLOW
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_legal_actions_equal_brute_force(seed: int, first_dealer: int, rules: Rules) -> None:
    """legal_actions() == {a : is_legal(a)} == {a : apply on a clone succeeds} == the model's."""

    def check(match: Match, deal: Deal, ref: RefDeal) -> None:
        legal = deal.legal_actions()
        assert len(set(legal)) == len(legal), "duplicates in legal_actions()"
        by_is_legal = {a for a in ALL_ACTIONS if deal.is_legal(a)}
        assert set(legal) == by_is_legal
        by_trying = set()
        for a in ALL_ACTIONS:
            c = deal.clone()
            try:
                c.apply(a)
            except IllegalActionError:
                continue
            by_trying.add(a)
        assert by_trying == by_is_legal
        assert {action_key(a) for a in legal} == ref.legal()
        # the seat's own view offers exactly these; the others and the public none
        for s in range(3):
            v = deal.view(s)
            assert set(v.legal_actions) == (set(legal) if s == deal.to_move else set())
        assert deal.public_view().legal_actions == ()
        if deal.phase is Phase.PLAY:
            assert codes(deal.legal_play_mask()) == {k[1] for k in ref.legal()}

    def over(match: Match, deal: Deal, ref: RefDeal) -> None:
        assert deal.legal_actions() == ()
        assert not any(deal.is_legal(a) for a in ALL_ACTIONS)

    run_game(seed, first_dealer, rules, max_deals=2, before=check, on_deal_end=over)


RULE_PREFIX = re.compile(r"^R\d+(\.\d+)?: ")


def snapshot(deal: Deal) -> tuple[Any, ...]:
    return (
        deal.phase,
        deal.to_move,
        deal.events,
        tuple(deal.hand_mask(s) for s in range(3)),
        deal.tricks,
        deal.completed_tricks,
        deal.current_trick,
        deal.legal_actions(),
        deal.discard,
        deal.declarer,
        deal.contract,
        deal.high_bid,
        deal.in_auction,
        deal.whist_answers,
        deal.defenders,
        deal.result,
        deal.trump_suit,
        deal.played_mask,
        deal.active,
        deal.is_over,
        tuple(deal.view(s) for s in range(3)),
        deal.public_view(),
    )


def check_illegal(deal: Deal, action: Action, seat: int | None, allowed_rules: set[str]) -> None:
    before = snapshot(deal)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(action, seat)
    err = info.value
    assert RULE_PREFIX.match(str(err)), str(err)
    assert str(err).startswith(err.rule + ": ")
    assert err.rule in allowed_rules, (str(err), allowed_rules)
    assert snapshot(deal) == before, f"state changed by the illegal {action}"
    assert not deal.is_legal(action) or seat is not None


@SLOW
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_illegal_actions_raise_and_change_nothing(seed: int, first_dealer: int, rules: Rules) -> None:
    rng = random.Random(seed)

    def check(match: Match, deal: Deal, ref: RefDeal) -> None:
        legal = set(deal.legal_actions())
        illegal = [a for a in ALL_ACTIONS if a not in legal]
        small = [a for a in illegal if a.id < 64]
        sample = rng.sample(small, min(10, len(small))) + rng.sample(illegal, 4)
        for i, a in enumerate(sample):
            check_illegal(deal, a, None if i % 2 else deal.to_move, ref.expected_rules())
        # a legal action by the wrong seat
        wrong = rng.choice([s for s in range(3) if s != deal.to_move])
        check_illegal(deal, rng.choice(sorted(legal)), wrong, ref.expected_rules())
        # the match refuses the same and keeps its totals
        totals = match.totals
        n_deals = len(match.deals)
        with pytest.raises(IllegalActionError):
            match.apply(illegal[0])
        assert (match.totals, len(match.deals)) == (totals, n_deals)

    def over(match: Match, deal: Deal, ref: RefDeal) -> None:
        for a in (ALL_ACTIONS[0], Action.parse("pass"), Action.parse("whist")):
            check_illegal(deal, a, None, ref.expected_rules())

    run_game(seed, first_dealer, rules, max_deals=2, before=check, on_deal_end=over)


def cards_in(obj: object, path: str = "view") -> Iterator[tuple[str, Card]]:
    """Every Card reachable from a view object, with where it was found."""
    if isinstance(obj, Card):
        yield path, obj
    elif isinstance(obj, CardSet):
        for c in obj:
            yield path, c
    elif isinstance(obj, Action):
        for c in obj.cards:
            yield path, c
    elif obj is None or isinstance(obj, str | int | float | bool | Enum):
        return
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from cards_in(getattr(obj, f.name), f"{path}.{f.name}")
    elif isinstance(obj, tuple | list | set | frozenset):
        for i, x in enumerate(obj):
            yield from cards_in(x, f"{path}[{i}]")
    elif isinstance(obj, dict):
        for k, x in obj.items():
            yield from cards_in(k, f"{path}<key>")
            yield from cards_in(x, f"{path}[{k!r}]")
    else:
        raise AssertionError(f"unexpected object of type {type(obj).__name__} at {path}")


def check_views(match: Match, deal: Deal, ref: RefDeal) -> None:
    played = codes(deal.played_mask)
    assert played == ref.played
    for seat in range(3):
        v = deal.view(seat)
        assert v.seat == seat
        assert codes(v.hand) == ref.hands[seat], "a view's hand is the seat's current hand"
        is_declarer = ref.declarer == seat
        allowed = set(ref.dealt[seat]) | played
        if is_declarer:
            assert v.prikup is not None and codes(v.prikup) == set(ref.prikup)
            assert v.discard is not None and codes(v.discard) == set(ref.discard)
            allowed |= set(ref.prikup) | set(ref.discard)
        else:
            assert v.prikup is None, "only the declarer sees the prikup (R4.1)"
            assert v.discard is None, "only the declarer sees the discard (R4.1)"
        for where, card in cards_in(v, f"view({seat})"):
            assert str(card) in allowed, f"{where} reveals {card} to seat {seat}"
        assert codes(v.known_cards()) <= allowed
        # the history: a discard is public as an act, its cards only for the declarer
        assert len(v.history) == len(deal.events)
        for ev, real in zip(v.history, deal.events, strict=True):
            assert ev.seat == real.seat and ev.kind is real.action.kind
            if real.action.kind is Kind.DISCARD and not is_declarer:
                assert ev.action is None
            else:
                assert ev.action is real.action
        assert v.hand_sizes == tuple(len(h) for h in ref.hands)
    pv = deal.public_view()
    assert pv.seat is None
    assert len(pv.hand) == 0 and pv.prikup is None and pv.discard is None and pv.legal_actions == ()
    for where, card in cards_in(pv, "public"):
        assert str(card) in played, f"{where} reveals {card} to the public"
    for ev in pv.history:
        if ev.kind is Kind.DISCARD:
            assert ev.action is None
    # the match's views are the current deal's, with the totals
    if match.deal is deal:
        for seat in (0, 1, 2, None):
            mv = match.view(seat)
            assert mv.totals == match.totals
            assert mv == (
                deal.view(seat, match.totals) if seat is not None else deal.public_view(match.totals)
            )


@FAST
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_views_reveal_nothing_hidden(seed: int, first_dealer: int, rules: Rules) -> None:
    run_game(seed, first_dealer, rules, max_deals=3, before=check_views, after=check_views)


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st)
def test_played_deals_have_ten_tricks(seed: int, first_dealer: int, rules: Rules) -> None:
    """R5.2/R6.1/R6.3: 10 tricks; declarer + defenders = 10; the passer takes none."""
    seen_outcomes: set[str] = set()

    def end(match: Match, deal: Deal, ref: RefDeal) -> None:
        r = deal.result
        if deal.redeal is not None:
            assert r is None and deal.completed_tricks == () and deal.tricks == (0, 0, 0)
            return
        assert r is not None
        seen_outcomes.add(r.outcome)
        if r.outcome != "played":
            assert deal.completed_tricks == () and r.tricks == (0, 0, 0) and deal.tricks == (0, 0, 0)
            assert r.defenders == ()
            return
        tricks = deal.completed_tricks
        assert len(tricks) == 10
        assert sum(r.tricks) == 10 == sum(deal.tricks)
        d = r.declarer
        active = {d, *r.defenders}
        assert len(r.defenders) in (1, 2) and d not in r.defenders
        assert r.tricks[d] + sum(r.tricks[s] for s in r.defenders) == 10
        for s in range(3):
            if s not in active:
                assert r.tricks[s] == 0, "the passer takes no tricks (R5.2)"
        leader = d  # R6.1
        all_cards: set[str] = set()
        counts = [0, 0, 0]
        for t in tricks:
            assert t.leader == leader
            assert len(t.plays) == len(active)
            assert {s for s, _c in t.plays} == active
            seat = leader
            for s, _c in t.plays:  # clockwise among the active seats
                assert s == seat
                seat = (seat + 1) % 3
                while seat not in active:
                    seat = (seat + 1) % 3
            assert t.winner == ref.trick_winner([(s, str(c)) for s, c in t.plays])
            counts[t.winner] += 1
            all_cards |= {str(c) for _s, c in t.plays}
            leader = t.winner
        assert len(all_cards) == 10 * len(active)
        assert tuple(counts) == r.tricks
        for s in range(3):
            if s not in active:
                # the passer's hand stays whole and face down
                assert codes(deal.hand(s)) == set(ref.dealt[s])
            else:
                assert len(deal.hand(s)) == 0

    run_game(seed, first_dealer, rules, max_deals=4, on_deal_end=end)


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st, data=st.data())
def test_records_round_trip(seed: int, first_dealer: int, rules: Rules, data: st.DataObject) -> None:
    """dumps(loads(dumps(m))) == dumps(m), also for games stopped at any point."""
    stop = data.draw(st.one_of(st.none(), st.integers(0, 120)), label="stop after actions")
    match, game = run_game(seed, first_dealer, rules, max_deals=100 if stop is None else 10, max_actions=stop)
    text = record.dumps(match)
    again = round_trip(match)
    assert again.totals == match.totals
    assert again.winners == match.winners
    assert list(again.totals) == game.totals
    assert list(again.winners) == game.winners
    assert len(again.deals) == len(match.deals)
    for a, b in zip(again.deals, match.deals, strict=True):
        assert a.deck == b.deck and a.dealer == b.dealer and a.events == b.events
        assert a.result == b.result and a.redeal == b.redeal and a.phase == b.phase
    obj = record.to_record(match)
    if not match.is_over:
        assert obj["winners"] == []
    last = obj["deals"][-1]
    if not match.deals[-1].is_over:
        assert "result" not in last and "totals" not in last
    # pretty-printed records read the same
    assert record.dumps(record.loads(record.dumps(match, indent=2))) == text
    # the replayed game continues exactly like the original
    if match.deal is not None:
        assert again.deal is not None
        assert again.legal_actions() == match.legal_actions()
        assert again.to_move == match.to_move


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st, data=st.data())
def test_clone_is_independent(seed: int, first_dealer: int, rules: Rules, data: st.DataObject) -> None:
    stop = data.draw(st.integers(0, 60), label="clone after actions")
    match, _game = run_game(seed, first_dealer, rules, max_deals=1, max_actions=stop)
    deal = match.deals[-1]
    original = snapshot(deal)
    clone = deal.clone()
    assert snapshot(clone) == original
    rng = random.Random(seed)
    play_deal_out(clone, rng)  # play the clone out
    assert snapshot(deal) == original, "playing the clone changed the original"
    if not deal.is_over:
        frozen = snapshot(clone)
        clone2 = deal.clone()
        play_deal_out(deal, rng)  # play the original out
        assert snapshot(clone) == frozen, "playing the original changed a clone"
        assert snapshot(clone2) == original, "playing the original changed a clone"


@CHEAP
@given(seed=seeds, first_dealer=dealers, rules=rules_st, data=st.data())
def test_match_clone_is_independent(seed: int, first_dealer: int, rules: Rules, data: st.DataObject) -> None:
    stop = data.draw(st.integers(0, 80), label="clone after actions")
    match, _game = run_game(seed, first_dealer, rules, max_deals=2, max_actions=stop)
    text = record.dumps(match)
    copy = match.clone()
    play_out(copy, random.Random(seed), max_actions=60)
    assert record.dumps(match) == text, "playing a Match clone changed the original"


def test_random_games_cover_every_outcome() -> None:
    """The properties above are only as good as the games they see: make sure random
    games reach every outcome, both defence shapes, best spades and an all-pass auction."""
    outcomes: set[str] = set()
    shapes: set[int] = set()
    contracts: set[str] = set()
    all_pass = False

    def end(match: Match, deal: Deal, ref: RefDeal) -> None:
        nonlocal all_pass
        if deal.result is None:
            return
        outcomes.add(deal.result.outcome)
        if deal.result.outcome == "played":
            shapes.add(len(deal.result.defenders))
        if deal.result.contract is not None:
            contracts.add(deal.result.contract.name_in_record)
        if ref.bid is None:
            all_pass = True

    for seed in range(40):
        run_game(seed, seed % 3, Rules(target=121), max_deals=5, on_deal_end=end)
    assert outcomes == {"played", "uncontested", "surrender"}
    assert shapes == {1, 2}
    assert "best-spades" in contracts
    assert all_pass


# --------------------------------------------------------------------------------------
# Crafted decks: the redeals and the all-pass declarer are rare in random games.

FORCES = ("none", "jack-seven-prikup", "jack-prikup", "seven-prikup", "spade-sequence")


@st.composite
def crafted_decks(draw: st.DrawFn) -> list[str]:
    deck = list(draw(st.permutations(sorted(ALL_CODES))))
    force = draw(st.sampled_from(FORCES))

    def put(card: str, pos: int) -> None:
        i = deck.index(card)
        deck[i], deck[pos] = deck[pos], deck[i]

    if force == "jack-seven-prikup":
        put("JS", 6)
        put("7S", 7)
    elif force == "jack-prikup":
        put("JS", 6)
        if deck[7] == "7S":
            put("7S", 0)
    elif force == "seven-prikup":
        put("7S", 7)
        if deck[6] == "JS":
            put("JS", 0)
    elif force == "spade-sequence":
        group = DEAL_GROUPS[draw(st.integers(0, 2))]  # the dealer's left, right, the dealer
        for card, pos in zip(("7S", "8S", "9S", "TS", "JS", "QS"), group, strict=False):
            put(card, pos)
        spare = [p for g in DEAL_GROUPS if g is not group for p in g]
        for high, pos in zip(("KS", "AS"), spare, strict=False):
            if deck.index(high) in group:
                put(high, pos)
    if deck[31] == "7S":
        deck[30], deck[31] = deck[31], deck[30]  # both go to the dealer: same hands
    return deck


def play_deal_in_lockstep(deal: Deal, ref: RefDeal, rng: random.Random, bid_prob: float) -> None:
    agree(deal, ref)
    while not deal.is_over:
        action = weighted_choice(rng, deal, bid_prob=bid_prob)
        seat = deal.to_move
        assert seat is not None
        deal.apply(action, seat)
        ref.apply(action_key(action), seat)
        agree(deal, ref)
        check_views(Match(first_dealer=0), deal, ref)
    assert ref.over


@CHEAP
@given(
    deck=crafted_decks(),
    dealer=dealers,
    rules=rules_st,
    first_deal=st.booleans(),
    bid_prob=st.sampled_from([0.0, 0.2, 0.55]),
    seed=seeds,
)
def test_crafted_deals_agree_with_model(
    deck: list[str], dealer: int, rules: Rules, first_deal: bool, bid_prob: float, seed: int
) -> None:
    """R1.4, R1.5, R2.1, R3.4 on decks built to hit them, all-pass auctions included."""
    deal = Deal([Card.parse(c) for c in deck], dealer=dealer, rules=rules, first_deal=first_deal)
    ref = RefDeal(deck, dealer, rules, first_deal)
    play_deal_in_lockstep(deal, ref, random.Random(seed), bid_prob)


@FAST
@given(
    decks=st.lists(crafted_decks(), min_size=1, max_size=6),
    first_dealer=dealers,
    rules=rules_st,
    bid_prob=st.sampled_from([0.0, 0.3, 0.55]),
    seed=seeds,
)
def test_crafted_matches_agree_with_model(
    decks: list[list[str]], first_dealer: int, rules: Rules, bid_prob: float, seed: int
) -> None:
    """Dealer rotation across redeals (R1.6, R2.2, R2.3), totals and winners (R8)."""
    rng = random.Random(seed)
    match = Match(first_dealer=first_dealer, rules=rules)
    game = RefGame(first_dealer, rules)
    for deck in decks:
        if match.is_over:
            break
        assert match.next_dealer == game.next_dealer
        deal = match.deal_next([Card.parse(c) for c in deck])
        ref = game.new_deal(deck)
        accounted = ref.over  # a redeal found at dealing time is accounted at once
        assert deal.dealer == ref.dealer and deal.first_deal == ref.first_deal
        agree(deal, ref)
        while not deal.is_over:
            action = weighted_choice(rng, deal, bid_prob=bid_prob)
            seat = deal.to_move
            assert seat is not None
            match.apply(action, seat)
            ref.apply(action_key(action), seat)
            agree(deal, ref)
        if not accounted:
            game.account(ref)
        assert list(match.totals) == game.totals
        assert list(match.winners) == game.winners
        assert match.next_dealer == game.next_dealer
        assert match.completed_deals == game.completed
    round_trip(match)
