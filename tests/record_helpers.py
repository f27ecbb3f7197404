"""Helpers for the game-record tests (``test_record*.py``): games built to order, their
valid records, and a :class:`Tamper` to break them where the reader must say."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from helpers import ALL_CODES, hands_of, play_out, positions_of
from paston import record
from paston.actions import Kind
from paston.cards import Card
from paston.deal import Deal
from paston.errors import RecordError
from paston.match import Match
from paston.rules import Rules

# --------------------------------------------------------------------------------------
# Helpers: games, decks built to order, tampering.

TOP_KEYS = ["format", "rules", "seats", "first_dealer", "deals", "winners"]
RULE_KEYS = ["lone_defender", "surrender_bonus", "all_pass_declarer", "second_dealer", "target"]
DEAL_KEYS = ["dealer", "deck", "hands", "prikup", "redeal", "first_bidder", "actions", "result", "totals"]
RESULT_KEYS = ["declarer", "outcome", "contract", "defenders", "tricks", "scores"]
ACTION_KEYS = {
    "bid": ["seat", "type", "value"],
    "trump": ["seat", "type", "value"],
    "play": ["seat", "type", "card"],
    "discard": ["seat", "type", "cards"],
    "pass": ["seat", "type"],
    "whist": ["seat", "type"],
    "surrender": ["seat", "type"],
}
LADDER = ["spades", "clubs", "diamonds", "hearts", "best-spades"]
SEQUENCE = ["7S", "8S", "9S", "TS", "JS", "QS"]


def has_sequence(hand: list[str]) -> bool:
    return set(SEQUENCE) <= set(hand) and not {"KS", "AS"} & set(hand)


def make_deck(
    rng: random.Random,
    dealer: int,
    seats: dict[int, list[str]] | None = None,
    prikup: list[str] | None = None,
    fixed: dict[int, str] | None = None,
    sequence_ok: bool = False,
) -> list[str]:
    """A deck (R1.2/R1.3) giving ``seats[s]`` to seat s, ``prikup`` to the prikup and
    ``fixed[pos]`` at deck position pos; everything else random. No spade sequence unless
    asked for, never 7S at the bottom."""
    want: dict[int, str] = dict(fixed or {})
    for s, cards in (seats or {}).items():
        free = [p for p in positions_of(s, dealer) if p not in want]
        assert len(cards) <= len(free)
        for card, p in zip(cards, free, strict=False):
            want[p] = card
    for card, p in zip(prikup or [], (6, 7), strict=False):
        want[p] = card
    assert len(set(want.values())) == len(want)
    rest = [c for c in ALL_CODES if c not in want.values()]
    for _ in range(1000):
        rng.shuffle(rest)
        it = iter(rest)
        deck = [want[p] if p in want else next(it) for p in range(32)]
        if deck[31] == "7S":
            continue
        if not sequence_ok and any(has_sequence(h) for h in hands_of(deck, dealer)):
            continue
        return deck
    raise AssertionError("no deck fits")


def cards(deck: list[str]) -> list[Card]:
    return [Card.parse(c) for c in deck]


def random_game(seed: int, rules: Rules | None = None, first_dealer: int = 0) -> Match:
    match = Match(first_dealer=first_dealer, rng=random.Random(seed), rules=rules or Rules())
    play_out(match, random.Random(seed + 1))
    return match


@functools.cache
def finished_game() -> Match:
    """A finished game of several deals, each with a played deal, to tamper with."""
    for seed in range(500):
        m = random_game(seed, Rules(target=60), first_dealer=1)
        played = [d for d in m.deals if d.result is not None and d.result.outcome == "played"]
        if m.completed_deals >= 4 and len(played) >= 3 and m.deals[0].result is not None:
            return m
    raise AssertionError("no seed")


@functools.cache
def redeal_game() -> Match:
    """Built to order: jack-seven-prikup, then spade-sequence (both in the first deal),
    a played first deal, a no-jack-no-seven redeal, then a deal played out."""
    rng = random.Random(2024)
    match = Match(first_dealer=1, rules=Rules(target=500), seats=("Ana", "Bob", "Cy"))
    # deal 0: R1.5
    d = match.deal_next(cards(make_deck(rng, 1, prikup=["JS", "7S"])))
    assert d.redeal == "jack-seven-prikup"
    # deal 1: R1.4, seat 2 holds 7S..QS without K/A
    deck = make_deck(rng, 1, seats={2: SEQUENCE, 0: ["KS", "AS"]}, sequence_ok=True)
    d = match.deal_next(cards(deck))
    assert d.redeal == "spade-sequence"
    # deal 2: the (still first) deal, played out
    for attempt in range(200):
        trial = match.clone()
        d = trial.deal_next(cards(make_deck(rng, 1)))
        play_out(trial, random.Random(attempt))
        if d.result is not None and d.result.outcome == "played":
            match = trial
            break
    assert match.completed_deals == 1
    # deal 3: all pass with J♠ and 7♠ in the prikup: no-jack-no-seven (R3.4)
    dealer = match.next_dealer
    d = match.deal_next(cards(make_deck(rng, dealer, prikup=["7S", "JS"])))
    for _ in range(3):
        match.apply(next(a for a in d.legal_actions() if a.kind is Kind.PASS), d.to_move)
    assert d.redeal == "no-jack-no-seven"
    # deal 4: the same dealer again, played out
    match.deal_next(cards(make_deck(rng, dealer)))
    play_out(match, random.Random(7))
    assert match.completed_deals == 2
    return match


def rec(match: Match) -> dict[str, Any]:
    """A fresh deep copy of a match's record object."""
    obj: dict[str, Any] = json.loads(record.dumps(match))
    return obj


@functools.cache
def _good_text(which: str) -> str:
    return record.dumps({"finished": finished_game, "redeal": redeal_game}[which]())


def good(which: str = "finished") -> dict[str, Any]:
    """A fresh copy of the valid record of :func:`finished_game` (``"finished"``) or
    :func:`redeal_game` (``"redeal"``), to tamper with. Both games are built, and their
    records written, once."""
    obj: dict[str, Any] = json.loads(_good_text(which))
    return obj


RuleCheck = str | set[str] | Callable[[str | None], bool] | None


def any_rule(rule: str | None) -> bool:
    """For tamperings where only the location of the error is checked."""
    return True


def expect_error(obj: object, deal: int | None, action: int | None, rule: RuleCheck) -> RecordError:
    with pytest.raises(RecordError) as info:
        record.from_record(obj)
    err = info.value
    assert (err.deal, err.action) == (deal, action), f"located at deal {err.deal}, action {err.action}: {err}"
    if callable(rule):
        assert rule(err.rule), f"rule {err.rule!r}: {err}"
    elif isinstance(rule, set):
        assert err.rule in rule, f"rule {err.rule!r} not in {rule}: {err}"
    else:
        assert err.rule == rule, f"rule {err.rule!r}, expected {rule!r}: {err}"
    text = str(err)
    if deal is not None:
        assert f"deal {deal}" in text
    if action is not None:
        assert f"action {action}" in text
    if err.rule is not None:
        assert err.rule in text
    return err


def expect_error_in_deal(obj: object, deal: int) -> RecordError:
    """The record is rejected in ``deal`` (the action index and the rule are not checked)."""
    with pytest.raises(RecordError) as info:
        record.from_record(obj)
    assert info.value.deal == deal, str(info.value)
    return info.value


def states(match: Match, i: int) -> list[Deal]:
    """The states of deal i before each of its actions."""
    return [d for (j, _k, d) in record.iter_states(match) if j == i][:-1]


def first_index(actions: list[dict[str, Any]], pred: Callable[[dict[str, Any]], bool]) -> int:
    return next(k for k, a in enumerate(actions) if pred(a))


# Which deal of a record a tampering is aimed at.
Pick = Callable[[dict[str, Any]], int]


def first_played(obj: dict[str, Any]) -> int:
    """The first deal played out (played to its tenth trick)."""
    return next(i for i, e in enumerate(obj["deals"]) if e.get("result", {}).get("outcome") == "played")


def first_dealt(obj: dict[str, Any]) -> int:
    """The first deal that is not redealt."""
    return next(i for i, e in enumerate(obj["deals"]) if e["redeal"] is None)


def second_dealt(obj: dict[str, Any]) -> int:
    """The deal after the first one that is not redealt (its dealer follows R2.2)."""
    return first_dealt(obj) + 1


def later_deal(obj: dict[str, Any]) -> int:
    """The last deal, a later deal than the second (its dealer follows R2.3)."""
    last = len(obj["deals"]) - 1
    assert last > second_dealt(obj)
    return last


def played_where(pred: Callable[[list[str]], bool]) -> Pick:
    """The first played deal whose bids (the list of bid values) satisfy ``pred``."""

    def pick(obj: dict[str, Any]) -> int:
        return next(
            i
            for i, e in enumerate(obj["deals"])
            if e.get("result", {}).get("outcome") == "played"
            and pred([a["value"] for a in e["actions"] if a["type"] == "bid"])
        )

    return pick


class Tamper:
    """A fresh copy of a valid record (:func:`good`) with deal ``i`` picked to tamper
    with (by default the first deal played out). The ``put``/``drop``/``bump``/``swap``/
    ``insert`` methods change the deal's entry along a path of keys and return the index
    of the action changed, or ``None`` when the change is outside the actions: that is
    where the reader must locate the error."""

    def __init__(self, which: str = "finished", deal: int | Pick = first_played) -> None:
        self.which = which
        self.obj = good(which)
        self.i = deal if isinstance(deal, int) else deal(self.obj)

    @property
    def match(self) -> Match:
        return finished_game() if self.which == "finished" else redeal_game()

    @property
    def entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = self.obj["deals"][self.i]
        return entry

    @property
    def acts(self) -> list[dict[str, Any]]:
        acts: list[dict[str, Any]] = self.entry["actions"]
        return acts

    def first(self, *types: str) -> int:
        """The index of the deal's first action of one of ``types``."""
        return first_index(self.acts, lambda a: a["type"] in types)

    def get(self, *path: str | int) -> Any:
        target: Any = self.entry
        for p in path:
            target = target[p]
        return target

    @staticmethod
    def _action(path: tuple[str | int, ...]) -> int | None:
        k = path[1] if len(path) > 1 and path[0] == "actions" else None
        return k if isinstance(k, int) else None

    def put(self, *path: str | int, value: object) -> int | None:
        self.get(*path[:-1])[path[-1]] = value
        return self._action(path)

    def drop(self, *path: str | int) -> int | None:
        del self.get(*path[:-1])[path[-1]]
        return self._action(path)

    def bump(self, *path: str | int) -> int | None:
        """The seat at ``path`` moved one seat on."""
        return self.put(*path, value=(self.get(*path) + 1) % 3)

    def swap(self, a: tuple[str | int, ...], b: tuple[str | int, ...]) -> int | None:
        first, second = self.get(*a), self.get(*b)
        self.put(*a, value=second)
        return self.put(*b, value=first)

    def insert(self, k: int, action: dict[str, Any]) -> int:
        self.acts.insert(k, action)
        return k

    def put_top(self, *path: str | int, value: object) -> None:
        target: Any = self.obj
        for p in path[:-1]:
            target = target[p]
        target[path[-1]] = value


Change = Callable[[Tamper], int | None]


def check_tampering(
    change: Change, rule: RuleCheck, *, which: str = "finished", deal: int | Pick = first_played
) -> RecordError:
    """Apply ``change`` to a valid record: the reader must reject it at the deal picked and
    the action the change returns, citing ``rule``."""
    t = Tamper(which, deal)
    k = change(t)
    return expect_error(t.obj, t.i, k, rule)
