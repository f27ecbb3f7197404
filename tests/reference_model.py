"""The reference model of RULES.md (R1–R8) for the property tests (``test_properties*.py``).

:class:`RefDeal` (one deal) and :class:`RefGame` (dealer rotation, totals, the end of the
game) are a small, deliberately naive model written here from the rules text: they work
on card codes such as "TH" and Python sets, and share no logic with the engine.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from paston.actions import Action
from paston.cards import ALL_CARDS
from paston.rules import Rules

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
