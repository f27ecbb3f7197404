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
ALL_CODES = [r + s for s in "SCDH" for r in "789TJQKA"]
SEQUENCE = ["7S", "8S", "9S", "TS", "JS", "QS"]

# R1.3: deck positions of the dealer's left (L), right (M) and the dealer (D).
GROUPS = (
    (0, 1, 8, 9, 14, 15, 20, 21, 26, 27),
    (2, 3, 10, 11, 16, 17, 22, 23, 28, 29),
    (4, 5, 12, 13, 18, 19, 24, 25, 30, 31),
)


def positions(seat: int, dealer: int) -> tuple[int, ...]:
    return GROUPS[(seat - dealer - 1) % 3]


def hands_of(deck: list[str], dealer: int) -> list[list[str]]:
    return [[deck[p] for p in positions(s, dealer)] for s in range(3)]


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
        free = [p for p in positions(s, dealer) if p not in want]
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


def choose(rng: random.Random, deal: Deal, bid_prob: float = 0.55) -> Any:
    legal = deal.legal_actions()
    kinds = {a.kind for a in legal}
    if Kind.BID in kinds:
        want = Kind.BID if rng.random() < bid_prob else Kind.PASS
        return next(a for a in legal if a.kind is want)
    if Kind.WHIST in kinds:
        want = Kind.WHIST if rng.random() < 0.65 else Kind.PASS
        return next(a for a in legal if a.kind is want)
    if Kind.TRUMP in kinds:
        if rng.random() < 0.08:
            return next(a for a in legal if a.kind is Kind.SURRENDER)
        return rng.choice([a for a in legal if a.kind is Kind.TRUMP])
    return rng.choice(legal)


def play_out(
    match: Match, rng: random.Random, max_actions: int | None = None, bid_prob: float = 0.55
) -> None:
    n = 0
    while match.deal is not None and (max_actions is None or n < max_actions):
        deal = match.deal
        match.apply(choose(rng, deal, bid_prob), deal.to_move)
        n += 1


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
    return json.loads(record.dumps(match))


def expect_error(
    obj: object,
    deal: int | None,
    action: int | None,
    rule: str | set[str] | Callable[[str | None], bool] | None,
) -> RecordError:
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


def states(match: Match, i: int) -> list[Deal]:
    """The states of deal i before each of its actions."""
    return [d for (j, _k, d) in record.iter_states(match) if j == i][:-1]


def first_index(actions: list[dict[str, Any]], pred: Callable[[dict[str, Any]], bool]) -> int:
    return next(k for k, a in enumerate(actions) if pred(a))


def played_deal_index(match: Match, start: int = 0) -> int:
    return next(
        i
        for i, d in enumerate(match.deals)
        if i >= start and d.result is not None and d.result.outcome == "played"
    )


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
    again = record.from_record(obj)
    assert record.dumps(again) == record.dumps(m)
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
    again = record.from_record(obj)
    assert record.dumps(again) == record.dumps(m)
    assert again.to_move == m.to_move and again.legal_actions() == m.legal_actions()
    # a game with no action yet, and one with no deal at all
    fresh = Match(first_dealer=0, rng=random.Random(1))
    assert record.dumps(record.loads(record.dumps(fresh))) == record.dumps(fresh)
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
    assert record.dumps(record.from_record(obj)) == record.dumps(m)
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
    good = record.dumps(finished_game())
    bad = rec(finished_game())
    bad["deals"][1]["result"]["scores"][0] += 1
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join([good, good, json.dumps(bad), "not json", good]) + "\n", encoding="utf-8")
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
# The reader rejects broken records.


def test_not_json_and_not_an_object() -> None:
    for text in ("{not json", "", "[1, 2]", '"paston/1"', "null"):
        with pytest.raises(RecordError) as info:
            record.loads(text)
        assert info.value.deal is None and info.value.action is None


def test_top_level_breakage() -> None:
    good = rec(finished_game())
    for key in TOP_KEYS:
        obj = copy.deepcopy(good)
        del obj[key]
        expect_error(obj, None, None, lambda r: True)
    obj = copy.deepcopy(good)
    obj["extra"] = 1
    expect_error(obj, None, None, lambda r: True)
    obj = copy.deepcopy(good)
    obj["format"] = "paston/2"
    expect_error(obj, None, None, lambda r: True)
    obj = copy.deepcopy(good)
    obj["rules"]["lone_defender"] = "steep"
    expect_error(obj, None, None, lambda r: True)
    obj = copy.deepcopy(good)
    obj["rules"]["no_trump"] = True
    expect_error(obj, None, None, lambda r: True)
    obj = copy.deepcopy(good)
    obj["seats"] = ["a", "b"]
    expect_error(obj, None, None, "R0.1")
    obj = copy.deepcopy(good)
    obj["first_dealer"] = 3
    expect_error(obj, None, None, "R1.1")


def test_wrong_dealer() -> None:
    m = finished_game()
    good = rec(m)
    # first deal: the record's first_dealer deals (R1.1)
    obj = copy.deepcopy(good)
    obj["deals"][0]["dealer"] = (obj["deals"][0]["dealer"] + 1) % 3
    expect_error(obj, 0, None, "R1.1")
    obj = copy.deepcopy(good)
    obj["first_dealer"] = (obj["first_dealer"] + 1) % 3
    expect_error(obj, 0, None, "R1.1")
    # second deal: the first bidder of the first deal deals (R2.2)
    i = next(k for k, d in enumerate(m.deals) if d.redeal is None) + 1
    obj = copy.deepcopy(good)
    obj["deals"][i]["dealer"] = (obj["deals"][i]["dealer"] + 1) % 3
    expect_error(obj, i, None, "R2.2")
    # later: the deal passes one seat clockwise (R2.3)
    j = len(good["deals"]) - 1
    assert j > i
    obj = copy.deepcopy(good)
    obj["deals"][j]["dealer"] = (obj["deals"][j]["dealer"] + 1) % 3
    expect_error(obj, j, None, "R2.3")


def test_wrong_dealer_after_redeals() -> None:
    good = rec(redeal_game())
    for i in (1, 2, 4):  # each follows a redeal: the same dealer deals again (R1.6)
        obj = copy.deepcopy(good)
        obj["deals"][i]["dealer"] = (obj["deals"][i]["dealer"] + 1) % 3
        expect_error(obj, i, None, "R1.6")


def test_wrong_dealer_rotate_variant() -> None:
    m = random_game(3, Rules(target=40, second_dealer="rotate"), first_dealer=2)
    good = rec(m)
    i = next(k for k, d in enumerate(m.deals) if d.redeal is None) + 1
    assert good["deals"][i]["dealer"] == 0  # R2.2 rotate: the first dealer's left
    obj = copy.deepcopy(good)
    obj["deals"][i]["dealer"] = good["deals"][i - 1]["first_bidder"]
    if obj["deals"][i]["dealer"] == 0:
        obj["deals"][i]["dealer"] = 1
    expect_error(obj, i, None, "R2.2")


def rewrite_deck(entry: dict[str, Any], deck: list[str]) -> None:
    entry["deck"] = deck
    entry["hands"] = hands_of(deck, entry["dealer"])
    entry["prikup"] = deck[6:8]


def test_bottom_card_seven_of_spades() -> None:
    good = rec(finished_game())
    for i in (0, 2):
        obj = copy.deepcopy(good)
        deck = list(obj["deals"][i]["deck"])
        k = deck.index("7S")
        deck[k], deck[31] = deck[31], deck[k]
        rewrite_deck(obj["deals"][i], deck)  # hands and prikup consistent with the new deck
        expect_error(obj, i, None, "R1.2")


def test_duplicate_card_in_deck() -> None:
    good = rec(finished_game())
    obj = copy.deepcopy(good)
    deck = list(obj["deals"][1]["deck"])
    deck[5] = deck[4]
    rewrite_deck(obj["deals"][1], deck)
    expect_error(obj, 1, None, {"R0.2", "R1.2"})
    obj = copy.deepcopy(good)
    obj["deals"][1]["deck"] = obj["deals"][1]["deck"][:31]
    expect_error(obj, 1, None, {"R0.2", "R1.2", "R1.3"})


def test_hands_and_prikup_must_match_the_deck() -> None:
    good = rec(finished_game())
    obj = copy.deepcopy(good)
    h = obj["deals"][0]["hands"]
    h[0][0], h[1][0] = h[1][0], h[0][0]
    expect_error(obj, 0, None, "R1.3")
    obj = copy.deepcopy(good)
    e = obj["deals"][2]
    e["prikup"][0], e["hands"][1][3] = e["hands"][1][3], e["prikup"][0]
    expect_error(obj, 2, None, "R1.3")
    obj = copy.deepcopy(good)
    obj["deals"][1]["hands"][2] = obj["deals"][1]["hands"][2][:9]
    expect_error(obj, 1, None, "R1.3")
    obj = copy.deepcopy(good)
    obj["deals"][1]["hands"][2][4] = obj["deals"][1]["hands"][2][3]
    expect_error(obj, 1, None, "R1.3")
    # a deck consistent with hands and prikup but not the one the hands came from
    obj = copy.deepcopy(good)
    deck = obj["deals"][0]["deck"]
    deck[0], deck[2] = deck[2], deck[0]  # moves a card from L to M
    expect_error(obj, 0, None, "R1.3")


def test_wrong_first_bidder() -> None:
    m = finished_game()
    good = rec(m)
    i0 = next(k for k, d in enumerate(m.deals) if d.redeal is None)
    obj = copy.deepcopy(good)
    obj["deals"][i0]["first_bidder"] = (obj["deals"][i0]["first_bidder"] + 1) % 3
    expect_error(obj, i0, None, "R2.1")
    obj = copy.deepcopy(good)
    del obj["deals"][i0]["first_bidder"]
    expect_error(obj, i0, None, "R2.1")
    i1 = i0 + 1
    obj = copy.deepcopy(good)
    obj["deals"][i1]["first_bidder"] = (obj["deals"][i1]["first_bidder"] + 1) % 3
    expect_error(obj, i1, None, "R2.3")


def test_illegal_bids() -> None:
    m = finished_game()
    good = rec(m)
    for i, entry in enumerate(good["deals"]):
        if entry["redeal"] is not None or not entry["actions"]:
            continue
        acts = entry["actions"]
        # the first bid must be spades (R3.2)
        k = first_index(acts, lambda a: a["type"] in ("bid", "pass"))
        obj = copy.deepcopy(good)
        obj["deals"][i]["actions"][k] = {"seat": acts[k]["seat"], "type": "bid", "value": "clubs"}
        expect_error(obj, i, k, "R3.2")
        # no jumps and no repeats (R3.2)
        bids = [k for k, a in enumerate(acts) if a["type"] == "bid"]
        if bids:
            k = bids[-1]
            level = LADDER.index(acts[k]["value"])
            for wrong in {level - 1, level + 1} - {level}:
                if 0 <= wrong < 5 and not (wrong == 0 and k == bids[0]):
                    obj = copy.deepcopy(good)
                    obj["deals"][i]["actions"][k]["value"] = LADDER[wrong]
                    expect_error(obj, i, k, "R3.2")
        # an auction action that is not pass or bid
        obj = copy.deepcopy(good)
        obj["deals"][i]["actions"][0] = {"seat": acts[0]["seat"], "type": "whist"}
        expect_error(obj, i, 0, {"R3.2", "R3.3"})


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


def test_revoke_in_play() -> None:
    m = finished_game()
    good = rec(m)
    n = 0
    for i, _deal in enumerate(m.deals):
        for k, st in enumerate(states(m, i)):
            if st.phase is not Phase.PLAY or not st.current_trick:
                continue
            lead = st.current_trick[0][1].suit
            hand = list(st.hand(st.to_move))
            follow = [c for c in hand if c.suit == lead]
            trumps = [c for c in hand if c.suit == st.trump_suit]
            other = [c for c in hand if c.suit != lead]
            if follow and other:  # R6.2: must follow suit
                obj = copy.deepcopy(good)
                obj["deals"][i]["actions"][k]["card"] = str(other[0])
                expect_error(obj, i, k, "R6.2")
                n += 1
            elif not follow and trumps and len(trumps) < len(hand):  # R6.2: must trump
                obj = copy.deepcopy(good)
                obj["deals"][i]["actions"][k]["card"] = str(next(c for c in hand if c not in trumps))
                expect_error(obj, i, k, "R6.2")
                n += 1
            if n >= 12:
                return
    assert n > 0


def test_card_not_held() -> None:
    m = finished_game()
    good = rec(m)
    i = played_deal_index(m)
    acts = good["deals"][i]["actions"]
    k = first_index(acts, lambda a: a["type"] == "play")
    st = states(m, i)[k]
    elsewhere = next(str(c) for c in Deal(st.deck, dealer=st.dealer).hand((st.to_move + 1) % 3))
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"][k]["card"] = elsewhere
    expect_error(obj, i, k, {"R6.2", "R6.1"})
    # a card played twice
    k2 = k + 1
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"].insert(k2, dict(acts[k]))
    expect_error(obj, i, k2, lambda r: r is not None and r.startswith("R6"))


def test_wrong_seat_for_an_action() -> None:
    m = finished_game()
    good = rec(m)
    i = played_deal_index(m)
    acts = good["deals"][i]["actions"]
    expected = {
        "bid": {"R3.2"},
        "pass": {"R3.2", "R5.1"},
        "discard": {"R4.1"},
        "trump": {"R4.2"},
        "surrender": {"R4.3", "R4.2"},
        "whist": {"R5.1"},
        "play": {"R6.1", "R6.2", "R6.3"},
    }
    seen = set()
    for k, a in enumerate(acts):
        if a["type"] in seen and a["type"] != "play":
            continue
        if a["type"] == "play" and k > len(acts) - 3:
            continue
        seen.add(a["type"])
        for wrong in ((a["seat"] + 1) % 3, (a["seat"] + 2) % 3):
            obj = copy.deepcopy(good)
            obj["deals"][i]["actions"][k]["seat"] = wrong
            rules = expected[a["type"]]
            if a["type"] == "pass" and any(x["type"] == "trump" for x in acts[:k]):
                rules = {"R5.1"}
            expect_error(obj, i, k, rules)
    assert {"bid", "discard", "trump", "whist", "play"} <= seen or {"pass", "discard", "play"} <= seen


def test_discard_and_trump_breakage() -> None:
    m = finished_game()
    good = rec(m)
    i = played_deal_index(m)
    acts = good["deals"][i]["actions"]
    k = first_index(acts, lambda a: a["type"] == "discard")
    st = states(m, i)[k]
    not_held = next(c for c in ALL_CODES if Card.parse(c) not in st.hand(st.to_move))
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"][k]["cards"][0] = not_held
    expect_error(obj, i, k, "R4.1")
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"][k]["cards"] = acts[k]["cards"][:1]
    expect_error(obj, i, k, lambda r: r is None or r == "R4.1")
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"][k]["cards"] = [acts[k]["cards"][0]] * 2
    expect_error(obj, i, k, lambda r: r is None or r == "R4.1")
    # a discard skipped: trump named with 12 cards in hand
    obj = copy.deepcopy(good)
    del obj["deals"][i]["actions"][k]
    expect_error(obj, i, k, "R4.1")
    # trump: below the bid, or best spades not bid (R4.2)
    kt = first_index(acts, lambda a: a["type"] == "trump")
    bids = [a["value"] for a in acts[:kt] if a["type"] == "bid"]
    if bids and bids[-1] != "spades" and bids[-1] != "best-spades":
        obj = copy.deepcopy(good)
        obj["deals"][i]["actions"][kt]["value"] = LADDER[LADDER.index(bids[-1]) - 1]
        expect_error(obj, i, kt, "R4.2")
    if not bids or bids[-1] != "best-spades":
        obj = copy.deepcopy(good)
        obj["deals"][i]["actions"][kt]["value"] = "best-spades"
        expect_error(obj, i, kt, "R4.2")
    else:
        obj = copy.deepcopy(good)
        obj["deals"][i]["actions"][kt]["value"] = "hearts"
        expect_error(obj, i, kt, "R4.2")


def test_action_after_the_deal_is_over() -> None:
    m = finished_game()
    good = rec(m)
    i = played_deal_index(m)
    n = len(good["deals"][i]["actions"])
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"].append({"seat": good["deals"][i]["result"]["declarer"], "type": "pass"})
    expect_error(obj, i, n, {"R6.3", "R5.3", "R4.3"})


def test_unfinished_deal_that_is_not_the_last() -> None:
    good = rec(finished_game())
    obj = copy.deepcopy(good)
    obj["deals"][0]["actions"] = obj["deals"][0]["actions"][:-1]
    with pytest.raises(RecordError) as info:
        record.from_record(obj)
    assert info.value.deal == 0


def test_result_altered() -> None:
    m = finished_game()
    good = rec(m)
    for i, entry in enumerate(good["deals"]):
        if "result" not in entry:
            continue
        r = entry["result"]
        changes: list[tuple[str, Any]] = [
            ("scores", [r["scores"][0] + 1, *r["scores"][1:]]),
            ("scores", [r["scores"][1], r["scores"][0], r["scores"][2]]),
            ("declarer", (r["declarer"] + 1) % 3),
            ("outcome", "uncontested" if r["outcome"] != "uncontested" else "played"),
            ("contract", "clubs" if r["contract"] != "clubs" else "diamonds"),
            ("defenders", [] if r["defenders"] else [(r["declarer"] + 1) % 3]),
            (
                "tricks",
                [1, 0, 0] if r["tricks"] == [0, 0, 0] else [r["tricks"][1], r["tricks"][0], r["tricks"][2]],
            ),
        ]
        for key, value in changes:
            if value == r[key]:
                continue
            obj = copy.deepcopy(good)
            obj["deals"][i]["result"][key] = value
            expect_error(obj, i, None, lambda x: x is not None and x.startswith("R7"))
        obj = copy.deepcopy(good)
        del obj["deals"][i]["result"]
        with pytest.raises(RecordError) as info:
            record.from_record(obj)
        assert info.value.deal == i


def test_totals_altered() -> None:
    good = rec(finished_game())
    for i, entry in enumerate(good["deals"]):
        if "totals" not in entry:
            continue
        obj = copy.deepcopy(good)
        obj["deals"][i]["totals"][2] += 10
        expect_error(obj, i, None, {"R8.1", "R8.2"})
        obj = copy.deepcopy(good)
        del obj["deals"][i]["totals"]
        with pytest.raises(RecordError) as info:
            record.from_record(obj)
        assert info.value.deal == i


def test_winners_wrong() -> None:
    m = finished_game()
    good = rec(m)
    for wrong in ([], [s for s in range(3) if s not in m.winners][:1], [0, 1, 2]):
        if wrong == good["winners"]:
            continue
        obj = copy.deepcopy(good)
        obj["winners"] = wrong
        expect_error(obj, None, None, "R8.3")
    unfinished = rec(redeal_game())
    unfinished["winners"] = [0]
    expect_error(unfinished, None, None, "R8.3")


def test_deal_after_the_end() -> None:
    m = finished_game()
    good = rec(m)
    n = len(good["deals"])
    extra = copy.deepcopy(good["deals"][-1])
    extra["dealer"] = (extra["dealer"] + 1) % 3
    obj = copy.deepcopy(good)
    obj["deals"].append(extra)
    expect_error(obj, n, None, "R8.3")


def test_redeal_markers_checked() -> None:
    m = redeal_game()
    good = rec(m)
    # a spade-sequence or jack-seven-prikup entry with actions / a first bidder / a result
    for i, rule in ((0, "R1.5"), (1, "R1.4")):
        obj = copy.deepcopy(good)
        obj["deals"][i]["actions"] = [{"seat": 0, "type": "pass"}]
        expect_error(obj, i, None, rule)
        obj = copy.deepcopy(good)
        obj["deals"][i]["first_bidder"] = 0
        expect_error(obj, i, None, rule)
        obj = copy.deepcopy(good)
        obj["deals"][i]["redeal"] = None
        expect_error(obj, i, None, rule)
        obj = copy.deepcopy(good)
        obj["deals"][i]["totals"] = [0, 0, 0]
        expect_error(obj, i, None, rule)
    obj = copy.deepcopy(good)
    obj["deals"][0]["redeal"] = "spade-sequence"
    expect_error(obj, 0, None, {"R1.4", "R1.5"})
    # no-jack-no-seven: the passes are kept; no result
    obj = copy.deepcopy(good)
    obj["deals"][3]["redeal"] = None
    expect_error(obj, 3, None, "R3.4")
    obj = copy.deepcopy(good)
    obj["deals"][3]["result"] = copy.deepcopy(good["deals"][2]["result"])
    expect_error(obj, 3, None, "R3.4")
    obj = copy.deepcopy(good)
    obj["deals"][3]["actions"].append({"seat": 0, "type": "pass"})
    expect_error(obj, 3, 3, "R3.4")
    # a redeal reason claimed for a deal that is not redealt
    obj = copy.deepcopy(good)
    obj["deals"][2]["redeal"] = "spade-sequence"
    expect_error(obj, 2, None, {"R1.4"})
    obj = copy.deepcopy(good)
    obj["deals"][2]["redeal"] = "no-jack-no-seven"
    expect_error(obj, 2, None, {"R3.4"})
    obj = copy.deepcopy(good)
    obj["deals"][2]["redeal"] = "misdeal"
    with pytest.raises(RecordError) as info:
        record.from_record(obj)
    assert info.value.deal == 2


def test_unknown_action_type() -> None:
    m = finished_game()
    good = rec(m)
    i = played_deal_index(m)
    for k in (0, 5, len(good["deals"][i]["actions"]) - 1):
        obj = copy.deepcopy(good)
        obj["deals"][i]["actions"][k]["type"] = "redouble"
        err = expect_error(obj, i, k, lambda r: True)
        assert "redouble" in str(err)


def test_bad_card_codes() -> None:
    """R0.2: records use codes like TH; 'ZZ' (or '10H', which only readers of text accept)
    is rejected, naming the deal, the action and R0.2."""
    m = finished_game()
    good = rec(m)
    i = played_deal_index(m)
    acts = good["deals"][i]["actions"]
    k = first_index(acts, lambda a: a["type"] == "play")
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"][k]["card"] = "ZZ"
    expect_error(obj, i, k, "R0.2")
    kd = first_index(acts, lambda a: a["type"] == "discard")
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"][kd]["cards"][1] = "ZZ"
    expect_error(obj, i, kd, "R0.2")
    obj = copy.deepcopy(good)
    obj["deals"][i]["deck"][3] = "ZZ"
    expect_error(obj, i, None, "R0.2")
    obj = copy.deepcopy(good)
    obj["deals"][i]["hands"][1][3] = "ZZ"
    expect_error(obj, i, None, "R0.2")
    obj = copy.deepcopy(good)
    obj["deals"][i]["prikup"][0] = "ZZ"
    expect_error(obj, i, None, "R0.2")


def test_bad_card_codes_are_rejected() -> None:
    """The same, without asking for the rule: the location must be right."""
    m = finished_game()
    good = rec(m)
    i = played_deal_index(m)
    acts = good["deals"][i]["actions"]
    k = first_index(acts, lambda a: a["type"] == "play")
    for bad in ("ZZ", "10" + acts[k]["card"][1], acts[k]["card"].lower(), 5, None):
        obj = copy.deepcopy(good)
        obj["deals"][i]["actions"][k]["card"] = bad
        expect_error(obj, i, k, lambda r: True)
    obj = copy.deepcopy(good)
    obj["deals"][i]["deck"][3] = "ZZ"
    expect_error(obj, i, None, lambda r: True)


def test_bad_contract_names() -> None:
    m = finished_game()
    good = rec(m)
    i = played_deal_index(m)
    acts = good["deals"][i]["actions"]
    k = first_index(acts, lambda a: a["type"] == "trump")
    for bad in ("no-trump", "gupa", "Hearts", 3):
        obj = copy.deepcopy(good)
        obj["deals"][i]["actions"][k]["value"] = bad
        expect_error(obj, i, k, lambda r: r in (None, "R3.1", "R4.2"))


def test_missing_and_extra_keys() -> None:
    m = finished_game()
    good = rec(m)
    i = played_deal_index(m)
    for key in ("dealer", "deck", "hands", "prikup", "redeal", "actions"):
        obj = copy.deepcopy(good)
        del obj["deals"][i][key]
        expect_error(obj, i, None, lambda r: True)
    obj = copy.deepcopy(good)
    obj["deals"][i]["comment"] = "hi"
    expect_error(obj, i, None, lambda r: True)
    acts = good["deals"][i]["actions"]
    for k, key in (
        (first_index(acts, lambda a: a["type"] == "play"), "card"),
        (first_index(acts, lambda a: a["type"] == "discard"), "cards"),
        (first_index(acts, lambda a: a["type"] == "trump"), "value"),
        (0, "seat"),
        (1, "type"),
    ):
        obj = copy.deepcopy(good)
        del obj["deals"][i]["actions"][k][key]
        expect_error(obj, i, k, lambda r: True)
    k = first_index(acts, lambda a: a["type"] == "whist" or a["type"] == "pass")
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"][k]["card"] = "AS"
    expect_error(obj, i, k, lambda r: True)
    obj = copy.deepcopy(good)
    obj["deals"][i]["actions"][0] = "pass"
    expect_error(obj, i, 0, lambda r: True)
    obj = copy.deepcopy(good)
    obj["deals"][i] = []
    expect_error(obj, i, None, lambda r: True)


def test_wrong_types() -> None:
    good = rec(finished_game())
    for path, value in (
        (("deals", 0, "dealer"), "0"),
        (("deals", 0, "deck"), "QD 7H"),
        (("deals", 0, "hands"), {}),
        (("deals", 0, "actions"), {}),
        (("deals",), {}),
        (("seats",), "a b c"),
    ):
        obj = copy.deepcopy(good)
        target: Any = obj
        for p in path[:-1]:
            target = target[p]
        target[path[-1]] = value
        with pytest.raises(RecordError) as info:
            record.from_record(obj)
        if path[0] == "deals" and len(path) > 2:
            assert info.value.deal == path[1]


def test_tampered_record_round_trip_still_exact() -> None:
    """The untouched record is accepted (the tampering tests start from a valid record)."""
    for m in (finished_game(), redeal_game()):
        obj = rec(m)
        assert record.dumps(record.from_record(obj)) == record.dumps(m)


def test_numbers_must_be_integers() -> None:
    """Seats, dealers, scores and totals are integers in RECORD.md. The reader is strict
    about ``first_dealer`` and an action's ``seat`` (``true`` is rejected there), so the
    other numbers must not pass as ``true`` or ``1.0`` either: such a record would not
    read back to the same text."""
    m = finished_game()
    good = rec(m)
    d0 = good["deals"][0]
    cases: list[tuple[str, Callable[[dict[str, Any]], None], int | None]] = [
        ("dealer as a float", lambda o: o["deals"][0].__setitem__("dealer", float(d0["dealer"])), 0),
        (
            "first_bidder as a float",
            lambda o: o["deals"][0].__setitem__("first_bidder", float(d0["first_bidder"])),
            0,
        ),
        (
            "totals as floats",
            lambda o: o["deals"][0].__setitem__("totals", [float(t) for t in d0["totals"]]),
            0,
        ),
        (
            "scores as floats",
            lambda o: o["deals"][0]["result"].__setitem__(
                "scores", [float(t) for t in d0["result"]["scores"]]
            ),
            0,
        ),
        ("winners as floats", lambda o: o.__setitem__("winners", [float(s) for s in good["winners"]]), None),
    ]
    accepted = []
    for name, change, deal in cases:
        obj = copy.deepcopy(good)
        change(obj)
        try:
            record.from_record(obj)
        except RecordError as err:
            assert err.deal == deal, name
        else:
            accepted.append(name)
    assert not accepted, f"accepted: {accepted}"


def test_record_messages_name_json_values_as_json(tmp_path: Path) -> None:
    """A bad value in a record is quoted as JSON writes it: null, not None; "0", not '0'."""
    obj = rec(finished_game())
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
    match = finished_game()
    match.seats = ("Ana\u2028Bo", "Cy\u2029", "Dé")
    path = tmp_path / "games.jsonl"
    record.write_jsonl(path, [match, match])
    games = record.read_file(path)
    assert [g.seats for g in games] == [match.seats, match.seats]
