"""The examples under ``examples/``, each run as a subprocess on tiny settings.

The Ray example is tested in tests/test_distributed.py, next to the Ray executor. These
tests check that each example runs, prints what it says it prints, and that its numbers
are right (recomputed here in another way); they do not ask a two-second training run to
win.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import gymnasium
import numpy as np
import pettingzoo  # noqa: F401 (CI installs it: a missing package fails, never skips)
import pytest

import paston.env.gymnasium  # noqa: F401  (registers paston/Paston-v0)
from paston.env.pettingzoo import AGENTS, env
from paston.tricks import trick_winner

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
        assert a["U"].shape == (32, 424) and a["theta"].shape == (10,)
        for key in ("W", "theta", "U", "v"):
            assert np.array_equal(a[key], b[key])
            assert np.any(a[key] != 0)
    load = ["--load", str(first), "--seconds", "0", "--eval-deals", "15", "--opponents", "random"]
    again = run_example("gymnasium_train.py", *load)
    assert "trained on 0 deals" in again
    assert parse_evaluation(again) == parse_evaluation(out)


def load_example(name: str) -> types.ModuleType:
    """Import ``examples/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_card_features_r6_3_a_card_wins_the_trick_as_the_rules_say() -> None:
    # The training example's hand-made "wins the trick so far" and "the cheapest card that
    # wins" features against R6.3 (paston.tricks.trick_winner), and its "the other
    # defender is winning" feature, on every card play with a trick in progress.
    train = load_example("gymnasium_train")
    e = gymnasium.make("paston/Paston-v0", opponents="random")
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(150):
        obs, _ = e.reset(seed=seed)
        done = not obs["action_mask"].any()
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            game, seat = e.unwrapped.game, e.unwrapped.seat
            view = game.view(seat)
            if legal[-1] < 32 and view.current_trick:
                x = train.LinearSoftmaxAgent.features(obs)
                phi = train.card_features(x, legal)
                trick = [card.index for _, card in view.current_trick]
                trump = int(view.contract) % 4
                wins = [trick_winner([*trick, int(c)], trump) == len(trick) for c in legal]
                assert list(phi[:, 3]) == wins
                # the cheapest winner: a winning card that every other winning card beats
                cheapest = [
                    w
                    and all(
                        trick_winner([*trick, int(c), int(o)], trump) == len(trick) + 1
                        for o, ow in zip(legal, wins, strict=True)
                        if ow and o != c
                    )
                    for c, w in zip(legal, wins, strict=True)
                ]
                assert list(phi[:, 0]) == cheapest and sum(cheapest) == any(wins)
                winner_seat = view.current_trick[trick_winner(trick, trump)][0]
                other_defender_wins = view.declarer != seat and winner_seat != view.declarer
                assert list(phi[:, 4]) == [w and other_defender_wins for w in wins]
                checked += 1
            obs, _, done, _, _ = e.step(int(rng.choice(legal)))
    assert checked > 300
