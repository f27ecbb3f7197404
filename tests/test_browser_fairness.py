"""The browser checks its own seeds (docs/FAIRNESS.md, "Checked in your browser"): the
page's verifier (static/fairness.js) run in chromium gives exactly what the Python one
(paston.fairness) gives, on the document's test vectors and on real records, and its
check of a deal (``checkDeal``) catches every tampering; the seeds a page sends are kept
in localStorage, bounded, and sent again for the same commitment."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest
from playwright.sync_api import Page
from tests.fairness_helpers import DOC

from browser_helpers import LiveServer, Opener, browser, open_page, server
from helpers import play_out
from paston import fairness as fair
from paston.cards import ALL_CARDS
from paston.match import Match
from paston.record import to_record

__all__ = ["browser", "open_page", "server"]  # the fixtures, imported for pytest

SECRET = bytes(range(32)).hex()
SEEDS = ["11" * 32, "22" * 32, "33" * 32]

INDEX = {str(c): i for i, c in enumerate(ALL_CARDS)}
JS_DECK = """async ([secret, table, deal, previous, seeds]) => {
  const f = await import('/static/fairness.js');
  const deck = await f.deriveDeck(secret, table, deal, previous, seeds);
  return deck.map((c) => f.CARDS[c]);
}"""


def codes(deck: list[int]) -> list[str]:
    return [str(ALL_CARDS[c]) for c in deck]


def doc_vectors() -> list[tuple[int, str | None, list[str], list[str]]]:
    """The three decks of FAIRNESS.md's test vectors, read from the document itself."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Test vectors") : text.index("## The record's")]
    lines = re.findall(r"^    ((?:[2-9TJQKA][SCDH] ){31}[2-9TJQKA][SCDH])$", section, re.M)
    decks = [line.split() for line in lines]
    assert len(decks) == 3, decks
    seeds12 = [f"{12:064x}", SEEDS[1], SEEDS[2]]
    return [(0, None, SEEDS, decks[0]), (1, "ab" * 32, SEEDS, decks[1]), (0, None, seeds12, decks[2])]


@pytest.fixture()
def page(server: LiveServer, open_page: Opener) -> Page:
    p = open_page()
    p.goto(server.url + "/")
    return p


def test_the_documents_vectors_in_the_page(page: Page) -> None:
    for deal, previous, seeds, expected in doc_vectors():
        assert codes(fair.derive_deck(SECRET, "golden", deal, previous, seeds)) == expected
        assert page.evaluate(JS_DECK, [SECRET, "golden", deal, previous, seeds]) == expected
    got = page.evaluate(
        """async (secret) => { const f = await import('/static/fairness.js');
                                return [await f.commitment(secret), await f.serverSeed(secret, 0)]; }""",
        SECRET,
    )
    assert got == [
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "0b7861548b5255c7c0aec36a36fefc14b9e9983f42077c7b2cbb2b71d5d85fda",
    ]
    assert got == [fair.commitment(SECRET), fair.server_seed(SECRET, 0)]


def test_random_inputs_give_the_pythons_decks_seeds_and_links(page: Page) -> None:
    rng = random.Random(22)
    cases = []
    for n in range(40):
        secret = rng.randbytes(32).hex()
        table = rng.choice(["T1", "Qx3n_b2K8sPz", "ñandú-表", "a" * 64])  # UTF-8 table ids too
        previous = None if n % 3 == 0 else rng.randbytes(32).hex()
        seeds = [rng.randbytes(32).hex() for _ in range(3)]
        entry = fair.make_entry(table, n, secret, [(s, rng.choice(fair.CHOOSERS)) for s in seeds], previous)
        cases.append([secret, table, n, previous, seeds, entry])
    got = page.evaluate(
        """async (cases) => { const f = await import('/static/fairness.js');
          const out = [];
          for (const [secret, table, deal, previous, seeds, entry] of cases) {
            out.push({deck: await f.deriveDeck(secret, table, deal, previous, seeds),
                      commit: await f.commitment(secret),
                      server: await Promise.all([0, 1, 2].map((s) => f.serverSeed(secret, s))),
                      link: await f.link(entry)});
          }
          return out; }""",
        cases,
    )
    for (secret, table, n, previous, seeds, entry), js in zip(cases, got, strict=True):
        assert js["deck"] == fair.derive_deck(secret, table, n, previous, seeds)
        assert js["commit"] == fair.commitment(secret)
        assert js["server"] == [fair.server_seed(secret, s) for s in range(3)]
        assert js["link"] == fair.link(entry)


def fair_game(seed: int) -> dict[str, Any]:
    """A whole game whose every deal is shuffled by paston-deck/1 (seat 0 and 2 send
    seeds, seat 1 gets the server's), as its record."""
    rng = random.Random(seed)
    match = Match(first_dealer=rng.randrange(3), rules=None)
    entries: list[dict[str, Any] | None] = []
    previous = None
    while not match.is_over:
        if match.needs_deck:
            secret = rng.randbytes(32).hex()
            by = ("seat", "server", "seat")
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


CHECK_RECORD = """async ([record, seat, seeds]) => {
  const f = await import('/static/fairness.js');
  const out = [];
  let previous = null;
  for (const [i, deal] of record.deals.entries()) {
    const entry = deal.fairness;
    const r = await f.checkDeal(entry, {
      dealt: {dealer: deal.dealer, hands: deal.hands, prikup: deal.prikup},
      seat, seed: seeds[i], previous});
    out.push(r);
    previous = await f.link(entry);
  }
  return out;
}"""


def test_the_page_checks_real_records_as_the_python_verifier_does(page: Page) -> None:
    for seed in (1, 2):
        record = fair_game(seed)
        mine = [d["fairness"]["seeds"][0]["seed"] for d in record["deals"]]
        results = page.evaluate(CHECK_RECORD, [record, 0, mine])
        previous = None
        for deal, r in zip(record["deals"], results, strict=True):
            deck = [INDEX[code] for code in deal["deck"]]
            index = deal["fairness"]["deal"]
            assert fair.problem(deal["fairness"], deck, deal=index, previous=previous) is None
            previous = fair.link(deal["fairness"])
            assert r["cards"] == deal["deck"]  # the page derives the very deck that was dealt
            assert r["ok"] and r["seedUsed"] and r["deck"] and r["hand"] and r["chain"], r
        # seat 1 sent no seed (the server's stood in): sound, but not "your seed was used"
        results = page.evaluate(CHECK_RECORD, [record, 1, [None] * len(record["deals"])])
        assert all(r["seedUsed"] is None and r["deck"] and not r["ok"] for r in results)


def _seat_seed_elsewhere(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["seeds"][0]["seed"] = "00" * 32  # the deck no longer derives


def _server_claims_seat(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["seeds"][0]["by"] = "server"


def _secret(g: dict[str, Any]) -> None:
    f = g["deals"][1]["fairness"]
    f["secret"] = f["secret"][:-1] + ("0" if f["secret"][-1] != "0" else "1")


def _hand(g: dict[str, Any]) -> None:
    hands = g["deals"][1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def _chain(g: dict[str, Any]) -> None:
    g["deals"][1]["fairness"]["previous"] = "ab" * 32


TAMPERINGS = {
    "another seed for the seat": (_seat_seed_elsewhere, ("deck",)),
    "the seat's seed claimed by the server": (_server_claims_seat, ("seedUsed", "serverSeeds")),
    "another secret": (_secret, ("commitment", "deck")),
    "hands swapped": (_hand, ("deck", "hand")),
    "the chain": (_chain, ("chain", "deck")),
}


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_the_page_catches_each_tampering(page: Page, name: str) -> None:
    record = fair_game(4)
    mine = [d["fairness"]["seeds"][0]["seed"] for d in record["deals"]]
    bad = copy.deepcopy(record)
    change, failing = TAMPERINGS[name]
    change(bad)
    results = page.evaluate(CHECK_RECORD, [bad, 0, mine])
    assert results[0]["ok"]
    assert not results[1]["ok"]
    for check in failing:
        assert results[1][check] is False, (check, results[1])


def test_the_seeds_sent_are_kept_bounded_and_pruned(page: Page) -> None:
    got = page.evaluate(
        """async () => {
          const s = await import('/static/seedstore.js');
          localStorage.clear();
          for (let i = 0; i < s.MAX_PER_TABLE + 5; i++) {
            s.keepSeed('A', {seat: 0, deal: i, commit: 'c' + i, seed: 's' + i});
          }
          const kept = s.keptSeeds('A'), last = s.keptSeed('A', 'c104');
          // asked again for a commitment (a reconnection, another tab): the first seed stays
          const again = [s.keepSeed('A', {seat: 0, deal: 104, commit: 'c104', seed: 'other'}),
                         s.keptSeed('A', 'c104'), s.keptSeeds('A').length];
          for (let t = 0; t < s.MAX_TABLES + 3; t++) {
            await new Promise((done) => setTimeout(done, 3)); // each table used at another time
            s.keepSeed('T' + t, {seat: 1, deal: 0, commit: 'x', seed: 'y' + t});
          }
          const tables = Object.keys(localStorage).filter((k) => k.startsWith('paston-seeds-')).sort();
          return {n: kept.length, first: kept[0].commit, last,
                  tables, max: s.MAX_TABLES, newest: s.keptSeed('T22', 'x'), pruned: s.keptSeed('T0', 'x'),
                  again};
        }"""
    )
    assert got["n"] == 100 and got["first"] == "c5" and got["last"] == "s104"
    assert len(got["tables"]) == got["max"]  # the tables used last; the oldest pruned
    assert got["again"] == ["s104", "s104", 100]
    assert "paston-seeds-A" not in got["tables"] and got["pruned"] is None
    assert got["newest"] == "y22"


def test_the_checks_words_are_in_every_language(page: Page) -> None:
    got = page.evaluate(
        """async () => { const fair = await import('/static/i18n-fair.js');
             const m = await import('/static/i18n.js');
             const en = Object.keys(fair.en).sort().join();
             return {langs: ['hy', 'ru', 'es', 'ja'].map((l) => [l, Object.keys(fair[l]).sort().join() === en,
                       Object.keys(fair.en).filter((k) => fair[l][k] === fair.en[k])]),
                     merged: Object.values(m.MESSAGES)
                       .every((d) => Object.keys(fair.en).every((k) => k in d))}; }"""
    )
    assert got["merged"]
    for lang, same, untranslated in got["langs"]:
        assert same and untranslated == [], (lang, untranslated)
