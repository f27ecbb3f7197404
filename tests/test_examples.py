"""The examples under ``examples/``, each run as a subprocess on tiny settings.

The Ray example is tested in tests/test_distributed.py, next to the Ray executor. These
tests check that each example runs, prints what it says it prints, and that its numbers
are right (recomputed here in another way); they do not ask a two-second training run to
win.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from paston.env.pettingzoo import AGENTS, env

ROOT = Path(__file__).resolve().parent.parent
NUMBER = r"([+-]\d+\.\d+)"


def run_example(name: str, *args: str) -> str:
    """Run ``examples/<name>`` with ``args``; its stdout (the test fails on a non-zero exit)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name), *args],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PASTON_PIMC_THREADS": "1"},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_example_pettingzoo_random_prints_each_agents_mean_r7_score() -> None:
    out = run_example("pettingzoo_random.py", "--episodes", "30", "--seed", "5")
    means = {a: float(m) for a, m in re.findall(rf"^(player_\d): mean reward {NUMBER}$", out, re.M)}
    assert sorted(means) == list(AGENTS)
    # The same episodes again, each agent's total taken from the deals' R7 results
    # instead of the rewards of the AEC loop.
    e = env(episode="deal")
    rng = np.random.default_rng(5)
    totals = np.zeros(3)
    for episode in range(30):
        e.reset(seed=5 * 1_000_003 + episode)
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            done = terminated or truncated
            e.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        result = e.game.deal.result
        assert result is not None
        totals += result.scores
    assert [means[a] for a in AGENTS] == pytest.approx(totals / 30, abs=0.0005)
    assert any(totals != 0)
    assert re.search(r"^30 episodes, \d+ decisions$", out, re.M)


def test_example_pettingzoo_random_plays_whole_games() -> None:
    out = run_example("pettingzoo_random.py", "--episodes", "1", "--game")
    assert len(re.findall(rf"^player_\d: mean reward {NUMBER}$", out, re.M)) == 3


def parse_evaluation(out: str) -> tuple[float, float, float, float, float]:
    """trained, random, difference, CI low, CI high from the training example's output."""
    trained = re.search(rf"^trained: {NUMBER} points per deal$", out, re.M)
    rand = re.search(rf"^random: {NUMBER} points per deal$", out, re.M)
    diff = re.search(
        rf"^trained − random: {NUMBER} points per deal, 95% CI \[{NUMBER}, {NUMBER}\]$", out, re.M
    )
    assert trained and rand and diff, out
    return float(trained[1]), float(rand[1]), float(diff[1]), float(diff[2]), float(diff[3])


def test_example_gymnasium_train_trains_then_evaluates_against_random() -> None:
    out = run_example("gymnasium_train.py", "--seconds", "2", "--eval-deals", "30", "--report-every", "50")
    assert re.search(r"^trained on \d+ deals in \d+ s against heuristic$", out, re.M)
    assert re.search(rf"^episode 50: mean score of the last 50 deals {NUMBER}$", out, re.M)
    trained, rand, diff, low, high = parse_evaluation(out)
    assert diff == pytest.approx(trained - rand, abs=0.011)
    assert low <= diff <= high


def test_example_gymnasium_train_saves_and_loads_the_same_agent(tmp_path: Path) -> None:
    # An episode budget, not a time budget: the same weights every time.
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    common = ["--episodes", "40", "--seconds", "600", "--eval-deals", "15", "--opponents", "random"]
    out = run_example("gymnasium_train.py", *common, "--save", str(first))
    run_example("gymnasium_train.py", *common, "--save", str(second))
    with np.load(first) as a, np.load(second) as b:
        assert a["W"].shape == (541, 424)
        assert np.array_equal(a["W"], b["W"]) and np.array_equal(a["v"], b["v"])
        assert np.any(a["W"] != 0)
    again = run_example(
        "gymnasium_train.py",
        "--load",
        str(first),
        "--seconds",
        "0",
        "--eval-deals",
        "15",
        "--opponents",
        "random",
    )
    assert "trained on 0 deals" in again
    assert parse_evaluation(again) == parse_evaluation(out)
