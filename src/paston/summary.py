"""The account of a finished deal, for people: the contract and its outcome, each seat's
tricks against what it needed (R6.3, R5.2), its score with the line of R7 that gave it,
the new totals with any reset (R8.2), and the deal as dealt (the deck is revealed once a
deal is over).

Every fact comes from the module that owns it: the outcome from :mod:`paston.result`,
the quotas, the lines of R7 and the resets from :mod:`paston.scoring`.

>>> import random
>>> from paston.match import Match
>>> from paston.actions import Action
>>> match = Match(first_dealer=0, rng=random.Random(3))
>>> for text in ["bid spades", "pass", "pass"]:
...     _ = match.apply(Action.parse(text))
>>> _ = match.apply(match.legal_actions()[0])  # a discard
>>> _ = match.apply(Action.parse("surrender"))
>>> s = last_summary(match)
>>> s.outcome, [(line.score, line.rule, line.total) for line in s.seats]
(<Outcome.SURRENDER: 'surrender'>, [(-10, 'R7.7', -10), (2, 'R7.7', 2), (2, 'R7.7', 2)])
>>> len(s.seats[0].hand), len(s.prikup), s.seats[0].text
(10, 2, 'surrendered: -10, no multiplier')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from paston.cards import CardSet
from paston.contracts import Contract
from paston.result import Outcome, Redeal
from paston.scoring import DECLARER_NEEDS, reset_seats, whist_quota

if TYPE_CHECKING:
    from paston.deal import Deal
    from paston.match import Match

Totals = tuple[int, int, int]


class Role(StrEnum):
    """What a seat was in a deal."""

    DECLARER = "declarer"
    DEFENDER = "defender"  # both opponents whisted (R5.2)
    LONE_DEFENDER = "lone-defender"  # the only one who whisted (R5.2)
    PASSED = "passed"  # said pass to the whist question and sat out (R5.2, R7.4)
    OPPONENT = "opponent"  # no defence was played (uncontested, surrender, redeal)


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat in a finished deal. ``tricks`` and ``needed`` are ``None`` where the seat
    did not play (nothing was played, or it passed); ``rule`` and ``text`` are the line
    of R7 that gave ``score``, ``words`` and ``params`` the key of its words in
    :data:`paston.scoring.LINE_WORDS` and their numbers as (name, value) pairs (all empty
    for a redeal, which scores nothing)."""

    seat: int
    role: Role
    hand: CardSet
    tricks: int | None
    needed: int | None
    score: int
    rule: str
    text: str
    total: int
    reset: bool
    words: str = ""
    params: tuple[tuple[str, int | str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The seat's part of :meth:`DealSummary.to_json`."""
        return {
            "seat": self.seat,
            "role": str(self.role),
            "hand": [str(c) for c in self.hand],
            "tricks": self.tricks,
            "needed": self.needed,
            "score": self.score,
            "rule": self.rule,
            "text": self.text,
            "words": self.words,
            "params": dict(self.params),
            "total": self.total,
            "reset": self.reset,
        }


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A finished deal (scored, or void: ``redeal``). ``deal`` is its index in the
    game's deals (redeals included); ``bid`` the auction's highest bid (``None``: all
    passed, R3.4); ``made`` whether the declarer made it (``None`` after a surrender or
    a redeal); ``short`` how many tricks a failed declarer lacked."""

    deal: int
    dealer: int
    declarer: int | None
    bid: Contract | None
    contract: Contract | None
    outcome: Outcome | None
    redeal: Redeal | None
    made: bool | None
    short: int
    seats: tuple[SeatSummary, SeatSummary, SeatSummary]
    prikup: CardSet
    discard: CardSet
    totals_before: Totals
    totals: Totals

    @property
    def all_passed(self) -> bool:
        """Whether all three passed in the auction (R3.4: the declarer was named by J♠/7♠)."""
        return self.bid is None and self.redeal is not Redeal.SPADE_SEQUENCE

    @property
    def resets(self) -> tuple[int, ...]:
        """The seats whose total was reset to 0 (R8.2)."""
        return tuple(s.seat for s in self.seats if s.reset)

    @property
    def scores(self) -> Totals:
        """The deal's scores per seat."""
        return self.seats[0].score, self.seats[1].score, self.seats[2].score

    def to_json(self) -> dict[str, Any]:
        """The summary as the server sends it (cards as codes, contracts and outcomes as
        the record's words)."""
        return {
            "deal": self.deal,
            "dealer": self.dealer,
            "declarer": self.declarer,
            "bid": None if self.bid is None else self.bid.name_in_record,
            "all_passed": self.all_passed,
            "contract": None if self.contract is None else self.contract.name_in_record,
            "outcome": None if self.outcome is None else str(self.outcome),
            "outcome_rule": None if self.outcome is None else self.outcome.rule,
            "outcome_text": None if self.outcome is None else self.outcome.text,
            "redeal": None if self.redeal is None else str(self.redeal),
            "redeal_rule": None if self.redeal is None else self.redeal.rule,
            "redeal_text": None if self.redeal is None else self.redeal.text,
            "made": self.made,
            "short": self.short,
            "seats": [s.to_json() for s in self.seats],
            "prikup": [str(c) for c in self.prikup],
            "discard": [str(c) for c in self.discard],
            "totals_before": list(self.totals_before),
            "totals": list(self.totals),
            "resets": list(self.resets),
        }


def summarize(deal: Deal, totals_before: Sequence[int], *, index: int = 0) -> DealSummary:
    """The summary of a finished ``deal`` played from the running ``totals_before``
    (``index``: its place among the game's deals). Raises ``ValueError`` for a deal in
    progress: its hands are still secret."""
    if not deal.is_over:
        raise ValueError("a deal in progress has no summary: its hands are still secret")
    before = (totals_before[0], totals_before[1], totals_before[2])
    result = deal.result
    hands = tuple(CardSet(m) for m in deal.dealt)
    if result is None:  # a redeal (R1.4, R1.5, R3.4): nothing is scored
        seats = tuple(
            SeatSummary(s, Role.OPPONENT, hands[s], None, None, 0, "", "", before[s], False) for s in range(3)
        )
        return DealSummary(
            deal=index,
            dealer=deal.dealer,
            declarer=deal.declarer,
            bid=deal.high_bid,
            contract=None,
            outcome=None,
            redeal=deal.redeal,
            made=None,
            short=0,
            seats=(seats[0], seats[1], seats[2]),
            prikup=CardSet(deal.prikup),
            discard=deal.discard,
            totals_before=before,
            totals=before,
        )
    rules = deal.rules
    lines = result.lines(rules)
    scores = result.scores
    resets = reset_seats(before, scores, rules=rules)
    played = result.outcome is Outcome.PLAYED
    lone = len(result.defenders) == 1
    out = []
    for s in range(3):
        if s == result.declarer:
            role, needed = Role.DECLARER, DECLARER_NEEDS
        elif played and s in result.defenders:
            role = Role.LONE_DEFENDER if lone else Role.DEFENDER
            needed = whist_quota(lone=lone)
        else:
            role, needed = (Role.PASSED if played else Role.OPPONENT), 0
        shown = played and role is not Role.PASSED
        total = 0 if s in resets else before[s] + scores[s]
        line = lines[s]
        tricks = result.tricks[s] if shown else None
        need = needed if shown else None
        out.append(
            SeatSummary(
                s,
                role,
                hands[s],
                tricks,
                need,
                line.score,
                line.rule,
                line.text,
                total,
                s in resets,
                line.words,
                line.values,
            )
        )
    made = result.made
    short = DECLARER_NEEDS - result.tricks[result.declarer] if played and not made else 0
    totals = (out[0].total, out[1].total, out[2].total)
    return DealSummary(
        deal=index,
        dealer=deal.dealer,
        declarer=result.declarer,
        bid=deal.high_bid,
        contract=result.contract,
        outcome=result.outcome,
        redeal=None,
        made=made,
        short=short,
        seats=(out[0], out[1], out[2]),
        prikup=CardSet(deal.prikup),
        discard=deal.discard,
        totals_before=before,
        totals=totals,
    )


def deal_summary(match: Match, index: int) -> DealSummary:
    """The summary of the game's deal ``index`` (it must be over), with the totals it
    was played from."""
    deals = match.deals
    if not -len(deals) <= index < len(deals):
        raise ValueError(f"the game has {len(deals)} deals, not a deal {index}")
    index %= len(deals)
    before: Totals = (0, 0, 0)
    for totals in match.deal_totals[:index]:
        if totals is not None:
            before = totals
    return summarize(deals[index], before, index=index)


def last_summary(match: Match, *, scored: bool = True) -> DealSummary | None:
    """The summary of the game's last finished deal (``scored``: the last that was
    scored, redeals skipped), or ``None`` before the first."""
    for index in range(len(match.deals) - 1, -1, -1):
        deal = match.deals[index]
        if deal.is_over and (deal.result is not None or not scored):
            return deal_summary(match, index)
    return None
