"""The PIMC diagnostics (experiments/pimc_diagnostics.py) on tiny samples: their values are
sane (shares in [0, 1], world counts exact and shrinking as cards are played), and the
same seed gives the same figures."""

from __future__ import annotations

import importlib.util
import itertools
import math
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from paston.bots.knowledge import PRIKUP_SLOT, Knowledge
from paston.deal import Deal, Phase

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "experiments" / "pimc_diagnostics.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pimc_diagnostics", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


diag = _load()


@pytest.fixture(scope="module")
def deals() -> list:  # type: ignore[type-arg]
    return diag.sample_deals(24, seed=7)


def _brute_force_worlds(know: Knowledge, active: tuple[int, ...] | None = None) -> int:
    """Every placement of the hidden cards, enumerated slot by slot (small positions only)."""
    slots = know.slots
    seen: set[tuple[int, ...]] = set()

    def fill(i: int, left: frozenset[int], masks: tuple[int, ...]) -> None:
        if i == len(slots):
            if not left:
                kept = [m for m, s in zip(masks, slots, strict=True) if active is None or s.owner in active]
                seen.add(tuple(kept))
            return
        for chosen in itertools.combinations(sorted(left), slots[i].size):
            mask = sum(1 << c for c in chosen)
            if not mask & slots[i].void_mask:
                fill(i + 1, left - set(chosen), (*masks, mask))

    fill(0, frozenset(c for c in range(32) if know.unknown >> c & 1), ())
    return len(seen)


def _late_states(deals: list, tricks_done: int) -> list[Deal]:  # type: ignore[type-arg]
    out = []
    for d in deals:
        if d.start is None:
            continue
        for state, _ in d.final.states():
            if (
                state.phase is Phase.PLAY
                and not state.current_trick
                and len(state.completed_tricks) == tricks_done
            ):
                out.append(state)
    return out


def test_deals_are_bid_and_played_by_the_bots(deals: list) -> None:  # type: ignore[type-arg]
    assert len(deals) == 24
    played = [d for d in deals if d.start is not None]
    assert played, "some deal must reach card play"
    for d in played:
        assert d.start.phase is Phase.PLAY and not d.start.completed_tricks
        assert d.final.is_over and len(d.final.completed_tricks) == 10
        assert d.ending == "played"
    for d in deals:
        if d.start is None:
            assert d.ending != "played" and not d.final.completed_tricks


def test_count_worlds_matches_enumeration_late_in_play(deals: list) -> None:  # type: ignore[type-arg]
    checked = 0
    for state in _late_states(deals, 7):
        assert state.declarer is not None
        active = (state.declarer, *state.defenders)
        for seat in active:
            know = Knowledge.from_view(state.view(seat))
            assert diag.count_worlds(know) == _brute_force_worlds(know)
            assert diag.count_worlds(know, active) == _brute_force_worlds(know, active)
            checked += 1
    assert checked >= 6


def test_count_worlds_at_the_deal_and_at_the_first_lead() -> None:
    deal = Deal.random(random.Random(11), dealer=2)
    know = Knowledge.from_view(deal.view(0))
    # before the auction: 22 hidden cards, 10 + 10 in the other hands, 2 in the prikup
    assert diag.count_worlds(know) == math.comb(22, 10) * math.comb(12, 10)
    assert any(s.owner == PRIKUP_SLOT for s in know.slots)


def test_disambiguation_counts_shrink_as_cards_are_played(deals: list) -> None:  # type: ignore[type-arg]
    for d in deals:
        if d.start is None:
            continue
        assert d.final.declarer is not None
        for seat in (d.final.declarer, *d.final.defenders):
            logs = []
            for state, _ in d.final.states():
                if state.phase is Phase.PLAY and not state.current_trick:
                    logs.append(math.log10(diag.count_worlds(Knowledge.from_view(state.view(seat)))))
            assert len(logs) == 10
            assert all(a >= b for a, b in itertools.pairwise(logs)), logs
            assert logs[0] > logs[-1] >= 0
    dis = diag.measure_disambiguation(deals)
    for column, per_trick in dis.items():
        if per_trick[0]:
            means = [sum(v) / len(v) for v in per_trick]
            assert all(a >= b for a, b in itertools.pairwise(means)), column


def test_a_seats_worlds_shrink_between_most_of_its_decisions(deals: list) -> None:  # type: ignore[type-arg]
    shrinking = diag.measure_shrinking(deals)
    assert sum(pairs for _, pairs in shrinking.values()) > 0
    for shrank, pairs in shrinking.values():
        assert 0 <= shrank <= pairs
    shrank = sum(s for s, _ in shrinking.values())
    pairs = sum(p for _, p in shrinking.values())
    # a seat learns nothing only if no card fell since its last decision, or a void gave it away
    assert shrank / pairs > 0.5


def test_bias_and_leaf_shares_are_probabilities(deals: list) -> None:  # type: ignore[type-arg]
    solver = diag.make_solver(2)
    bias = diag.measure_bias(deals, solver)
    assert bias.played == sum(1 for d in deals if d.start is not None)
    assert sum(bias.tricks_dd.values()) == bias.played
    assert set(bias.tricks_dd) <= set(range(11))
    for p in (bias.p_made_dd, bias.p_made_actual):
        assert 0 <= p <= 1
    assert sum(bias.endings.values()) == len(deals)
    random_nodes = diag.measure_leaves(deals, solver, seed=3, tricks_left=(2, 4), playouts=1)
    own_play = diag.measure_leaves(deals, solver, seed=3, tricks_left=(2, 4), bots_play=True)
    for acc in [*random_nodes.values(), *own_play.values()]:
        assert acc.nodes > 0 and acc.choices >= 2 * acc.nodes
        for count in (acc.same_result, acc.same_tricks, acc.same_scores, acc.same_own):
            assert 0 <= acc.share(count) <= 1
        assert acc.same_tricks <= acc.same_result  # equal tricks: an equal result
        assert acc.same_scores <= acc.same_own  # equal vectors: an equal own score


def test_same_seed_same_figures(deals: list) -> None:  # type: ignore[type-arg]
    again = diag.sample_deals(24, seed=7)
    assert [d.final.events for d in again] == [d.final.events for d in deals]
    solver = diag.make_solver(2)
    a = diag.measure_leaves(deals, solver, seed=3, tricks_left=(3,), playouts=1)[3]
    b = diag.measure_leaves(again, diag.make_solver(2), seed=3, tricks_left=(3,), playouts=1)[3]
    assert (a.nodes, a.same_result, a.same_tricks, a.same_scores) == (
        b.nodes,
        b.same_result,
        b.same_tricks,
        b.same_scores,
    )
    other = diag.sample_deals(24, seed=8)
    assert [d.final.events for d in other] != [d.final.events for d in deals]


def test_script_prints_every_section() -> None:
    args = ["--bidders", "heuristic", "pimc:1", "--deals", "6", "--tricks-left", "2", "3", "--seed", "2"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for heading in ("BIAS", "random playouts", "the bots' own play", "DISAMBIGUATION", "played by pimc:1"):
        assert heading in out, out
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), "--tricks-left", "1"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "--tricks-left" in bad.stderr
