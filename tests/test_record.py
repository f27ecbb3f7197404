"""Game records (RECORD.md): what the writer produces, JSON Lines files, and a reader that
rejects every broken record naming the deal index, the action index and the rule."""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers import ALL_CODES, hands_of, play_out, positions_of, round_trip
from paston import record
from paston.actions import Kind
from paston.cards import Card
from paston.deal import Deal, Phase
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


# --------------------------------------------------------------------------------------
# Writing: RECORD.md exactly.


def test_record_layout_of_a_finished_game() -> None:
    m = finished_game()
    obj = rec(m)
    assert list(obj) == TOP_KEYS
    assert obj["format"] == "paston/1"
    assert list(obj["rules"]) == RULE_KEYS
    assert obj["rules"] == {
        "lone_defender": "graded",
        "surrender_bonus": 2,
        "all_pass_declarer": "spade-jack",
        "second_dealer": "first-bidder",
        "target": 60,
    }
    assert obj["seats"] == ["Seat 0", "Seat 1", "Seat 2"]
    assert obj["first_dealer"] == 1
    assert obj["winners"] == list(m.winners) and obj["winners"]
    assert max(obj["deals"][-1]["totals"]) >= 60
    totals = [0, 0, 0]
    for i, (entry, deal) in enumerate(zip(obj["deals"], m.deals, strict=True)):
        assert [k for k in DEAL_KEYS if k in entry] == list(entry), f"deal {i}: key order"
        assert entry["dealer"] == deal.dealer
        assert len(entry["deck"]) == 32 and sorted(entry["deck"]) == sorted(ALL_CODES)
        assert entry["deck"][31] != "7S"
        assert entry["hands"] == hands_of(entry["deck"], entry["dealer"]), "hands as dealt, R1.3"
        assert entry["prikup"] == entry["deck"][6:8]
        if entry["redeal"] is not None:
            continue
        assert set(entry) == set(DEAL_KEYS)
        assert entry["first_bidder"] == entry["actions"][0]["seat"]
        for a in entry["actions"]:
            assert list(a) == ACTION_KEYS[a["type"]]
            assert type(a["seat"]) is int
            if a["type"] == "discard":
                assert len(a["cards"]) == 2
        result = entry["result"]
        assert list(result) == RESULT_KEYS
        assert result["outcome"] in ("played", "uncontested", "surrender")
        if result["outcome"] == "surrender":
            assert result["contract"] is None
        else:
            assert result["contract"] in LADDER
        if result["outcome"] != "played":
            assert result["tricks"] == [0, 0, 0] and result["defenders"] == []
        else:
            assert sum(result["tricks"]) == 10 and result["defenders"]
            whist = [a["seat"] for a in entry["actions"] if a["type"] == "whist"]
            assert sorted(result["defenders"]) == sorted(whist)
        totals = [t + s for t, s in zip(totals, result["scores"], strict=True)]
        totals = [0 if t == -60 else t for t in totals]
        assert entry["totals"] == totals
    # the second deal is dealt by the first bidder of the first (R2.2, default)
    first = obj["deals"][0]
    assert obj["deals"][1]["dealer"] == first["first_bidder"]


def test_record_compact_and_pretty_text() -> None:
    m = finished_game()
    text = record.dumps(m)
    assert "\n" not in text  # one line: a JSON Lines entry
    assert json.loads(text) == record.to_record(m)
    pretty = record.dumps(m, indent=2)
    assert "\n" in pretty and json.loads(pretty) == json.loads(text)


def test_redeal_entries() -> None:
    m = redeal_game()
    obj = rec(m)
    deals = obj["deals"]
    assert [d["redeal"] for d in deals] == [
        "jack-seven-prikup",
        "spade-sequence",
        None,
        "no-jack-no-seven",
        None,
    ]
    base = ["dealer", "deck", "hands", "prikup", "redeal"]
    # R1.5 and R1.4: no first_bidder, empty actions, no result, no totals
    for entry in deals[:2]:
        assert list(entry) == [*base, "actions"]
        assert entry["actions"] == []
    assert deals[0]["prikup"] == ["JS", "7S"]
    assert has_sequence(deals[1]["hands"][2])
    # R1.6: the same dealer deals again, and a redealt first deal is still the first deal
    assert deals[0]["dealer"] == deals[1]["dealer"] == deals[2]["dealer"] == 1
    dealt = deals[2]["hands"]
    holder = next((s for s in range(3) if "JS" in dealt[s]), None)
    if holder is None:
        holder = next(s for s in range(3) if "7S" in dealt[s])
    assert deals[2]["first_bidder"] == holder, "R2.1 applies to the redealt first deal"
    # no-jack-no-seven (R3.4) keeps its first bidder and its three passes
    nj = deals[3]
    assert list(nj) == [*base, "first_bidder", "actions"]
    fb = nj["first_bidder"]
    assert fb == (nj["dealer"] + 1) % 3
    assert nj["actions"] == [{"seat": (fb + k) % 3, "type": "pass"} for k in range(3)]
    assert sorted(nj["prikup"]) == ["7S", "JS"]
    # then the same dealer deals again (R1.6)
    assert deals[4]["dealer"] == nj["dealer"]
    assert nj["dealer"] == deals[2]["first_bidder"], "R2.2: the first bidder of the first deal deals next"
    assert "result" in deals[4] and "totals" in deals[4]
    assert deals[4]["totals"] == list(m.totals)
    # and it reads back
    again = round_trip(m)
    assert [d.redeal for d in again.deals] == [d["redeal"] for d in deals]


def test_unfinished_game_record() -> None:
    """A game stopped mid-deal: the last deal has no result/totals, winners are []."""
    m = Match(first_dealer=2, rng=random.Random(99))
    play_out(m, random.Random(3), max_actions=5)
    obj = rec(m)
    assert obj["winners"] == []
    last = obj["deals"][-1]
    assert "result" not in last and "totals" not in last
    assert sum(len(d["actions"]) for d in obj["deals"]) == 5
    again = round_trip(m)
    assert again.to_move == m.to_move and again.legal_actions() == m.legal_actions()
    # a game with no action yet, and one with no deal at all
    fresh = Match(first_dealer=0, rng=random.Random(1))
    round_trip(fresh)
    empty = Match(first_dealer=1)
    obj = rec(empty)
    assert obj["deals"] == [] and obj["winners"] == []
    assert record.from_record(obj).next_dealer == 1


def test_unfinished_game_after_complete_deals() -> None:
    m = finished_game()
    # the same game cut after its second deal: valid, winners []
    obj = rec(m)
    obj["deals"] = obj["deals"][:2]
    obj["winners"] = []
    again = record.from_record(obj)
    assert list(again.totals) == obj["deals"][1]["totals"]
    # cut in the middle of the third deal's actions
    obj = rec(m)
    obj["deals"] = obj["deals"][:3]
    del obj["deals"][2]["result"], obj["deals"][2]["totals"]
    obj["deals"][2]["actions"] = obj["deals"][2]["actions"][:7]
    obj["winners"] = []
    again = record.from_record(obj)
    assert again.deal is not None and len(again.deal.events) == 7


def test_winners_are_recorded() -> None:
    for seed in range(20):
        m = random_game(seed, Rules(target=20))
        obj = rec(m)
        totals = obj["deals"][-1]["totals"]
        best = max(t for t in totals if t >= 20)
        assert obj["winners"] == [s for s in range(3) if totals[s] == best]


def test_totals_reset_at_minus_target() -> None:
    """R8.2 (and R8.3's decision: at -target): a total of exactly -target is written as 0."""
    found = 0
    for seed in range(60):
        m = random_game(seed, Rules(target=10))
        obj = rec(m)
        totals = [0, 0, 0]
        for i, entry in enumerate(obj["deals"]):
            if "result" not in entry:
                continue
            raw = [t + s for t, s in zip(totals, entry["result"]["scores"], strict=True)]
            assert entry["totals"] == [0 if t == -10 else t for t in raw]
            if -10 in raw:
                found += 1
                bad = rec(m)
                bad["deals"][i]["totals"] = raw  # the reset left out
                expect_error(bad, i, None, "R8.2")
            totals = entry["totals"]
    assert found


@functools.cache
def minus_121_game() -> tuple[Match, int]:
    """Built by search: seat 0 scores -40, -40, -9, -32 and so reaches exactly -121."""
    plan = [-40, -40, -9, -32]
    rng = random.Random(121)
    match = Match(first_dealer=0)
    for want in plan:
        for attempt in range(20000):
            trial = match.clone()
            d = trial.deal_next(cards(make_deck(rng, trial.next_dealer)))
            play_out(trial, random.Random(attempt), bid_prob=0.7)
            if d.result is not None and d.result.scores[0] == want and not trial.is_over:
                match = trial
                break
        else:  # pragma: no cover
            raise AssertionError(f"no deal found with score {want}")
    return match, len(match.deals) - 1


def test_minus_121_reset_is_recorded_and_checked() -> None:
    m, last = minus_121_game()
    assert m.totals[0] == 0
    obj = rec(m)
    assert obj["deals"][last]["totals"][0] == 0
    assert obj["deals"][last - 1]["totals"][0] == -89
    round_trip(m)
    bad = rec(m)
    bad["deals"][last]["totals"][0] = -121
    expect_error(bad, last, None, "R8.2")


# --------------------------------------------------------------------------------------
# The RECORD.md example.

RECORD_MD_EXAMPLE = """
{
  "format": "paston/1",
  "rules": {"lone_defender": "graded", "surrender_bonus": 2,
            "all_pass_declarer": "spade-jack", "second_dealer": "first-bidder",
            "target": 121},
  "seats": ["Ana", "pimc", "heuristic"],
  "first_dealer": 0,
  "deals": [
    {
      "dealer": 0,
      "deck": ["QD", "7H", "...32 codes..."],
      "hands": [["..10 codes.."], ["..."], ["..."]],
      "prikup": ["9C", "KH"],
      "redeal": null,
      "first_bidder": 1,
      "actions": [
        {"seat": 1, "type": "bid", "value": "spades"},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "bid", "value": "clubs"},
        {"seat": 1, "type": "pass"},
        {"seat": 0, "type": "discard", "cards": ["7D", "8D"]},
        {"seat": 0, "type": "trump", "value": "hearts"},
        {"seat": 1, "type": "whist"},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "play", "card": "AH"},
        {"seat": 1, "type": "play", "card": "7H"}
      ],
      "result": {"declarer": 0, "outcome": "played", "contract": "hearts",
                 "defenders": [1], "tricks": [7, 3, 0], "scores": [40, -28, 0]},
      "totals": [40, -28, 0]
    }
  ],
  "winners": []
}
"""


def _record_md() -> Path | None:
    here = Path(__file__).resolve()
    for base in (here.parent.parent, *here.parents):
        for p in (base / "RECORD.md", base / "docs" / "RECORD.md", base / "shared" / "RECORD.md"):
            if p.is_file():
                return p
    return None


def test_embedded_example_is_record_md_example() -> None:
    path = _record_md()
    assert path is not None, "docs/RECORD.md is missing from the project"
    block = re.search(r"```json\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    assert block is not None
    assert json.loads(block.group(1)) == json.loads(RECORD_MD_EXAMPLE)


def test_record_md_example_as_is_is_rejected_where_abbreviated() -> None:
    """The example's deck is abbreviated ("...32 codes..."): deal 0 is rejected."""
    obj = json.loads(RECORD_MD_EXAMPLE)
    err = expect_error(obj, 0, None, lambda r: r in (None, "R0.2", "R1.2", "R1.3"))
    assert "deck" in str(err)


@functools.cache
def completed_example() -> dict[str, Any]:
    """The RECORD.md example with its abbreviations filled in consistently: a deck that
    gives seat 1 QD 7H (dealt first) and J♠, seat 0 7D 8D AH, prikup 9C KH; the ten
    actions of the example; then a play-out found by search that ends 7/3/0."""
    example = json.loads(RECORD_MD_EXAMPLE)
    prefix = example["deals"][0]["actions"]
    rng = random.Random(1)
    for _attempt in range(5000):
        deck = make_deck(
            rng,
            0,
            seats={1: ["JS"], 0: ["7D", "8D", "AH"]},
            prikup=["9C", "KH"],
            fixed={0: "QD", 1: "7H"},
        )
        match = Match(first_dealer=0, seats=example["seats"])
        deal = match.deal_next(cards(deck))
        if deal.first_bidder != 1:
            continue
        obj = rec(match)
        obj["deals"][0]["actions"] = prefix
        match = record.from_record(obj)  # the example's ten actions, replayed
        play_out(match, random.Random(_attempt))
        r = match.deals[0].result
        if r is not None and list(r.tricks) == [7, 3, 0]:
            full = rec(match)
            assert full["deals"][0]["actions"][:10] == prefix
            return full
    raise AssertionError("no completion found")


def test_record_md_example_completed_is_accepted() -> None:
    example = json.loads(RECORD_MD_EXAMPLE)
    full = completed_example()
    # everything the example shows is there, in the same place
    ex_deal, deal = example["deals"][0], full["deals"][0]
    assert list(full) == list(example)
    assert list(full["rules"]) == list(example["rules"]) and full["rules"] == example["rules"]
    assert list(deal) == list(ex_deal)
    for key in ("format", "seats", "first_dealer", "winners"):
        assert full[key] == example[key]
    for key in ("dealer", "prikup", "redeal", "first_bidder", "result", "totals"):
        assert deal[key] == ex_deal[key], key
    assert list(deal["result"]) == list(ex_deal["result"])
    assert deal["deck"][:2] == ex_deal["deck"][:2]
    assert deal["actions"][:10] == ex_deal["actions"]
    for a in ex_deal["actions"]:
        assert list(a) == ACTION_KEYS[a["type"]]
    # and the reader accepts it and writes it back identically
    match = record.from_record(copy.deepcopy(full))
    assert record.dumps(match) == json.dumps(full, ensure_ascii=False, separators=(",", ":"))
    assert match.totals == (40, -28, 0) and match.winners == ()


def test_example_rules_absent_keys_take_defaults() -> None:
    full = completed_example()
    obj = copy.deepcopy(full)
    obj["rules"] = {}
    match = record.from_record(obj)
    assert match.rules == Rules()
    assert rec(match)["rules"] == full["rules"]


# --------------------------------------------------------------------------------------
# JSON Lines files.


def test_jsonl_write_and_read(tmp_path: Path) -> None:
    games = [finished_game(), redeal_game(), random_game(5, Rules(target=20, second_dealer="rotate"))]
    stopped = Match(first_dealer=1, rng=random.Random(8))
    play_out(stopped, random.Random(8), max_actions=12)
    games.append(stopped)
    path = tmp_path / "games.jsonl"
    assert record.write_jsonl(path, games) == 4
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines == [record.dumps(g) for g in games]
    read = record.read_file(path)
    assert [record.dumps(g) for g in read] == lines
    items = list(record.iter_file(path))
    assert all(isinstance(x, Match) for x in items) and len(items) == 4
    # blank lines are ignored
    path.write_text("\n" + lines[0] + "\n\n" + lines[1] + "\n", encoding="utf-8")
    assert len(record.read_file(path)) == 2


def test_jsonl_bad_line_is_located(tmp_path: Path) -> None:
    valid = _good_text("finished")
    bad = json.loads(valid)
    bad["deals"][1]["result"]["scores"][0] += 1
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join([valid, valid, json.dumps(bad), "not json", valid]) + "\n", encoding="utf-8")
    items = list(record.iter_file(path))
    assert [type(x).__name__ for x in items] == ["Match", "Match", "RecordError", "RecordError", "Match"]
    err = items[2]
    assert isinstance(err, RecordError)
    assert (
        (err.game, err.deal, err.action) == (2, 1, None)
        and err.rule is not None
        and err.rule.startswith("R7")
    )
    assert "game 2" in str(err) and "deal 1" in str(err)
    assert isinstance(items[3], RecordError) and items[3].game == 3
    with pytest.raises(RecordError) as info:
        record.read_file(path)
    assert info.value.game == 2


def test_single_pretty_object_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(record.dumps(redeal_game(), indent=2), encoding="utf-8")
    (m,) = record.read_file(path)
    assert record.dumps(m) == record.dumps(redeal_game())


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    with pytest.raises(RecordError):
        record.read_file(path)


# --------------------------------------------------------------------------------------
# The reader rejects broken records. One test case per kind of tampering, so that a
# failure names it; the valid records tampered with are built once (see good()).


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("{not json", id="not-json"),
        pytest.param("", id="empty"),
        pytest.param("[1, 2]", id="array"),
        pytest.param('"paston/1"', id="string"),
        pytest.param("null", id="null"),
    ],
)
def test_not_json_and_not_an_object(text: str) -> None:
    with pytest.raises(RecordError) as info:
        record.loads(text)
    assert info.value.deal is None and info.value.action is None


def _drop_top(key: str) -> Change:
    def change(t: Tamper) -> None:
        del t.obj[key]

    return change


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        *(pytest.param(_drop_top(key), any_rule, id=f"missing-key-{key}") for key in TOP_KEYS),
        pytest.param(lambda t: t.put_top("extra", value=1), any_rule, id="extra-key"),
        pytest.param(lambda t: t.put_top("format", value="paston/2"), any_rule, id="format-paston/2"),
        pytest.param(
            lambda t: t.put_top("rules", "lone_defender", value="steep"), any_rule, id="rule-value-unknown"
        ),
        pytest.param(
            lambda t: t.put_top("rules", "no_trump", value=True), any_rule, id="rule-switch-unknown"
        ),
        pytest.param(lambda t: t.put_top("seats", value=["a", "b"]), "R0.1", id="two-seats"),
        pytest.param(lambda t: t.put_top("first_dealer", value=3), "R1.1", id="first_dealer-3"),
    ],
)
def test_top_level_breakage(change: Change, rule: RuleCheck) -> None:
    t = Tamper()
    change(t)
    expect_error(t.obj, None, None, rule)


def _bump_first_dealer(t: Tamper) -> None:
    t.put_top("first_dealer", value=(t.obj["first_dealer"] + 1) % 3)


@pytest.mark.parametrize(
    ("deal", "change", "rule"),
    [
        # first deal: the record's first_dealer deals (R1.1)
        pytest.param(0, lambda t: t.bump("dealer"), "R1.1", id="first-deal-dealer"),
        pytest.param(0, _bump_first_dealer, "R1.1", id="first_dealer"),
        # second deal: the first bidder of the first deal deals (R2.2)
        pytest.param(second_dealt, lambda t: t.bump("dealer"), "R2.2", id="second-deal-dealer"),
        # later: the deal passes one seat clockwise (R2.3)
        pytest.param(later_deal, lambda t: t.bump("dealer"), "R2.3", id="later-deal-dealer"),
    ],
)
def test_wrong_dealer(deal: int | Pick, change: Change, rule: str) -> None:
    check_tampering(change, rule, deal=deal)


@pytest.mark.parametrize(
    "deal",
    [
        pytest.param(1, id="after-jack-seven-prikup"),
        pytest.param(2, id="after-spade-sequence"),
        pytest.param(4, id="after-no-jack-no-seven"),
    ],
)
def test_wrong_dealer_after_redeals(deal: int) -> None:
    """Each of these deals follows a redeal: the same dealer deals again (R1.6)."""
    check_tampering(lambda t: t.bump("dealer"), "R1.6", which="redeal", deal=deal)


def test_wrong_dealer_rotate_variant() -> None:
    m = random_game(3, Rules(target=40, second_dealer="rotate"), first_dealer=2)
    valid = rec(m)
    i = next(k for k, d in enumerate(m.deals) if d.redeal is None) + 1
    assert valid["deals"][i]["dealer"] == 0  # R2.2 rotate: the first dealer's left
    obj = copy.deepcopy(valid)
    obj["deals"][i]["dealer"] = valid["deals"][i - 1]["first_bidder"]
    if obj["deals"][i]["dealer"] == 0:
        obj["deals"][i]["dealer"] = 1
    expect_error(obj, i, None, "R2.2")


def rewrite_deck(entry: dict[str, Any], deck: list[str]) -> None:
    entry["deck"] = deck
    entry["hands"] = hands_of(deck, entry["dealer"])
    entry["prikup"] = deck[6:8]


def _seven_of_spades_at_the_bottom(t: Tamper) -> None:
    deck = list(t.entry["deck"])
    k = deck.index("7S")
    deck[k], deck[31] = deck[31], deck[k]
    rewrite_deck(t.entry, deck)  # hands and prikup consistent with the new deck


@pytest.mark.parametrize("deal", [0, 2], ids=["deal-0", "deal-2"])
def test_bottom_card_seven_of_spades(deal: int) -> None:
    check_tampering(_seven_of_spades_at_the_bottom, "R1.2", deal=deal)


def _card_twice_in_deck(t: Tamper) -> None:
    deck = list(t.entry["deck"])
    deck[5] = deck[4]
    rewrite_deck(t.entry, deck)


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        pytest.param(_card_twice_in_deck, {"R0.2", "R1.2"}, id="card-twice"),
        pytest.param(
            lambda t: t.put("deck", value=t.get("deck")[:31]), {"R0.2", "R1.2", "R1.3"}, id="31-cards"
        ),
    ],
)
def test_duplicate_card_in_deck(change: Change, rule: RuleCheck) -> None:
    check_tampering(change, rule, deal=1)


@pytest.mark.parametrize(
    ("deal", "change"),
    [
        pytest.param(0, lambda t: t.swap(("hands", 0, 0), ("hands", 1, 0)), id="hands-swap-a-card"),
        pytest.param(2, lambda t: t.swap(("prikup", 0), ("hands", 1, 3)), id="prikup-swaps-with-a-hand"),
        pytest.param(1, lambda t: t.put("hands", 2, value=t.get("hands", 2)[:9]), id="hand-of-nine"),
        pytest.param(
            1, lambda t: t.put("hands", 2, 4, value=t.get("hands", 2, 3)), id="card-twice-in-a-hand"
        ),
        # a deck consistent with hands and prikup but not the one the hands came from
        pytest.param(0, lambda t: t.swap(("deck", 0), ("deck", 2)), id="deck-moves-a-card-from-L-to-M"),
    ],
)
def test_hands_and_prikup_must_match_the_deck(deal: int, change: Change) -> None:
    check_tampering(change, "R1.3", deal=deal)


@pytest.mark.parametrize(
    ("deal", "change", "rule"),
    [
        pytest.param(first_dealt, lambda t: t.bump("first_bidder"), "R2.1", id="first-deal-another-seat"),
        pytest.param(first_dealt, lambda t: t.drop("first_bidder"), "R2.1", id="first-deal-missing"),
        pytest.param(second_dealt, lambda t: t.bump("first_bidder"), "R2.3", id="later-deal-another-seat"),
    ],
)
def test_wrong_first_bidder(deal: Pick, change: Change, rule: str) -> None:
    check_tampering(change, rule, deal=deal)


# An illegal auction: (index, replacement) for a deal's actions, or None where it does not apply.
AuctionTamper = Callable[[list[dict[str, Any]]], tuple[int, dict[str, Any]] | None]


def _first_bid_clubs(acts: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    k = first_index(acts, lambda a: a["type"] in ("bid", "pass"))
    return k, {"seat": acts[k]["seat"], "type": "bid", "value": "clubs"}


def _last_bid_moved(step: int) -> AuctionTamper:
    def tamper(acts: list[dict[str, Any]]) -> tuple[int, dict[str, Any]] | None:
        bids = [k for k, a in enumerate(acts) if a["type"] == "bid"]
        if not bids:
            return None
        k = bids[-1]
        wrong = LADDER.index(acts[k]["value"]) + step
        if not 0 <= wrong < 5 or (wrong == 0 and k == bids[0]):
            return None
        return k, {**acts[k], "value": LADDER[wrong]}

    return tamper


def _whist_in_the_auction(acts: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    return 0, {"seat": acts[0]["seat"], "type": "whist"}


@pytest.mark.parametrize(
    ("tamper", "rule"),
    [
        pytest.param(_first_bid_clubs, "R3.2", id="first-bid-not-spades"),  # the first bid is spades
        pytest.param(_last_bid_moved(-1), "R3.2", id="bid-repeated-or-lower"),  # no repeats (R3.2)
        pytest.param(_last_bid_moved(+1), "R3.2", id="bid-jumps"),  # no jumps (R3.2)
        pytest.param(_whist_in_the_auction, {"R3.2", "R3.3"}, id="whist-in-the-auction"),
    ],
)
def test_illegal_bids(tamper: AuctionTamper, rule: RuleCheck) -> None:
    """Every deal with an auction, tampered with in the same way."""
    n = 0
    for i, entry in enumerate(good()["deals"]):
        if entry["redeal"] is not None or not entry["actions"]:
            continue
        found = tamper(entry["actions"])
        if found is None:
            continue
        k, action = found
        obj = good()
        obj["deals"][i]["actions"][k] = action
        expect_error(obj, i, k, rule)
        n += 1
    assert n > 0, "the game has no deal to tamper with in this way"


def test_best_spades_ends_the_auction() -> None:
    """R3.3 (a): after a best-spades bid nobody bids again; the declarer discards next."""
    rng = random.Random(4)
    m = Match(first_dealer=0)
    m.deal_next(cards(make_deck(rng, 0)))
    d = m.deal
    assert d is not None
    for _ in range(5):
        d.apply(next(a for a in d.legal_actions() if a.kind is Kind.BID))
    assert d.phase is Phase.DISCARD
    obj = rec(m)
    seat = obj["deals"][0]["actions"][-1]["seat"]
    obj["deals"][0]["actions"].append({"seat": (seat + 1) % 3, "type": "pass"})
    expect_error(obj, 0, 5, lambda r: r is not None and r[:3] in ("R3.", "R4."))


def _revoke(st: Deal, must: str) -> str | None:
    """A card the seat to move may not play because it must follow suit (``must`` is
    "follow") or must trump ("trump") (R6.2); None where the position has none."""
    if st.phase is not Phase.PLAY or not st.current_trick:
        return None
    assert st.to_move is not None
    lead = st.current_trick[0][1].suit
    hand = list(st.hand(st.to_move))
    follow = [c for c in hand if c.suit == lead]
    trumps = [c for c in hand if c.suit == st.trump_suit]
    other = [c for c in hand if c.suit != lead]
    if must == "follow" and follow and other:
        return str(other[0])
    if must == "trump" and not follow and trumps and len(trumps) < len(hand):
        return str(next(c for c in hand if c not in trumps))
    return None


@pytest.mark.parametrize("must", ["follow", "trump"], ids=["must-follow-suit", "must-trump"])
def test_revoke_in_play(must: str) -> None:
    """R6.2: the first 12 plays of the game where the seat had to follow suit (or to
    trump), each replaced by a card of another suit."""
    m = finished_game()
    n = 0
    for i, _deal in enumerate(m.deals):
        for k, st in enumerate(states(m, i)):
            card = _revoke(st, must)
            if card is None:
                continue
            obj = good()
            obj["deals"][i]["actions"][k]["card"] = card
            expect_error(obj, i, k, "R6.2")
            n += 1
            if n >= 12:
                return
    assert n > 0


def _card_of_another_seat(t: Tamper) -> int | None:
    k = t.first("play")
    st = states(t.match, t.i)[k]
    assert st.to_move is not None
    elsewhere = next(str(c) for c in Deal(st.deck, dealer=st.dealer).hand((st.to_move + 1) % 3))
    return t.put("actions", k, "card", value=elsewhere)


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        pytest.param(_card_of_another_seat, {"R6.2", "R6.1"}, id="card-of-another-seat"),
        pytest.param(
            lambda t: t.insert(t.first("play") + 1, dict(t.acts[t.first("play")])),
            lambda r: r is not None and r.startswith("R6"),
            id="card-played-twice",
        ),
    ],
)
def test_card_not_held(change: Change, rule: RuleCheck) -> None:
    check_tampering(change, rule)


WRONG_SEAT_RULES = {
    "bid": {"R3.2"},
    "pass": {"R3.2", "R5.1"},
    "discard": {"R4.1"},
    "trump": {"R4.2"},
    "surrender": {"R4.3", "R4.2"},
    "whist": {"R5.1"},
    "play": {"R6.1", "R6.2", "R6.3"},
}


@pytest.mark.parametrize("step", [1, 2], ids=["seat+1", "seat+2"])
@pytest.mark.parametrize("kind", ["bid", "pass", "discard", "trump", "whist", "play"])
def test_wrong_seat_for_an_action(kind: str, step: int) -> None:
    """The first action of each kind (every play but the last two) made by another seat."""
    t = Tamper()
    acts = t.acts
    if kind == "play":
        ks = [k for k, a in enumerate(acts) if a["type"] == "play" and k <= len(acts) - 3]
    else:
        ks = [t.first(kind)]
    assert ks
    for k in ks:
        obj = good()
        obj["deals"][t.i]["actions"][k]["seat"] = (acts[k]["seat"] + step) % 3
        rules = WRONG_SEAT_RULES[kind]
        if kind == "pass" and any(x["type"] == "trump" for x in acts[:k]):
            rules = {"R5.1"}
        expect_error(obj, t.i, k, rules)


def _discard_not_held(t: Tamper) -> int | None:
    k = t.first("discard")
    st = states(t.match, t.i)[k]
    assert st.to_move is not None
    not_held = next(c for c in ALL_CODES if Card.parse(c) not in st.hand(st.to_move))
    return t.put("actions", k, "cards", 0, value=not_held)


def _trump_one_below_the_bid(t: Tamper) -> int | None:
    kt = t.first("trump")
    bids = [a["value"] for a in t.acts[:kt] if a["type"] == "bid"]
    return t.put("actions", kt, "value", value=LADDER[LADDER.index(bids[-1]) - 1])


def _bid_in_the_middle(bids: list[str]) -> bool:
    return bool(bids) and bids[-1] not in ("spades", "best-spades")


def _bid_best_spades(bids: list[str]) -> bool:
    return bool(bids) and bids[-1] == "best-spades"


@pytest.mark.parametrize(
    ("deal", "change", "rule"),
    [
        pytest.param(first_played, _discard_not_held, "R4.1", id="discard-card-not-held"),
        pytest.param(
            first_played,
            lambda t: t.put(
                "actions", t.first("discard"), "cards", value=t.acts[t.first("discard")]["cards"][:1]
            ),
            lambda r: r is None or r == "R4.1",
            id="discard-one-card",
        ),
        pytest.param(
            first_played,
            lambda t: t.put(
                "actions", t.first("discard"), "cards", value=[t.acts[t.first("discard")]["cards"][0]] * 2
            ),
            lambda r: r is None or r == "R4.1",
            id="discard-one-card-twice",
        ),
        # a discard skipped: trump named with 12 cards in hand
        pytest.param(
            first_played, lambda t: t.drop("actions", t.first("discard")), "R4.1", id="discard-skipped"
        ),
        # trump: below the bid, or best spades not bid, or another after best spades (R4.2)
        pytest.param(
            played_where(_bid_in_the_middle), _trump_one_below_the_bid, "R4.2", id="trump-below-the-bid"
        ),
        pytest.param(
            played_where(lambda bids: not _bid_best_spades(bids)),
            lambda t: t.put("actions", t.first("trump"), "value", value="best-spades"),
            "R4.2",
            id="trump-best-spades-not-bid",
        ),
        pytest.param(
            played_where(_bid_best_spades),
            lambda t: t.put("actions", t.first("trump"), "value", value="hearts"),
            "R4.2",
            id="trump-hearts-after-best-spades",
        ),
    ],
)
def test_discard_and_trump_breakage(deal: Pick, change: Change, rule: RuleCheck) -> None:
    check_tampering(change, rule, deal=deal)


def test_action_after_the_deal_is_over() -> None:
    t = Tamper()
    n = len(t.acts)
    k = t.insert(n, {"seat": t.entry["result"]["declarer"], "type": "pass"})
    expect_error(t.obj, t.i, k, {"R6.3", "R5.3", "R4.3"})


def test_unfinished_deal_that_is_not_the_last() -> None:
    obj = good()
    obj["deals"][0]["actions"] = obj["deals"][0]["actions"][:-1]
    expect_error_in_deal(obj, 0)


# A changed result: (key, the new value computed from the result).
RESULT_CHANGES: list[tuple[str, str, Callable[[dict[str, Any]], object]]] = [
    ("scores+1", "scores", lambda r: [r["scores"][0] + 1, *r["scores"][1:]]),
    ("scores-swapped", "scores", lambda r: [r["scores"][1], r["scores"][0], r["scores"][2]]),
    ("declarer", "declarer", lambda r: (r["declarer"] + 1) % 3),
    ("outcome", "outcome", lambda r: "uncontested" if r["outcome"] != "uncontested" else "played"),
    ("contract", "contract", lambda r: "clubs" if r["contract"] != "clubs" else "diamonds"),
    ("defenders", "defenders", lambda r: [] if r["defenders"] else [(r["declarer"] + 1) % 3]),
    (
        "tricks",
        "tricks",
        lambda r: [1, 0, 0] if r["tricks"] == [0, 0, 0] else [r["tricks"][1], r["tricks"][0], r["tricks"][2]],
    ),
]


@pytest.mark.parametrize(
    ("key", "new"),
    [
        *(pytest.param(key, new, id=f"result-{name}") for name, key, new in RESULT_CHANGES),
        pytest.param(None, None, id="missing-result"),
    ],
)
def test_result_altered(key: str | None, new: Callable[[dict[str, Any]], object] | None) -> None:
    """The result of every finished deal, changed in the same way (where that changes it),
    or left out."""
    n = 0
    for i, entry in enumerate(good()["deals"]):
        if "result" not in entry:
            continue
        obj = good()
        if key is None or new is None:
            del obj["deals"][i]["result"]
            expect_error_in_deal(obj, i)
        else:
            value = new(entry["result"])
            if value == entry["result"][key]:
                continue
            obj["deals"][i]["result"][key] = value
            expect_error(obj, i, None, lambda x: x is not None and x.startswith("R7"))
        n += 1
    assert n > 0


@pytest.mark.parametrize("change", ["totals+10", "missing-totals"])
def test_totals_altered(change: str) -> None:
    n = 0
    for i, entry in enumerate(good()["deals"]):
        if "totals" not in entry:
            continue
        obj = good()
        if change == "totals+10":
            obj["deals"][i]["totals"][2] += 10
            expect_error(obj, i, None, {"R8.1", "R8.2"})
        else:
            del obj["deals"][i]["totals"]
            expect_error_in_deal(obj, i)
        n += 1
    assert n > 0


@pytest.mark.parametrize(
    ("which", "winners"),
    [
        pytest.param("finished", lambda m: [], id="none"),
        pytest.param("finished", lambda m: [s for s in range(3) if s not in m.winners][:1], id="a-loser"),
        pytest.param("finished", lambda m: [0, 1, 2], id="all-three"),
        pytest.param("redeal", lambda m: [0], id="winner-of-an-unfinished-game"),
    ],
)
def test_winners_wrong(which: str, winners: Callable[[Match], list[int]]) -> None:
    t = Tamper(which)
    wrong = winners(t.match)
    assert wrong != t.obj["winners"]
    t.put_top("winners", value=wrong)
    expect_error(t.obj, None, None, "R8.3")


def test_deal_after_the_end() -> None:
    good_obj = good()
    n = len(good_obj["deals"])
    extra = copy.deepcopy(good_obj["deals"][-1])
    extra["dealer"] = (extra["dealer"] + 1) % 3
    good_obj["deals"].append(extra)
    expect_error(good_obj, n, None, "R8.3")


REDEAL_ENTRY_CHANGES: list[tuple[str, Change]] = [
    ("with-actions", lambda t: t.put("actions", value=[{"seat": 0, "type": "pass"}])),
    ("with-first_bidder", lambda t: t.put("first_bidder", value=0)),
    ("redeal-null", lambda t: t.put("redeal", value=None)),
    ("with-totals", lambda t: t.put("totals", value=[0, 0, 0])),
]


@pytest.mark.parametrize(
    ("deal", "change", "rule"),
    [
        # a spade-sequence or jack-seven-prikup entry with actions / a first bidder / a result
        *(
            pytest.param(deal, change, rule, id=f"{reason}-{name}")
            for deal, rule, reason in ((0, "R1.5", "jack-seven-prikup"), (1, "R1.4", "spade-sequence"))
            for name, change in REDEAL_ENTRY_CHANGES
        ),
        pytest.param(
            0,
            lambda t: t.put("redeal", value="spade-sequence"),
            {"R1.4", "R1.5"},
            id="jack-seven-prikup-as-spade-sequence",
        ),
        # no-jack-no-seven: the passes are kept; no result
        pytest.param(3, lambda t: t.put("redeal", value=None), "R3.4", id="no-jack-no-seven-redeal-null"),
        pytest.param(
            3,
            lambda t: t.put("result", value=copy.deepcopy(t.obj["deals"][2]["result"])),
            "R3.4",
            id="no-jack-no-seven-with-result",
        ),
        pytest.param(
            3,
            lambda t: t.insert(len(t.acts), {"seat": 0, "type": "pass"}),
            "R3.4",
            id="no-jack-no-seven-fourth-pass",
        ),
        # a redeal reason claimed for a deal that is not redealt
        pytest.param(
            2, lambda t: t.put("redeal", value="spade-sequence"), {"R1.4"}, id="played-deal-as-spade-sequence"
        ),
        pytest.param(
            2,
            lambda t: t.put("redeal", value="no-jack-no-seven"),
            {"R3.4"},
            id="played-deal-as-no-jack-no-seven",
        ),
        pytest.param(2, lambda t: t.put("redeal", value="misdeal"), any_rule, id="unknown-redeal-reason"),
    ],
)
def test_redeal_markers_checked(deal: int, change: Change, rule: RuleCheck) -> None:
    check_tampering(change, rule, which="redeal", deal=deal)


@pytest.mark.parametrize(
    "action",
    [pytest.param(0, id="action-0"), pytest.param(5, id="action-5"), pytest.param(-1, id="last-action")],
)
def test_unknown_action_type(action: int) -> None:
    t = Tamper()
    k = action % len(t.acts)
    t.put("actions", k, "type", value="redouble")
    err = expect_error(t.obj, t.i, k, any_rule)
    assert "redouble" in str(err)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda t: t.put("actions", t.first("play"), "card", value="ZZ"), id="play-ZZ"),
        pytest.param(lambda t: t.put("actions", t.first("discard"), "cards", 1, value="ZZ"), id="discard-ZZ"),
        pytest.param(lambda t: t.put("deck", 3, value="ZZ"), id="deck-ZZ"),
        pytest.param(lambda t: t.put("hands", 1, 3, value="ZZ"), id="hand-ZZ"),
        pytest.param(lambda t: t.put("prikup", 0, value="ZZ"), id="prikup-ZZ"),
    ],
)
def test_bad_card_codes(change: Change) -> None:
    """R0.2: records use codes like TH; 'ZZ' is rejected, naming the deal, the action and R0.2."""
    check_tampering(change, "R0.2")


def _played_card(t: Tamper) -> str:
    return str(t.acts[t.first("play")]["card"])


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda t: t.put("actions", t.first("play"), "card", value="ZZ"), id="play-ZZ"),
        # '10H' is accepted only by readers of text, not in records
        pytest.param(
            lambda t: t.put("actions", t.first("play"), "card", value="10" + _played_card(t)[1]),
            id="play-10-for-T",
        ),
        pytest.param(
            lambda t: t.put("actions", t.first("play"), "card", value=_played_card(t).lower()),
            id="play-lower-case",
        ),
        pytest.param(lambda t: t.put("actions", t.first("play"), "card", value=5), id="play-a-number"),
        pytest.param(lambda t: t.put("actions", t.first("play"), "card", value=None), id="play-null"),
        pytest.param(lambda t: t.put("deck", 3, value="ZZ"), id="deck-ZZ"),
    ],
)
def test_bad_card_codes_are_rejected(change: Change) -> None:
    """The same, without asking for the rule: the location must be right."""
    check_tampering(change, any_rule)


@pytest.mark.parametrize("bad", ["no-trump", "gupa", "Hearts", 3])
def test_bad_contract_names(bad: object) -> None:
    check_tampering(
        lambda t: t.put("actions", t.first("trump"), "value", value=bad),
        lambda r: r in (None, "R3.1", "R4.2"),
    )


def _drop_deal_key(key: str) -> Change:
    return lambda t: t.drop(key)


def _drop_action_key(kind: str | None, k: int, key: str) -> Change:
    """Drop ``key`` from the first action of ``kind`` (or from action ``k``)."""
    return lambda t: t.drop("actions", k if kind is None else t.first(kind), key)


@pytest.mark.parametrize(
    "change",
    [
        *(
            pytest.param(_drop_deal_key(key), id=f"missing-key-{key}")
            for key in ("dealer", "deck", "hands", "prikup", "redeal", "actions")
        ),
        pytest.param(lambda t: t.put("comment", value="hi"), id="extra-key-comment"),
        pytest.param(_drop_action_key("play", 0, "card"), id="play-without-card"),
        pytest.param(_drop_action_key("discard", 0, "cards"), id="discard-without-cards"),
        pytest.param(_drop_action_key("trump", 0, "value"), id="trump-without-value"),
        pytest.param(_drop_action_key(None, 0, "seat"), id="action-0-without-seat"),
        pytest.param(_drop_action_key(None, 1, "type"), id="action-1-without-type"),
        pytest.param(
            lambda t: t.put("actions", t.first("whist", "pass"), "card", value="AS"),
            id="whist-or-pass-with-a-card",
        ),
        pytest.param(lambda t: t.put("actions", 0, value="pass"), id="action-as-a-string"),
        pytest.param(lambda t: t.put_top("deals", t.i, value=[]), id="deal-as-a-list"),
    ],
)
def test_missing_and_extra_keys(change: Change) -> None:
    check_tampering(change, any_rule)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        pytest.param(("deals", 0, "dealer"), "0", id="dealer-a-string"),
        pytest.param(("deals", 0, "deck"), "QD 7H", id="deck-a-string"),
        pytest.param(("deals", 0, "hands"), {}, id="hands-an-object"),
        pytest.param(("deals", 0, "actions"), {}, id="actions-an-object"),
        pytest.param(("deals",), {}, id="deals-an-object"),
        pytest.param(("seats",), "a b c", id="seats-a-string"),
    ],
)
def test_wrong_types(path: tuple[str | int, ...], value: object) -> None:
    t = Tamper()
    t.put_top(*path, value=value)
    with pytest.raises(RecordError) as info:
        record.from_record(t.obj)
    if path[0] == "deals" and len(path) > 2:
        assert info.value.deal == path[1]


@pytest.mark.parametrize("which", ["finished", "redeal"])
def test_tampered_record_round_trip_still_exact(which: str) -> None:
    """The untouched record is accepted (the tampering tests start from a valid record)."""
    assert record.dumps(record.from_record(good(which))) == _good_text(which)


def _float_in_deal_0(*path: str) -> Change:
    def change(t: Tamper) -> None:
        value = t.get(*path)
        t.put(*path, value=[float(x) for x in value] if isinstance(value, list) else float(value))

    return change


def _winners_as_floats(t: Tamper) -> None:
    t.put_top("winners", value=[float(s) for s in t.obj["winners"]])


@pytest.mark.parametrize(
    ("change", "deal"),
    [
        pytest.param(_float_in_deal_0("dealer"), 0, id="dealer-a-float"),
        pytest.param(_float_in_deal_0("first_bidder"), 0, id="first_bidder-a-float"),
        pytest.param(_float_in_deal_0("totals"), 0, id="totals-floats"),
        pytest.param(_float_in_deal_0("result", "scores"), 0, id="scores-floats"),
        pytest.param(_winners_as_floats, None, id="winners-floats"),
    ],
)
def test_numbers_must_be_integers(change: Change, deal: int | None) -> None:
    """Seats, dealers, scores and totals are integers in RECORD.md. The reader is strict
    about ``first_dealer`` and an action's ``seat`` (``true`` is rejected there), so the
    other numbers must not pass as ``true`` or ``1.0`` either: such a record would not
    read back to the same text."""
    t = Tamper(deal=0)
    change(t)
    with pytest.raises(RecordError) as info:
        record.from_record(t.obj)
    assert info.value.deal == deal


def test_record_messages_name_json_values_as_json(tmp_path: Path) -> None:
    """A bad value in a record is quoted as JSON writes it: null, not None; "0", not '0'."""
    obj = good()
    obj["first_dealer"] = None
    with pytest.raises(RecordError) as info:
        record.from_record(obj)
    assert "not null" in str(info.value) and "None" not in str(info.value)
    with pytest.raises(RecordError) as info:
        record.from_record([1, 2])
    assert "must be a JSON object, not an array" in str(info.value)


def test_jsonl_names_with_line_separators_stay_on_their_line(tmp_path: Path) -> None:
    """U+2028 inside a string is written unescaped by JSON; a JSON Lines reader must split
    at newlines only, or the record breaks in two."""
    match = finished_game().clone()  # the cached game is shared: change a copy
    match.seats = ("Ana\u2028Bo", "Cy\u2029", "Dé")
    path = tmp_path / "games.jsonl"
    record.write_jsonl(path, [match, match])
    games = record.read_file(path)
    assert [g.seats for g in games] == [match.seats, match.seats]
