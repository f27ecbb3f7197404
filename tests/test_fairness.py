"""The ``paston-deck/1`` shuffle (docs/FAIRNESS.md): golden vectors, the record's
``fairness`` objects checked by the reader and by ``paston verify``, every tampering
caught, and the doc's own verifier listing at work."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.fairness_helpers import DOC, doc_verifier, run_doc_verifier

from cli_helpers import assert_fails, assert_ok, invoke
from helpers import play_out
from paston import fairness as fair
from paston.cards import ALL_CARDS, CardSet
from paston.dealing import deal_cards
from paston.errors import RecordError
from paston.match import Match
from paston.record import from_record, to_record

SECRET = bytes(range(32)).hex()
SEEDS = ["11" * 32, "22" * 32, "33" * 32]


def codes(deck: list[int]) -> str:
    return " ".join(str(ALL_CARDS[c]) for c in deck)


# --- the algorithm can never change silently -----------------------------------------
GOLDEN = [
    (
        0,
        None,
        SEEDS,
        "JC QS JH AH 7H 9S AC KC 9H TC 8D 9C JD KS 9D QH QC 7S TH QD 8S TD 7D 8H KH TS 8C AS KD JS AD 7C",
    ),
    (
        1,
        "ab" * 32,
        SEEDS,
        "7D 9C 7H KS JC TH KC 8H QD KD QS KH AH TC JD JS 8C TS 9S 8D AC TD JH 8S 7C 7S QC 9D 9H QH AS AD",
    ),
    (  # the first shuffle and cut leave 7S at the bottom: both are done again (D1)
        0,
        None,
        [f"{12:064x}", SEEDS[1], SEEDS[2]],
        "JH JD QH 8D 8C JC KH AS 7H KS TD QC 9H 7S 9D QS KD 9S AD 7D 8S 8H JS 9C AC QD TS 7C AH KC TC TH",
    ),
]


@pytest.mark.parametrize(("deal", "previous", "seeds", "expected"), GOLDEN)
def test_golden_vectors(deal: int, previous: str | None, seeds: list[str], expected: str) -> None:
    assert fair.VERSION == "paston-deck/1"
    assert codes(fair.derive_deck(SECRET, "golden", deal, previous, seeds)) == expected
    assert expected in DOC.read_text(encoding="utf-8")  # the doc shows the same vectors


def test_golden_commitment_and_server_seed() -> None:
    assert fair.commitment(SECRET) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert fair.server_seed(SECRET, 0) == "0b7861548b5255c7c0aec36a36fefc14b9e9983f42077c7b2cbb2b71d5d85fda"


def test_the_golden_repeat_vector_really_repeats() -> None:
    """The third vector's first shuffle and cut end with 7S at the bottom."""
    source = fair.stream(SECRET, fair.message("golden", 0, None, GOLDEN[2][2]))
    deck = list(range(32))
    for i in range(31, 0, -1):
        j = fair.uniform(source, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    cut = 1 + fair.uniform(source, 31)
    assert (deck[cut:] + deck[:cut])[31] == fair.SEVEN_OF_SPADES


def test_every_seed_and_the_secret_change_the_deck() -> None:
    base = fair.derive_deck(SECRET, "t", 0, None, SEEDS)
    for seat in range(3):
        seeds = list(SEEDS)
        seeds[seat] = "44" * 32
        assert fair.derive_deck(SECRET, "t", 0, None, seeds) != base
    assert fair.derive_deck("55" * 32, "t", 0, None, SEEDS) != base
    assert fair.derive_deck(SECRET, "u", 0, None, SEEDS) != base
    assert fair.derive_deck(SECRET, "t", 1, None, SEEDS) != base


def test_uniform_is_unbiased_over_a_full_byte_cycle() -> None:
    """Every value 0–255 once: each result of uniform(n) comes equally often."""
    for n in (2, 3, 7, 31, 32):
        source = iter(range(256))
        counts = [0] * n
        for _ in range(256 - 256 % n):
            counts[fair.uniform(source, n)] += 1
        assert len(set(counts)) == 1


# --- records with fairness data ------------------------------------------------------
def fair_game(seed: int, *, by: tuple[str, str, str] = ("seat", "server", "seat")) -> dict[str, Any]:
    """A whole game whose every deal is shuffled by paston-deck/1, as its record."""
    rng = random.Random(seed)
    match = Match(first_dealer=rng.randrange(3), rules=None)
    entries: list[dict[str, Any] | None] = []
    previous = None
    while not match.is_over:
        if match.needs_deck:
            secret = rng.randbytes(32).hex()
            choices = [
                (rng.randbytes(32).hex() if who == "seat" else fair.server_seed(secret, s), who)
                for s, who in enumerate(by)
            ]
            n = len(match.deals)
            match.deal_next(fair.derive_deck(secret, "T1", n, previous, [c for c, _ in choices]))
            entry = fair.make_entry("T1", n, secret, choices, previous)
            entries.append(entry)
            previous = fair.link(entry)
        play_out(match, rng)
    return to_record(match, entries)


@pytest.fixture(scope="module")
def game() -> dict[str, Any]:
    record = fair_game(3)
    assert len(record["deals"]) >= 3
    return record


def test_a_record_with_fairness_data_is_read(game: dict[str, Any]) -> None:
    from_record(game)
    assert all("fairness" in d for d in game["deals"])
    assert game["deals"][0]["fairness"]["previous"] is None
    assert game["deals"][1]["fairness"]["previous"] == fair.link(game["deals"][0]["fairness"])


def _set_seed(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["seeds"][0]["seed"] = "0" * 64


def _server_seed_claimed(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["seeds"][0]["by"] = "server"


def _commitment(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["commitment"] = "1" * 64


def _secret(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["secret"] = "2" * 64


def _chain(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["previous"] = "3" * 64


def _chain_broken_before(g: dict[str, Any]) -> None:
    """An earlier deal's object changed where its own checks cannot see it (the server's
    seed of seat 1 claimed as the seat's): its link changes, so the next deal's breaks."""
    g["deals"][0]["fairness"]["seeds"][1]["by"] = "seat"


def _deck(g: dict[str, Any]) -> None:
    deck = g["deals"][1]["deck"]
    deck[0], deck[1] = deck[1], deck[0]


def _table(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["table"] = "other"


def _deal_index(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["deal"] = 5


def _removed_key(g: dict[str, Any]) -> None:
    del g["deals"][1]["fairness"]["previous"]


def _null(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"] = None


TAMPERINGS: dict[str, tuple[Callable[[dict[str, Any]], None], int, str]] = {
    "seed": (_set_seed, 1, "derive another deck"),
    "seat-seed-claimed-as-server": (_server_seed_claimed, 1, "server's seed for seat 0"),
    "commitment": (_commitment, 1, "does not match its commitment"),
    "secret": (_secret, 1, "does not match its commitment"),
    "chain-link": (_chain, 1, "previous"),
    "earlier-deal": (_chain_broken_before, 1, "previous"),
    "deck": (_deck, 1, "derive another deck"),
    "table": (_table, 1, "derive another deck"),
    "deal-index": (_deal_index, 1, "deal must be 1"),
    "missing-key": (_removed_key, 1, "fairness keys"),
    "null": (_null, 1, "fairness must be a JSON object"),
}


@pytest.mark.parametrize("name", TAMPERINGS)
def test_tampering_is_caught_by_the_reader(name: str, game: dict[str, Any]) -> None:
    tamper, deal, words = TAMPERINGS[name]
    bad = copy.deepcopy(game)
    tamper(bad)
    with pytest.raises(RecordError) as caught:
        from_record(bad)
    err = caught.value
    if name == "deck":  # the deck no longer deals the recorded hands: caught by the replay first
        assert err.deal == deal
        return
    assert (err.deal, err.code) == (deal, "fairness"), str(err)
    assert words in str(err)


@pytest.mark.parametrize("name", TAMPERINGS)
def test_tampering_is_caught_by_paston_verify(name: str, game: dict[str, Any], tmp_path: Path) -> None:
    tamper, deal, words = TAMPERINGS[name]
    bad = copy.deepcopy(game)
    tamper(bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    text = assert_fails(invoke("verify", path), f"deal {deal}: ", "MISMATCH", code=1)
    assert words in text
    checked = invoke("check", path)
    assert checked.exit_code == 1 and f"deal {deal}" in checked.output


def test_every_fairness_object_of_a_game_names_one_table(game: dict[str, Any]) -> None:
    """A deal re-derived for another table (its own deck consistent) is still refused."""
    first, second = copy.deepcopy(game["deals"][0]["fairness"]), copy.deepcopy(game["deals"][1]["fairness"])
    second["table"] = "other"
    deck = fair.derive_deck(
        second["secret"], "other", 1, second["previous"], [s["seed"] for s in second["seeds"]]
    )
    chain = fair.Chain()
    assert chain.check(first, [INDEX[c] for c in game["deals"][0]["deck"]], 0) is None
    assert "is not the game's table 'T1'" in str(chain.check(second, deck, 1))


INDEX = {str(c): c.index for c in ALL_CARDS}


def test_paston_verify_accepts_a_good_record_and_jsonl(game: dict[str, Any], tmp_path: Path) -> None:
    one = tmp_path / "one.json"
    one.write_text(json.dumps(game, indent=2), encoding="utf-8")
    n = len(game["deals"])
    assert f"OK ({n} deals verified)" in assert_ok(invoke("verify", one))
    lines = tmp_path / "two.jsonl"
    other = fair_game(4, by=("server", "server", "server"))
    lines.write_text(json.dumps(game) + "\n" + json.dumps(other) + "\n", encoding="utf-8")
    out = assert_ok(invoke("verify", lines))
    assert "game 0: OK" in out and "game 1: OK" in out
    assert "OK" in assert_ok(invoke("check", lines))


def test_paston_verify_without_fairness_data(tmp_path: Path) -> None:
    match = Match(first_dealer=0, rng=random.Random(2))
    play_out(match, random.Random(2))
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(to_record(match)), encoding="utf-8")
    result = invoke("verify", path)  # nothing to verify: exit 3, not 0 (a script can tell)
    assert result.exit_code == 3, result.output
    assert "no fairness data" in result.output and "nothing to verify" in result.output


def test_paston_verify_partial_fairness_data(game: dict[str, Any], tmp_path: Path) -> None:
    """A deal without fairness data is named; the next deal's chain starts again."""
    partial = copy.deepcopy(game)
    del partial["deals"][0]["fairness"]
    f = partial["deals"][1]["fairness"]
    f["previous"] = None
    deck = fair.derive_deck(f["secret"], f["table"], 1, None, [s["seed"] for s in f["seeds"]])
    partial["deals"][1]["deck"] = [str(ALL_CARDS[c]) for c in deck]
    hands, prikup = deal_cards(deck, partial["deals"][1]["dealer"])  # the cards that deck deals
    partial["deals"][1]["hands"] = [CardSet(h).codes() for h in hands]
    partial["deals"][1]["prikup"] = CardSet(prikup).codes()
    partial["deals"] = partial["deals"][:2]
    partial["deals"][1] = {k: v for k, v in partial["deals"][1].items() if k not in ("result", "totals")}
    partial["deals"][1]["actions"] = []
    partial["deals"][1].pop("first_bidder", None)
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(partial), encoding="utf-8")
    out = assert_ok(invoke("verify", path))
    assert "no fairness data for deals 0: not verified" in out
    assert "OK (1 deal verified)" in out


@pytest.mark.parametrize(
    "text", ["", "not json", '{"format": "paston/1"}', "[1, 2]", '{"deals": 3}\n{"deals": []}']
)
def test_paston_verify_unreadable(text: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert_fails(invoke("verify", path), "cannot read the records", code=2)
    assert_fails(invoke("verify", tmp_path / "missing.json"), "cannot read the records", code=2)


# --- the doc's verifier ----------------------------------------------------------------
def test_the_docs_verifier_is_standard_library_only(tmp_path: Path) -> None:
    source = doc_verifier(tmp_path).read_text(encoding="utf-8")
    imports = re.findall(r"^\s*(?:import|from \S+ import) .*$", source, flags=re.M)
    assert imports == ["import hashlib, hmac, json, sys"]
    assert len(source.splitlines()) < 90


def test_the_docs_verifier_accepts_a_good_record(tmp_path: Path, game: dict[str, Any]) -> None:
    done = run_doc_verifier(tmp_path, game)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(": ok") == len(game["deals"])


@pytest.mark.parametrize("name", ["seed", "commitment", "chain-link", "deck", "seat-seed-claimed-as-server"])
def test_the_docs_verifier_catches_tampering(tmp_path: Path, game: dict[str, Any], name: str) -> None:
    bad = copy.deepcopy(game)
    TAMPERINGS[name][0](bad)
    done = run_doc_verifier(tmp_path, bad)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "deal 1: MISMATCH" in done.stdout


def test_paston_verify_refuses_hands_not_dealt_from_the_verified_deck(
    game: dict[str, Any], tmp_path: Path
) -> None:
    """Once a record whose hands were swapped (or cards traded) still verified: its decks
    matched, and only the decks were checked."""
    for change in ("swap", "trade"):
        forged = copy.deepcopy(game)
        hands = forged["deals"][0]["hands"]
        if change == "swap":
            hands[0], hands[1] = hands[1], hands[0]
        else:  # one card of seat 0's hand traded for a prikup card
            hands[0][0], forged["deals"][0]["prikup"][0] = forged["deals"][0]["prikup"][0], hands[0][0]
        path = tmp_path / f"{change}.json"
        path.write_text(json.dumps(forged), encoding="utf-8")
        result = invoke("verify", path)
        assert result.exit_code == 1, result.output
        assert "deal 0: R1.3:" in result.output and "MISMATCH" in result.output
