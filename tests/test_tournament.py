"""Duplicate tournaments of two computer players: seatings, reproducibility, worker
independence, the statistics (checked against hand-computed numbers) and the
``paston tournament`` command."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import json
import re
import statistics
from pathlib import Path

import pytest
from typer.testing import Result

from cli_helpers import flat, invoke
from paston.bots.base import Player, make_player
from paston.eval import (
    ARRANGEMENT_COUNT,
    DealResultRow,
    arrangements,
    bootstrap_ci,
    play_duplicate_deal,
    run_tournament,
    summarize,
)
from paston.eval.stats import BotSummary
from paston.record import from_record, read_file
from paston.rules import Rules


def timeless(row: DealResultRow) -> DealResultRow:
    """A row without its decision times (the only part that may vary between runs)."""
    return dataclasses.replace(row, decision_times=tuple(tuple(0.0 for _ in t) for t in row.decision_times))


# --- seatings -----------------------------------------------------------------------------------
def test_arrangements_are_the_six_seatings_with_both_players() -> None:
    seats = arrangements("a", "b")
    assert len(seats) == ARRANGEMENT_COUNT == 6
    assert len(set(seats)) == 6
    every = {t for t in itertools.product("ab", repeat=3) if len(set(t)) == 2}
    assert set(seats) == every
    for seat in range(3):  # each player holds each seat three times
        assert sum(s[seat] == "a" for s in seats) == 3


# --- one duplicate deal --------------------------------------------------------------------------
def test_play_duplicate_deal_plays_the_same_cards_in_six_seatings() -> None:
    rows = play_duplicate_deal(2, "heuristic", "random", seed=5)
    assert [r.arrangement for r in rows] == arrangements("heuristic", "random")
    decks = {json.dumps([d["deck"] for d in r.record["deals"]]) for r in rows}
    assert len(decks) == 1  # the same deal (and redeals) in every seating
    for row in rows:
        assert row.deal == 2
        assert row.record["seats"] == list(row.arrangement)
        assert row.record["first_dealer"] == rows[0].record["first_dealer"]
        match = from_record(row.record)  # a valid paston/1 record
        assert match.completed_deals == 1
        last = match.deals[-1]
        assert last.first_deal  # played as the first deal of a game
        result = last.result
        assert result is not None
        assert result.scores == row.scores
        assert result.declarer == row.declarer
        assert result.outcome == row.outcome
        assert result.tricks == row.tricks
        assert result.defenders == row.defenders
        assert (result.contract.name_in_record if result.contract else None) == row.contract
        # decisions: one per action of the deal, counted for the seat that acted
        assert sum(row.decisions) == len(last.events)
        for seat in range(3):
            assert row.decisions[seat] == sum(e.seat == seat for e in last.events)
            assert row.decision_seconds[seat] >= 0
        d = row.declarer
        assert d is not None
        expected = list(zip([(d + 1) % 3, (d + 2) % 3], last.whist_answers, strict=False))
        assert list(row.whist_answers) == expected


def test_play_duplicate_deal_is_reproducible() -> None:
    first = play_duplicate_deal(0, "heuristic", "random", seed=11)
    again = play_duplicate_deal(0, "heuristic", "random", seed=11)
    assert [timeless(r) for r in first] == [timeless(r) for r in again]
    other = play_duplicate_deal(0, "heuristic", "random", seed=12)
    assert first[0].record["deals"][0]["deck"] != other[0].record["deals"][0]["deck"]
    nxt = play_duplicate_deal(1, "heuristic", "random", seed=11)
    assert first[0].record["deals"][0]["deck"] != nxt[0].record["deals"][0]["deck"]


def test_play_duplicate_deal_makes_its_players_with_the_factory_given() -> None:
    """A script pits variants of one bot against each other by its own factory; the
    default factory plays the same game as naming the players."""
    made: list[tuple[str, int | None]] = []

    def factory(name: str, *, seed: int | None = None) -> Player:
        made.append((name, seed))
        return make_player(name.removesuffix("-variant"), seed=seed)

    rows = play_duplicate_deal(0, "heuristic-variant", "random", seed=11, factory=factory)
    assert len(made) == 3 * ARRANGEMENT_COUNT
    assert {n for n, _ in made} == {"heuristic-variant", "random"}
    plain = play_duplicate_deal(0, "heuristic", "random", seed=11)
    assert [r.scores for r in rows] == [r.scores for r in plain]  # same seeds, same bots, same play
    assert {r.arrangement for r in rows} == set(arrangements("heuristic-variant", "random"))


def test_play_duplicate_deal_uses_the_rules() -> None:
    rules = Rules(lone_defender="flat", surrender_bonus=0)
    rows = play_duplicate_deal(0, "random", "heuristic", seed=3, rules=rules)
    for row in rows:
        assert row.record["rules"] == rules.to_dict()
        from_record(row.record)


def test_pimc_in_a_duplicate_deal() -> None:
    rows = play_duplicate_deal(0, "pimc:1", "random", seed=2)
    assert len(rows) == 6
    for row in rows:
        from_record(row.record)


# --- whole tournaments -----------------------------------------------------------------------------
def test_run_tournament_does_not_depend_on_the_number_of_workers() -> None:
    ticks: list[int] = []
    one = list(run_tournament("heuristic", "random", deals=4, seed=9, workers=1, progress=ticks.append))
    two = list(run_tournament("heuristic", "random", deals=4, seed=9, workers=2))
    assert ticks == [1, 1, 1, 1]
    assert [r[0].deal for r in one] == [0, 1, 2, 3]
    assert [[timeless(r) for r in rows] for rows in one] == [[timeless(r) for r in rows] for rows in two]
    assert [r.record for rows in one for r in rows] == [r.record for rows in two for r in rows]
    # and it is the same as playing the deals one by one
    direct = [play_duplicate_deal(k, "heuristic", "random", seed=9) for k in range(4)]
    assert [[timeless(r) for r in rows] for rows in one] == [[timeless(r) for r in rows] for rows in direct]


# --- statistics on fabricated rows -----------------------------------------------------------------
def row(
    deal: int,
    arrangement: tuple[str, str, str],
    scores: tuple[int, int, int],
    declarer: int,
    outcome: str,
    contract: str | None,
    tricks: tuple[int, int, int],
    whist: tuple[tuple[int, bool], ...],
    seconds: tuple[float, float, float],
    decisions: tuple[int, int, int],
) -> DealResultRow:
    defenders = tuple(s for s, w in whist if w)
    return DealResultRow(
        deal,
        arrangement,
        scores,
        declarer,
        outcome,
        contract,
        defenders,
        tricks,
        whist,
        tuple(tuple(s / d for _ in range(d)) for s, d in zip(seconds, decisions, strict=True)),  # type: ignore[arg-type]
        {},
    )


A, B = "A", "B"
ROWS = [
    [
        # A declares spades and makes it (6 tricks) against a lone defender (A) with 4
        row(0, (A, A, B), (10, 0, 0), 0, "played", "spades", (6, 4, 0), ((1, True), (2, False)),
            (0.1, 0.2, 0.3), (10, 10, 10)),
        # B surrenders
        row(0, (B, A, B), (2, 2, -10), 2, "surrender", None, (0, 0, 0), (), (0.5, 0.0, 0.1), (2, 1, 3)),
    ],
    [
        # B declares hearts; both opponents pass: uncontested
        row(1, (A, B, B), (0, 40, 0), 1, "uncontested", "hearts", (0, 0, 0), ((2, False), (0, False)),
            (0.2, 0.2, 0.2), (4, 4, 4)),
        # B declares clubs and fails against a lone defender (A)
        row(1, (B, A, A), (-20, 20, 0), 0, "played", "clubs", (5, 5, 0), ((1, True), (2, False)),
            (0.3, 0.1, 0.1), (10, 10, 1)),
    ],
]  # fmt: skip


def test_summarize_by_hand() -> None:
    s = summarize(ROWS, A, B)
    a, b = s[A], s[B]
    # points per deal = mean over the seats the bot held in that deal
    # deal 0: A held seats 0, 1 of row 1 (10 + 0) and seat 1 of row 2 (2): 12 / 3
    #         B held seat 2 of row 1 (0) and seats 0, 2 of row 2 (2 - 10): -8 / 3
    # deal 1: A: 0 + (20 + 0) = 20 / 3; B: (40 + 0) + (-20) = 20 / 3
    assert a.per_deal == pytest.approx([4.0, 20 / 3])
    assert b.per_deal == pytest.approx([-8 / 3, 20 / 3])
    assert a.mean == pytest.approx(16 / 3)
    assert b.mean == pytest.approx(2.0)
    # A declared once and made it; B declared three times: one surrender, one
    # uncontested (counts as made), one failure
    assert (a.declared, a.made, a.surrendered) == (1, 1, 0)
    assert (b.declared, b.made, b.surrendered) == (3, 1, 1)
    assert a.make_rate == 1.0 and a.surrender_rate == 0.0
    assert b.make_rate == pytest.approx(0.5) and b.surrender_rate == pytest.approx(1 / 3)
    assert dict(a.contracts) == {"spades": 1}
    assert dict(b.contracts) == {"surrender": 1, "hearts": 1, "clubs": 1}
    # whist answers: A answered in row 1 (seat 1 whist), row 3 (seat 0 pass), row 4
    # (seat 1 whist, seat 2 pass); B in row 1 (seat 2 pass) and row 3 (seat 2 pass)
    assert (a.whist_asked, a.whisted, a.whist_rate) == (4, 2, 0.5)
    assert (b.whist_asked, b.whisted, b.whist_rate) == (2, 0, 0.0)
    # decision times: A 0.3 + 0.0 + 0.2 + 0.2 s over 20 + 1 + 4 + 11 decisions
    assert sum(a.times) == pytest.approx(0.7) and a.decisions == 36
    assert a.mean_decision_ms == pytest.approx(700 / 36)
    assert sum(b.times) == pytest.approx(1.6) and b.decisions == 33
    assert b.mean_decision_ms == pytest.approx(1600 / 33)
    # A's 36 decisions: 10 of 10 ms, 10 of 20 ms (row 1), 1 of 0 ms (row 2), 4 of 50 ms
    # (row 3), 10 of 10 ms and 1 of 100 ms (row 4): the median is 10 ms, the 99th
    # percentile (nearest rank: the 36th) 100 ms
    assert a.median_decision_ms == pytest.approx(10.0)
    assert a.p99_decision_ms == pytest.approx(100.0)


def test_empty_summary() -> None:
    s = BotSummary("x")
    assert (s.mean, s.make_rate, s.surrender_rate, s.whist_rate, s.mean_decision_ms) == (0, 0, 0, 0, 0)
    assert summarize([], A, B)[A].per_deal == []


def test_summary_of_a_real_tournament_is_consistent() -> None:
    rows_by_deal = list(run_tournament("heuristic", "random", deals=3, seed=4, workers=1))
    s = summarize(rows_by_deal, "heuristic", "random")
    # every seat of every play is held by one of the two bots: 9 seats each per deal
    for k, rows in enumerate(rows_by_deal):
        total = sum(sum(r.scores) for r in rows)
        assert s["heuristic"].per_deal[k] * 9 + s["random"].per_deal[k] * 9 == pytest.approx(total)
    assert s["heuristic"].declared + s["random"].declared == 18
    assert sum(s["heuristic"].contracts.values()) == s["heuristic"].declared


def test_bootstrap_ci_by_hand() -> None:
    assert bootstrap_ci([3.0, 3.0, 3.0]) == (3.0, 3.0)
    # two values: a resampled mean is 0, 0.5 or 1 with chances 1/4, 1/2, 1/4, so the
    # 2.5% and 97.5% points of 2000 resamples are 0 and 1
    assert bootstrap_ci([0.0, 1.0]) == (0.0, 1.0)
    assert bootstrap_ci([7.0]) == (7.0, 7.0)
    with pytest.raises(ValueError):
        bootstrap_ci([])


def test_bootstrap_ci_is_seeded_and_sensible() -> None:
    values = [float((i * 37) % 23 - 11) for i in range(60)]
    lo, hi = bootstrap_ci(values, seed=1)
    assert (lo, hi) == bootstrap_ci(values, seed=1)
    assert lo < statistics.fmean(values) < hi
    wide = bootstrap_ci(values, seed=1, level=0.99)
    narrow = bootstrap_ci(values, seed=1, level=0.5)
    assert wide[0] <= lo <= narrow[0] <= narrow[1] <= hi <= wide[1]
    # the standard error of the mean is about sd / sqrt(n): the 95% interval spans about 4 of them
    se = statistics.stdev(values) / len(values) ** 0.5
    assert 3 * se < hi - lo < 5 * se


# --- the command -------------------------------------------------------------------------------------
def tournament(*args: object) -> Result:
    return invoke("tournament", *args)


def run_cli(out: Path) -> Result:
    return tournament(
        "--players", "heuristic,random", "--deals", 3, "--seed", 1, "--workers", 1, "--out", out
    )


def test_cli_tournament(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = run_cli(out)
    assert result.exception is None, result.output
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "heuristic" in text and "random" in text
    # three deals: no interval and no claim
    assert "too few deals for a confidence interval (3 < 30)" in flat(text)
    assert not re.search(r"\[[+-]\d+\.\d\d, [+-]\d+\.\d\d\]", text), text
    assert "(significant)" not in text and "(not significant)" not in text
    assert "Traceback" not in result.output
    matches = read_file(out)
    assert len(matches) == 18
    for m in matches:
        assert m.completed_deals == 1
    # the same seed writes the same file
    again = tmp_path / "again.jsonl"
    assert run_cli(again).exit_code == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    # and the records are the ones the library plays
    rows = [r for rows in run_tournament("heuristic", "random", deals=3, seed=1, workers=1) for r in rows]
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [r.record for r in rows]


def test_cli_tournament_intervals_from_30_deals(tmp_path: Path) -> None:
    result = tournament("--players", "heuristic,random", "--deals", 30, "--seed", 1, "--workers", 1, "-q")
    text = flat(result.stdout)
    assert re.search(r"heuristic [+-]\d+\.\d\d \[[+-]\d+\.\d\d, [+-]\d+\.\d\d\]", text), text
    claim = r"heuristic − random: [+-]\d+\.\d\d points per deal, 95% CI \[.*\] \(significant\)"
    assert re.search(claim, text), text
    assert "too few deals" not in text
    assert "30 deals in" in text


def test_cli_tournament_one_deal_is_singular_and_makes_no_claim() -> None:
    text = flat(tournament("--players", "heuristic,random", "--deals", 1, "--workers", 1, "-q").stdout)
    assert "Duplicate tournament: 1 deal × 6 seatings" in text
    assert "too few deals for a confidence interval (1 < 30); no claim of significance" in text
    assert "significant)" not in text and "1 deals" not in text and "1 worker(s)" not in text
    assert "1 deal in" in text and "with 1 worker" in text


def test_verdict_makes_no_claim_on_a_zero_width_interval() -> None:
    from paston.cli.tournament_command import verdict

    text = verdict(2.0, 2.0, 2.0, 100)
    assert "zero-width" in text and "no claim of significance" in text
    assert "(significant)" not in text
    assert verdict(-1.0, -2.0, -0.5, 30).endswith("(significant)")
    assert verdict(0.2, -0.1, 0.5, 30).endswith("(not significant)")


def test_cli_tournament_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    out.write_text("keep\n", encoding="utf-8")
    args = ("--players", "heuristic,random", "--deals", 1, "--workers", 1, "-q", "--out", out)
    result = tournament(*args)
    assert result.exit_code == 2
    assert "already exists" in flat(result.output) and "--force" in flat(result.output)
    assert out.read_text(encoding="utf-8") == "keep\n"
    assert tournament(*args, "--force").exit_code == 0
    assert len(read_file(out)) == 6


ONE = ("--deals", 1, "--workers", 1)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--players", "heuristic", *ONE), "two players"),
        (("--players", "random,random", *ONE), "different"),
        (("--players", "heuristic,HEURISTIC", *ONE), "different"),
        (("--players", "alpha,random", *ONE), "alpha"),
        (("--players", "pimc:9,random", *ONE), "pimc:9"),
        (("--players", "heuristic,random", "--deals", 0, "--workers", 1), "--deals"),
        (("--players", "heuristic,random", *ONE, "--out", "{tmp}/missing/t.jsonl"), "does not exist"),
        (("--players", "heuristic,random", *ONE, "--rules", "bogus"), "bogus"),
        (ONE, "--players"),
    ],
)
def test_cli_tournament_bad_arguments(tmp_path: Path, args: tuple[object, ...], needle: str) -> None:
    result = tournament(*(str(a).replace("{tmp}", str(tmp_path)) for a in args))
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert needle in flat(result.output), result.output
    assert not (tmp_path / "missing").exists()


def test_cli_tournament_unwritable_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    command = importlib.import_module("paston.cli.tournament_command")  # the module, not the function

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(command, "open", refuse, raising=False)  # as for a read-only folder
    result = tournament("--players", "heuristic,random", *ONE, "--out", tmp_path / "t.jsonl")
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "cannot write" in flat(result.output)
