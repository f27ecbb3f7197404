"""``paston analyze FILE --scores``: the analysis of every finished deal as tables or JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.cli_helpers import assert_fails, assert_ok, invoke

from paston.eval.analysis import analyze_deal
from paston.record import read_file
from paston.solver import Solver


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("analysis") / "g.jsonl"
    assert_ok(
        invoke(
            "simulate",
            "--out",
            out,
            "--games",
            1,
            "--seed",
            3,
            "--players",
            "heuristic,random,heuristic",
            "--quiet",
        )
    )
    return out


def test_cli_analyze_scores_prints_every_finished_deal(game: Path) -> None:
    match = read_file(game)[0]
    finished = [i for i, d in enumerate(match.deals) if d.result is not None]
    text = assert_ok(invoke("analyze", game, "--scores", "--level", "1", "--quiet"))
    assert text.count("Points lost to mistakes:") == len(finished)
    assert f"over {len(finished)} finished deal" in text
    solver = Solver()
    for i in finished:
        a = analyze_deal(match.deals[i], i, level=1, solver=solver)
        assert f"(deals[{i}]), pimc level 1" in text
        line = (
            "Points lost to mistakes: "
            + ", ".join(
                f"{name} {lost:g}" for name, lost in zip(match.seats_display(), a["totals"], strict=True)
            )
            if hasattr(match, "seats_display")
            else None
        )
        if line:
            assert line in text
    assert re.search(r"Total points lost to mistakes: .* over \d+ finished deal", text)


def test_cli_analyze_scores_json_is_the_analysis(game: Path) -> None:
    match = read_file(game)[0]
    index = next(
        i for i, d in enumerate(match.deals) if d.result is not None and d.result.outcome == "played"
    )
    result = invoke(
        "analyze", game, "--scores", "--deal", index, "--level", "1", "--seed", "4", "--json", "--quiet"
    )
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert got == analyze_deal(match.deals[index], index, level=1, seed=4, solver=Solver())
    assert set(got) == {"deal", "level", "cards", "decisions", "totals", "mistakes"}
    assert set(got["cards"][0]) == {"index", "seat", "card", "cost_tricks", "cost_points", "best", "bot"}
    assert set(got["decisions"][0]) == {"index", "seat", "phase", "chosen", "options", "bot"}


def test_cli_analyze_scores_refuses_what_it_cannot_do(game: Path, tmp_path: Path) -> None:
    assert_fails(invoke("analyze", game, "--scores", "--deal", 999), "--deal must be below", code=2)
    assert_fails(invoke("analyze", game, "--scores", "--all"), "--all", code=2)
    assert_fails(invoke("analyze", game, "--json"), "--scores", code=2)
    assert_fails(invoke("analyze", game, "--scores", "--level", "7"), "--level", code=2)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    result = invoke("analyze", bad, "--scores", "--quiet")
    assert result.exit_code != 0 and "Traceback" not in result.output
