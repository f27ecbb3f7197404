"""Game records (RECORD.md): what the writer produces, the RECORD.md example, and JSON
Lines files."""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from helpers import ALL_CODES, hands_of, play_out, round_trip
from paston import record
from paston.errors import RecordError
from paston.match import Match
from paston.rules import Rules
from record_helpers import (
    ACTION_KEYS,
    DEAL_KEYS,
    LADDER,
    RESULT_KEYS,
    RULE_KEYS,
    TOP_KEYS,
    _good_text,
    cards,
    expect_error,
    finished_game,
    has_sequence,
    make_deck,
    random_game,
    rec,
    redeal_game,
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


def test_jsonl_names_with_line_separators_stay_on_their_line(tmp_path: Path) -> None:
    """U+2028 inside a string is written unescaped by JSON; a JSON Lines reader must split
    at newlines only, or the record breaks in two."""
    match = finished_game().clone()  # the cached game is shared: change a copy
    match.seats = ("Ana\u2028Bo", "Cy\u2029", "Dé")
    path = tmp_path / "games.jsonl"
    record.write_jsonl(path, [match, match])
    games = record.read_file(path)
    assert [g.seats for g in games] == [match.seats, match.seats]
