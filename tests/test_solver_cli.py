"""``paston solve`` / ``paston analyze`` as a user runs them: values printed for text
positions and record positions, clean errors (exit code 2, a readable message, no
traceback) on bad input.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli_helpers import assert_fails, assert_ok, invoke
from paston.actions import Kind
from paston.deal import Deal
from paston.record import read_file
from paston.solver import Position, Solver
from paston.solver.card_costs import analyze_deal


# --- the command line ------------------------------------------------------------------------------
def expect_card_values(text: str, pos: Position) -> None:
    solution = Solver(memory_mb=1).solve(pos)
    assert len(solution.card_values) == len(pos.legal_cards())
    for card, v in solution.card_values.items():
        assert re.search(rf"(^| ){re.escape(card.pretty())} {v} (best|costs \d+)", text), (card, v, text)
    tricks = "trick" if solution.value == 1 else "tricks"  # "1 trick", never "1 tricks"
    assert f"Declarer takes {solution.value} {tricks} " in text


def test_cli_solve_text_position() -> None:
    text = assert_ok(
        invoke(
            "solve",
            "--hand0",
            "JS AC 8C AH",
            "--hand1",
            "AS KS QC 7C",
            "--hand2",
            "KD TD 8D 7D",
            "--trump",
            "hearts",
        )
    )
    pos = Position.from_text(
        hands=["JS AC 8C AH", "AS KS QC 7C", "KD TD 8D 7D"], trump="hearts", declarer=0, leader=0
    )
    expect_card_values(text, pos)
    assert "A♥ 3 best" in text and "J♠ 2 costs 1" in text
    assert "seat 0 (declarer) to play" in text


def test_cli_solve_mid_trick_two_hand_with_scores() -> None:
    args = ["--hand0", "", "--hand1", "AH KH 7C 8C", "--hand2", "7H 8H AD KD", "--trump", "diamonds"]
    text = assert_ok(invoke("solve", *args, "-d", "2", "--leader", "1", "--tricks", "0,3,3", "--scores"))
    pos = Position.from_text(
        hands=["", "AH KH 7C 8C", "7H 8H AD KD"], trump="diamonds", declarer=2, leader=1, tricks=(0, 3, 3)
    )
    expect_card_values(text, pos)
    assert "defender" in text and "fails the contract" in text
    assert "scores [0, 30, -30]" in text


def test_cli_solve_from_a_record(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    assert_ok(invoke("simulate", "--out", out, "--games", 1, "--seed", 3, "--quiet"))
    match = read_file(out)[0]
    checked = 0
    for d, played in enumerate(match.deals):
        plays = [i for i, e in enumerate(played.events) if e.action.kind is Kind.PLAY]
        if not plays:
            continue
        for action in (plays[0], plays[1], plays[len(plays) // 2]):
            deal = Deal(played.deck, dealer=played.dealer, rules=played.rules, first_deal=played.first_deal)
            for e in played.events[:action]:
                deal.apply(e.action, e.seat)
            pos = Position.from_deal(deal)
            text = assert_ok(invoke("solve", "--record", out, "--deal", d, "--action", action, "--scores"))
            expect_card_values(text, pos)
            checked += 1
    assert checked >= 3


def test_cli_solve_record_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "g.jsonl"
    assert_ok(invoke("simulate", "--out", out, "--games", 1, "--seed", 3, "--quiet"))
    match = read_file(out)[0]
    assert match.deals[0].events[0].action.kind is not Kind.PLAY
    assert_fails(invoke("solve", "--record", out, "--action", 0), "not in the play", "card play", code=2)
    assert_fails(invoke("solve", "--record", out, "--deal", 999), "--deal must be below", code=2)
    assert_fails(invoke("solve", "--record", out, "--action", 9999), "--action must be", code=2)
    assert_fails(invoke("solve", "--record", out, "--game", 3), "--game must be below", code=2)
    monkeypatch.chdir(tmp_path)  # a short path: the error panel wraps a long one mid-word
    assert_fails(invoke("solve", "--record", "missing.jsonl"), "missing.jsonl", code=2)


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--hand0", "AS KS", "--hand1", "AS QS"], ["AS"]),  # duplicate card
        (["--hand0", "AS AS", "--hand1", "QS JS"], ["twice"]),
        (["--hand0", "AS KS", "--hand1", "QS"], ["holds"]),  # unequal hands
        (["--hand0", "AS KS", "--hand1", "QS JS", "--hand2", "TS 9S", "--trump", "notrump"], ["no-trump"]),
        (["--hand0", "AS KS", "--hand1", "QS JS", "--hand2", "TS ZZ"], ["ZZ"]),
        (["--hand0", "AS", "--hand1", "QS", "--leader", "2"], ["leader"]),
        (["--hand0", "", "--hand1", "", "--hand2", ""], ["defenders"]),
        (["--hand0", "AS KS", "--hand1", "QS JS", "--tricks", "9,0,0"], ["exceed 10"]),
        (["--hand0", "AS KS", "--hand1", "QS JS", "--tricks", "1,2"], ["three counts"]),
        (["--hand0", "AS KS", "--hand1", "QS JS", "--tricks", "a,b,c"], ["numbers"]),
        (["--hand0", "KS", "--hand1", "QS", "--trick", "AS 7H", "--hand2", "JS TS"], ["R6.2"]),
        (["--hand0", "AS", "--hand1", "KS", "--trick", "QS JS", "--hand2", ""], ["too many"]),
        (["--hand0", "AS", "--hand1", "KS", "--declarer", "3"], ["--declarer"]),
    ],
)
def test_cli_solve_bad_input(args: list[str], needles: list[str]) -> None:
    assert_fails(invoke("solve", *args), *needles, code=2)


def test_cli_analyze(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    assert_ok(invoke("simulate", "--out", out, "--games", 1, "--seed", 3, "--quiet"))
    match = read_file(out)[0]
    result = invoke("analyze", out, "--quiet")
    assert result.exit_code == 0, result.output
    text = result.stdout
    played = [i for i, d in enumerate(match.deals) if d.result is not None and d.result.outcome == "played"]
    assert played
    assert text.count("Tricks lost against perfect play:") == len(played)
    for cost in re.findall(r"\((?:−|-)(\d+)\)", text):
        assert int(cost) > 0
    totals = re.search(r"Total tricks lost against perfect play: (.*) over (\d+) played deal", text)
    assert totals is not None and int(totals.group(2)) == len(played)
    for n in re.findall(r"(-?\d+)(?:,|$)", totals.group(1)):
        assert int(n) >= 0
    # per card: costs are never negative, a best card costs nothing, and the costs add up:
    # the declarer's tricks = value at the start − its own costs + the defenders' costs
    solver = Solver(memory_mb=8)
    for i in played:
        deal = match.deals[i]
        a = analyze_deal(deal, i, solver)
        tricks = "trick" if a.start_value == 1 else "tricks"  # "1 trick", never "1 tricks"
        assert f"double-dummy value at the start of play: {a.start_value} {tricks}\n" in text
        cards = [c for trick in a.tricks for c in trick]
        assert len(cards) == 10 * len(a.active)
        for c in cards:
            assert c.cost >= 0
            assert (c.cost == 0) == (c.value == c.best)
            assert c.cost == (c.best - c.value if c.seat == a.declarer else c.value - c.best)
        assert all(c.cost == 0 for c in a.tricks[-1])  # one card each: no choice
        assert deal.result is not None
        final = deal.result.tricks[a.declarer]
        defenders = [s for s in a.active if s != a.declarer]
        assert final == a.start_value - a.cost[a.declarer] + sum(a.cost[s] for s in defenders)


def test_cli_analyze_bad_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    result = invoke("analyze", bad, "--quiet")
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    monkeypatch.chdir(tmp_path)  # a short path: the error panel wraps a long one mid-word
    assert_fails(invoke("analyze", "missing.jsonl"), "missing.jsonl", code=2)


def test_cli_solve_without_a_position_says_what_to_give() -> None:
    text = assert_fails(invoke("solve"), "give a position", "--hand0", "--record FILE", code=2)
    assert "defender" not in text


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--hand0", "AS 7H"], ["--record and --hand0 cannot be used together"]),
        (["--trump", "hearts"], ["--record and --trump cannot be used together"]),
        (["--declarer", "1"], ["--record and --declarer cannot be used together"]),
    ],
)
def test_cli_solve_refuses_a_record_mixed_with_a_text_position(
    tmp_path: Path, args: list[str], needles: list[str]
) -> None:
    out = tmp_path / "g.jsonl"
    assert_ok(invoke("simulate", "--out", out, "-q"))
    assert_fails(invoke("solve", "--record", out, *args), *needles, code=2)


def test_cli_solve_record_options_need_a_record() -> None:
    assert_fails(invoke("solve", "--deal", 1), "--deal picks a position in a record", "--record FILE", code=2)
