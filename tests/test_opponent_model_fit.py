"""Fitting inference's opponent model (experiments/opponent_model_fit.py) on tiny samples:
a world's evidence priced by a model is the inference's log-likelihood, the fit's
figures agree with a direct count, the best model of the grid fits the training deals
at least as well as the default (which is in the grid), and one seed gives one output."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paston.bots import make_player
from paston.bots.inference import (
    DEFAULT_MODEL,
    FITTED_MODEL,
    InferPlayer,
    OpponentModel,
    evidence,
    log_likelihood,
    observe,
    score,
)
from paston.bots.knowledge import Knowledge
from paston.deal import Deal

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "experiments" / "opponent_model_fit.py"


def _load() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))  # it reads the measuring points of inference_points.py
    try:
        spec = importlib.util.spec_from_file_location("opponent_model_fit", SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up by name
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return module


fit_script = _load()


@pytest.fixture(scope="module")
def views() -> list:  # type: ignore[type-arg]
    return fit_script.collect("heuristic", 4, seed=11, worlds=24)


@settings(max_examples=25, deadline=None)
@given(
    deck=st.integers(0, 10**6),
    steps=st.integers(0, 40),
    temperature=st.floats(0.1, 5.0),
    noise=st.floats(0.01, 0.9),
    slip=st.floats(0.01, 1.0),
)
def test_the_slips_of_a_world_are_priced_by_the_slip_alone(
    deck: int, steps: int, temperature: float, noise: float, slip: float
) -> None:
    deal = Deal.random(random.Random(deck), dealer=deck % 3)
    bots = [make_player("heuristic", seed=deck + s) for s in range(3)]
    for _ in range(steps):
        if deal.is_over:
            break
        seat = deal.to_move
        assert seat is not None
        deal.apply(bots[seat].choose(deal.view(seat)))
    model = OpponentModel(temperature, noise, slip)
    rng = random.Random(deck)
    for seat in range(3):
        view = deal.view(seat)
        obs, know = observe(view), Knowledge.from_view(view)
        for _ in range(3):
            world = know.sample(rng)
            ev = evidence(obs, world)
            # the slips are priced by the slip alone
            other = OpponentModel(temperature, noise, slip / 2)
            assert math.isclose(score(ev, model) - score(ev, other), ev.slips * math.log(2), abs_tol=1e-9)


GOLDEN = ROOT / "tests" / "golden" / "inference_loglik.json"


def test_the_log_likelihood_is_that_of_before_the_evidence_was_split_out() -> None:
    """36 views and worlds priced under three models by the inference as it was before
    ``evidence`` and ``score`` (commit 6dbf290): the same numbers to the last bit."""
    cases = json.loads(GOLDEN.read_text())["cases"]
    assert len(cases) == 36
    for case in cases:
        deal = Deal.random(random.Random(case["deck_seed"]), dealer=case["dealer"])
        bots = [make_player("heuristic", seed=case["bot_seed"] + s) for s in range(3)]
        for _ in range(case["steps"]):
            if deal.is_over:
                break
            seat = deal.to_move
            assert seat is not None
            deal.apply(bots[seat].choose(deal.view(seat)))
        obs = observe(deal.view(case["seat"]))
        world = tuple(case["world"])
        model = OpponentModel(*case["model"])
        assert score(evidence(obs, world), model) == float.fromhex(case["loglik"])  # type: ignore[arg-type]
        assert log_likelihood(obs, world, model) == float.fromhex(case["loglik"])  # type: ignore[arg-type]


def test_each_view_holds_its_worlds_places_and_the_truth(views: list) -> None:  # type: ignore[type-arg]
    assert {v.point for v in views} <= set(fit_script.POINTS) and len(views) % 3 == 0
    for v in views:
        assert v.places.shape == (24, len(v.truth)) == v.at_truth.shape
        assert np.array_equal(v.at_truth, (v.places == v.truth).astype(np.float64))
        assert len(v.evidence) == 24


def test_uniform_fit_is_the_share_of_worlds_at_the_truth(views: list) -> None:  # type: ignore[type-arg]
    result = fit_script.fit(views, None, 24)
    floor = 1 / (4 * 24)
    for point, (loglik, _acc, cards) in result.items():
        here = [v for v in views if v.point == point]
        logs = [math.log(max(v.at_truth[:, c].mean(), floor)) for v in here for c in range(len(v.truth))]
        assert cards == len(logs)
        assert math.isclose(loglik, sum(logs) / len(logs), rel_tol=1e-9)


def test_the_best_model_of_the_grid_fits_at_least_as_well_as_the_default(views: list) -> None:  # type: ignore[type-arg]
    grid = [
        OpponentModel(t, n, s)
        for t in fit_script.TEMPERATURES
        for n in fit_script.NOISES
        for s in fit_script.SLIPS
    ]
    assert DEFAULT_MODEL in grid
    fits = [fit_script.overall(fit_script.fit(views, m, 24)) for m in grid]
    assert max(fits) >= fits[grid.index(DEFAULT_MODEL)]
    assert len(set(fits)) > 1  # the settings matter


def test_one_seed_gives_one_output() -> None:
    args = [sys.executable, str(SCRIPT), "--train-deals", "2", "--test-deals", "2", "--worlds", "12"]
    args += ["--players", "heuristic", "--seed", "5"]
    runs = [subprocess.run(args, capture_output=True, text=True, timeout=300, check=True) for _ in range(2)]
    first, second = (r.stdout.splitlines() for r in runs)
    assert first[0].startswith("opponent model fit: deals by heuristic, 2 training (seed 5)")
    assert first[1:] == second[1:]  # everything but the timings
    assert any(line.startswith("| after auction |") for line in first)
    assert "95% bootstrap over deals" in first[-1]


DUEL = ROOT / "experiments" / "opponent_model_duel.py"


def test_the_duel_pits_the_fitted_model_against_the_default_at_one_level() -> None:
    spec = importlib.util.spec_from_file_location("opponent_model_duel", DUEL)
    assert spec is not None and spec.loader is not None
    duel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(duel)
    fitted, plain = duel.factory("infer:4-fitted", seed=1), duel.factory("infer:4", seed=1)
    assert isinstance(fitted, InferPlayer) and isinstance(plain, InferPlayer)
    assert fitted.level == plain.level == 4
    assert fitted.sampler.model == FITTED_MODEL != DEFAULT_MODEL == plain.sampler.model
    args = [sys.executable, str(DUEL), "--deals", "2", "--workers", "1", "--seed", "3"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=300, check=True).stdout.splitlines()
    assert out[-1].startswith("infer:3-fitted − infer:3: ") and "points per deal" in out[-1]
    assert "opponent model duel: 2 deals × 6 seatings, seed 3" in out[-4]
